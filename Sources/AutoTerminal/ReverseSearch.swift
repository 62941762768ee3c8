import Foundation

/// Ctrl-R's search back through the history, as bash's `reverse-i-search`: each character typed narrows it to the
/// newest entry that contains the text so far, Ctrl-R again goes on to an older one, Backspace widens it again.
/// libedit's own incremental search can't be used: its prompt is a bare `bck:`, fixed in its code.
package struct ReverseSearch: Equatable {
    /// The entries searched, oldest first.
    package let entries: [String]
    /// The line as it was when the search began: shown until something matches, and again when it is cancelled.
    package let original: String
    package private(set) var query = ""
    /// The entry shown, by index in `entries`.
    package private(set) var match: Int?
    /// Nothing (older) contains the text typed: the last match stays shown, as bash does.
    package private(set) var failed = false
    /// The search is over: the line is `text`, and the editor takes the keys again.
    package private(set) var isDone = false

    package init(entries: [String], original: String) {
        self.entries = entries
        self.original = original
    }

    /// Shown instead of the REPL's prompt while the search goes on.
    package var prompt: String { (failed ? "(failed reverse-i-search)" : "(reverse-i-search)") + "`\(query)': " }

    package var text: String { match.map { entries[$0] } ?? original }

    /// Where the cursor goes in `text`, in Unicode scalars (libedit's characters): at the text found, as bash puts it.
    package var cursor: Int {
        guard match != nil, !query.isEmpty, let found = text.range(of: query) else { return text.unicodeScalars.count }
        return text[..<found.lowerBound].unicodeScalars.count
    }

    package mutating func type(_ character: Character) {
        query.append(character)
        find(from: match ?? entries.count - 1)
    }

    package mutating func erase() {
        guard !query.isEmpty else { return }
        query.removeLast()
        if query.isEmpty {
            match = nil
            failed = false
        } else {
            find(from: entries.count - 1)
        }
    }

    /// Ctrl-R while searching: the next older entry with the text.
    package mutating func older() {
        guard let match, !query.isEmpty else { return }
        find(from: match - 1)
    }

    /// Ctrl-G: the line as it was before the search.
    package mutating func cancel() {
        match = nil
        isDone = true
    }

    /// Any other key: the entry found is the line, to edit or run.
    package mutating func accept() {
        isDone = true
    }

    private mutating func find(from start: Int) {
        guard start >= 0, let found = stride(from: min(start, entries.count - 1), through: 0, by: -1).first(where: { entries[$0].contains(query) }) else {
            failed = true
            return
        }
        match = found
        failed = false
    }
}
