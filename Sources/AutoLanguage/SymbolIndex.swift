import AutoIntents

/// Where each variable and shortcut of a script is declared and used, as the checker resolved them: what an editor's
/// go to definition, references, rename and hover read. Filled while the script is checked (`ScriptCompiler.index`),
/// read after; only names written in the script itself are kept, not the prelude's.
///
/// A variable is one per body (the script's top level, a shortcut's, an automation's): variables live for the whole
/// body, so `x` set in an `if` and read after it is one variable. A shortcut is one per script.
package final class SymbolIndex {
    package enum Kind: Sendable, Equatable {
        case variable, shortcut
    }

    package struct Symbol: Sendable {
        package let name: String
        package let kind: Kind
        /// Where it is first declared: a variable's first `set`, `-> x`, `for x in` or parameter; a shortcut's name.
        /// Nil for what nothing in the script declares: `args`, an automation's trigger names, `error` in `otherwise`.
        package internal(set) var declaration: Span?
    }

    package struct Occurrence: Sendable {
        package let span: Span
        /// An index into `symbols`.
        package let symbol: Int
        /// Whether the name is given a value here (`set x`, `-> x`, `for x in`, a parameter, a shortcut's name), rather
        /// than read or called.
        package let isDeclaration: Bool
        /// The variable's type at this place; a shortcut's result type.
        package let type: ValueType
    }

    package private(set) var symbols: [Symbol] = []
    /// Where the words the parser read as names start (`Parser.nameSpans`): any other word it read is a keyword there.
    package internal(set) var nameStarts: Set<Int> = []
    /// The words of every call of an intent or shortcut, in the order they were checked.
    private var calls: [Span] = []
    /// By where they start: a name the checker looks up several times is one occurrence.
    private var byStart: [Int: Occurrence] = [:]
    /// The current body's symbol for each of its slots.
    private var slotSymbols: [Int: Int] = [:]
    private var shortcutSymbols: [String: Int] = [:]
    let script: SourceFile

    init(script: SourceFile) {
        self.script = script
    }

    /// Every occurrence, in the order of the text: sorted once, when first read after the check.
    package private(set) lazy var occurrences: [Occurrence] = byStart.values.sorted { $0.span.start < $1.span.start }
    private lazy var sortedCalls: [Span] = calls.sorted { $0.start < $1.start }

    /// The occurrence whose name the offset is in or just after (an editor's cursor at a word's end is on it): the last
    /// one starting at or before the offset, or else the one before it, should a name end where the next one starts.
    package func occurrence(at offset: Int) -> Occurrence? {
        let sorted = occurrences
        let count = Self.count(sorted, startingAtOrBefore: offset) { $0.span.start }
        return sorted[max(0, count - 2)..<count].reversed().first { $0.span.start <= offset && offset <= $0.span.end }
    }

    /// The occurrence whose name starts at `start` exactly.
    package func occurrence(startingAt start: Int) -> Occurrence? {
        byStart[start]
    }

    /// Whether `span` is among the words of a call (`pages left`, `add book`).
    package func isInCall(_ span: Span) -> Bool {
        let count = Self.count(sortedCalls, startingAtOrBefore: span.start) { $0.start }
        return count > 0 && sortedCalls[count - 1].end >= span.end
    }

    /// How many of `sorted` (in order of their start) start at or before `offset`: a binary search.
    static func count<T>(_ sorted: [T], startingAtOrBefore offset: Int, start: (T) -> Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if start(sorted[middle]) <= offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    package func occurrences(of symbol: Int) -> [Occurrence] {
        occurrences.filter { $0.symbol == symbol }
    }

    // MARK: Recorded by the checker

    /// A new body: its slots are new variables.
    func beginBody() {
        slotSymbols = [:]
    }

    /// A variable given a value at `name` (written in `file`), or declared by nothing written (`written` false).
    func declare(_ name: Identifier, slot: Int, type: ValueType, in file: SourceFile, written: Bool = true) {
        let symbol = variable(name.name, slot: slot, declaredAt: written && file === script ? name.span : nil)
        guard written, file === script else { return }
        byStart[name.span.start] = Occurrence(span: name.span, symbol: symbol, isDeclaration: true, type: type)
    }

    /// A variable read at `name`.
    func read(_ name: Identifier, slot: Int, type: ValueType, in file: SourceFile) {
        guard file === script else { return }
        let symbol = variable(name.name, slot: slot, declaredAt: nil)
        // A place that declares it stays a declaration: the checker may look a `set`'s name up as well.
        if byStart[name.span.start]?.isDeclaration == true { return }
        byStart[name.span.start] = Occurrence(span: name.span, symbol: symbol, isDeclaration: false, type: type)
    }

    /// A shortcut of the script, declared at `nameSpan`.
    func declareShortcut(_ name: String, at nameSpan: Span, in file: SourceFile) {
        guard file === script else { return }
        symbols.append(Symbol(name: name, kind: .shortcut, declaration: nameSpan))
        shortcutSymbols[name] = symbols.count - 1
        byStart[nameSpan.start] = Occurrence(span: nameSpan, symbol: symbols.count - 1, isDeclaration: true, type: .any)
    }

    /// A call of an intent whose name the words at `span` spell; an occurrence too when it is one of the script's shortcuts.
    func call(_ intent: IntentDescriptor, at span: Span, in file: SourceFile) {
        guard file === script else { return }
        calls.append(span)
        guard let symbol = shortcutSymbols[intent.name] else { return }
        byStart[span.start] = Occurrence(span: span, symbol: symbol, isDeclaration: false, type: intent.outputType)
    }

    private func variable(_ name: String, slot: Int, declaredAt span: Span?) -> Int {
        if let symbol = slotSymbols[slot] {
            if symbols[symbol].declaration == nil, let span { symbols[symbol].declaration = span }
            return symbol
        }
        symbols.append(Symbol(name: name, kind: .variable, declaration: span))
        slotSymbols[slot] = symbols.count - 1
        return symbols.count - 1
    }
}
