/// A place in a script as people count it: file, line and column from 1. Diagnostics, the nodes of a graph
/// and runtime errors all carry one.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public let file: String
    public let line: Int
    public let column: Int
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }
    public var description: String { "\(file):\(line):\(column)" }
}
