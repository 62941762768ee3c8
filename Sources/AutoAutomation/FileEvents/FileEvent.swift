/// A change to a file in a watched folder, as a file trigger sees it: what happened, to which path, and how it was
/// learnt. Folders never make events of their own; they only matter for what a recursive watch enters.
package struct FileEvent: Sendable, Hashable, Codable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// A new name, complete: written and closed, moved in, or found by a scan.
        case created
        /// The file at a known name was written and closed, or another file was renamed over it (an atomic save).
        case changed
        /// The name is gone: deleted, moved away, or found missing by a scan.
        case deleted
    }

    package let kind: Kind
    /// Absolute, as the watched folder was given followed by the names inside it.
    package let path: String
    /// Found by comparing a scan of the folder with what was known (after a kernel queue overflow, in a folder that
    /// appeared or came back, by polling, or against a stored snapshot at start), not reported by the kernel.
    package let fromRescan: Bool

    package init(_ kind: Kind, _ path: String, fromRescan: Bool = false) {
        self.kind = kind
        self.path = path
        self.fromRescan = fromRescan
    }

    package var description: String { "\(kind.rawValue) \(path)" + (fromRescan ? " (rescan)" : "") }
}
