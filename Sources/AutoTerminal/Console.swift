import Foundation

/// Where the CLI writes: standard output for results, standard error for people when `--json` is on and
/// for diagnostics. Tests give it closures that collect the text instead.
package struct Console: Sendable {
    package let writeOut: @Sendable (String) -> Void
    package let writeError: @Sendable (String) -> Void
    /// Colour on standard error (diagnostics, prompts) and standard output.
    package let colourError: Bool
    package let colourOut: Bool
    /// The width of the terminal standard output is, asked each time (it may be resized); nil when it is no terminal:
    /// values are then written on the lines a script's output always has, and on a terminal laid out for people.
    package let outputColumns: @Sendable () -> Int?

    package init(writeOut: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
                colourOut: Bool = false, colourError: Bool = false, outputColumns: @escaping @Sendable () -> Int? = { nil }) {
        self.writeOut = writeOut
        self.writeError = writeError
        self.colourOut = colourOut
        self.colourError = colourError
        self.outputColumns = outputColumns
    }

    /// The process's own streams; colour only on a terminal, never with NO_COLOR or TERM=dumb.
    package static var standard: Console {
        // getenv, not ProcessInfo's environment, which copies all of it into a dictionary on every start.
        let noColour = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        let colourAllowed = !noColour && getenv("TERM").map { String(cString: $0) } != "dumb"
        return Console(
            writeOut: { text in StandardStream.output.write(text) },
            writeError: { text in StandardStream.error.write(text) },
            colourOut: colourAllowed && isatty(1) == 1,
            colourError: colourAllowed && isatty(2) == 1,
            outputColumns: { StandardStream.output.terminalColumns })
    }
}
