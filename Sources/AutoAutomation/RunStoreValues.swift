import AutoIntents
import AutoRuntime
import Foundation

/// How every store writes what it keeps, so that one is read back the same from SQLite as from PostgreSQL: instants
/// as whole milliseconds since 1970 (what a fire's key is unique by), durations as microseconds, and lists as JSON
/// text that a person can read with the database's own command-line client.
extension RunStore {
    /// Whether an automation is enabled (the default) or disabled by `auto automations disable`.
    nonisolated(nonsending) package func isEnabled(_ name: String) async throws(RunStoreError) -> Bool {
        try await !disabledNames().contains(name)
    }

    /// A file fire's paths as a JSON array: in order, and readable with sqlite3 or psql. Written by the engine's JSON
    /// writer: JSONSerialization bridged and cast each path at run time, a tenth of a claim's time on the processor
    /// (0.04 ms of a claim after an idle spell), on the way from a file event to its run.
    static func encode(paths: [String]) -> String {
        ValueFormatter.json(.list(paths.map(Value.text)))
    }

    static func decode(paths text: String) -> [String] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String] ?? []
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }
    static func microseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
    }

    /// Arguments as a JSON array of `[name, value]` pairs: in order, and readable with sqlite3 or psql.
    static func encode(_ arguments: [RunTrace.Argument]) -> String {
        ValueFormatter.json(.list(arguments.map { .list([.text($0.name), .text($0.value)]) }))
    }

    static func decode(_ text: String) -> [RunTrace.Argument] {
        guard let pairs = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String]] else { return [] }
        return pairs.compactMap { $0.count == 2 ? RunTrace.Argument(name: $0[0], value: $0[1]) : nil }
    }

    /// `file.auto:3:5` back into a location; the file may itself hold colons.
    static func location(_ text: String) -> SourceLocation {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
            return SourceLocation(file: text, line: 0, column: 0)
        }
        return SourceLocation(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column)
    }
}
