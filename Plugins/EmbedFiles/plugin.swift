import PackagePlugin

/// Embeds a target's text files (`.auto` shortcuts, `.csv` seed data) in its code as `EmbeddedFiles.all`, so
/// that a binary carries what it needs: a resource bundle next to it would be missing once the binary is
/// installed elsewhere. Every such file in the target's folder is embedded; adding one needs no manifest change.
@main
struct EmbedFiles: BuildToolPlugin {
    static let embeddedExtensions: Set<String> = ["auto", "csv"]

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let inputs = target.sourceFiles.map(\.url).filter { Self.embeddedExtensions.contains($0.pathExtension) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [.buildCommand(
            displayName: "Embedding \(inputs.count) files in \(target.name)",
            executable: try context.tool(named: "embed-files").url,
            arguments: [target.directoryURL.path, output.path] + inputs.map(\.path),
            inputFiles: inputs, outputFiles: [output])]
    }
}
