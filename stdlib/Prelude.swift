import Foundation

/// The standard library written in .auto: every `stdlib/*.auto` file, loaded before a script as its prelude.
public enum Prelude {
    /// (file name, source text) for each prelude file, in name order so diagnostics are stable.
    public static let sources: [(name: String, text: String)] = {
        guard let folder = Bundle.module.resourceURL,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return names.filter { $0.hasSuffix(".auto") }.sorted().compactMap { name in
            guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return nil }
            return ("stdlib/" + name, text)
        }
    }()
}
