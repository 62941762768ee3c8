/// A place in a script as people count it: file, line and column from 1. Diagnostics, the nodes of a graph
/// and runtime errors all carry one.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    package let file: String
    package let line: Int
    package let column: Int
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
    package var description: String { "\(file):\(line):\(column)" }
}
