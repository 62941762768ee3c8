import ArgumentParser
import AutoLSP
import Foundation

/// `auto lsp`: the language server an editor starts, on standard input and output, with this host's intents.
struct LspCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp", abstract: "Serve editors: a language server (LSP) on standard input and output.",
        discussion: """
            An editor starts it and talks to it; each open .auto script is checked as `\(AutoCommandLine.host.name) check` \
            checks it, with this host's intents, after each change, and its errors and warnings are shown in place.
            """)

    func run() throws {
        let host = AutoCommandLine.host
        let status = LanguageServer.serve(name: "\(host.name) lsp", version: host.version) { source in
            switch host.compile(source) {
            case .success(let compiled): compiled.warnings
            case .failure(let failure): failure.diagnostics
            }
        }
        throw ExitCode(status)
    }
}
