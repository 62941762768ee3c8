/// One program the harness runs, and where it came from (for the report and for reproducing it).
public struct FuzzProgram: Sendable {
    /// Bytes, not a String: a mutated fixture may be invalid UTF-8, and the binary must cope with that too.
    public var bytes: [UInt8]
    /// `typed`, `extreme: deep parentheses`, `ill-typed: …`, `broken: …`, `mutated: basics/if.auto (…)`.
    public var origin: String
    /// False when the program may run until a limit stops it (a loop of a billion steps, runaway
    /// recursion, doubling a text): such programs are only run with `--timeout` or a small `--max-steps`.
    public var isBounded: Bool

    public init(bytes: [UInt8], origin: String, isBounded: Bool = true) {
        self.bytes = bytes
        self.origin = origin
        self.isBounded = isBounded
    }

    public init(text: String, origin: String, isBounded: Bool = true) {
        self.init(bytes: Array(text.utf8), origin: origin, isBounded: isBounded)
    }

    /// The program as text, for reports (invalid UTF-8 shown as U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// Writes random programs that are well typed by construction: it knows the type of every variable,
/// parameter, shortcut result and `it`, and builds each expression for a wanted type from productions
/// that yield that type (ExpressionGenerator.swift). So most programs pass the checker and run, and the
/// fuzzing reaches the executor, the value operations and the output, not just the parser.
///
/// A fraction of programs are instead extreme (ExtremePrograms.swift) or deliberately broken
/// (ProgramBreaker.swift).
public struct ProgramGenerator {
    struct Variable {
        let name: String
        let type: FuzzType
        /// Known to hold a non-empty list, so `first`, `max` … of it are not nil.
        let nonEmpty: Bool
    }

    struct Parameter {
        let name: String
        let type: FuzzType
        /// "= default" or "?" (optional, nil when not given), or "" (required).
        let suffix: String
        var isRequired: Bool { suffix.isEmpty }
    }

    struct Shortcut {
        let name: String
        let parameters: [Parameter]
        let result: FuzzType
        /// A shortcut that calls itself on `n - 1`: given a large `n` it reaches the call depth limit.
        let isRecursive: Bool
    }

    var random: FuzzRandom
    /// Whether the run that gets this program stops it at a limit: only then may it loop for long.
    let mayRunAway: Bool
    var lines: [String] = []
    var scopes: [[Variable]] = [[]]
    var shortcuts: [Shortcut] = []
    var nameCounter = 0
    /// The type of `it` here, when the generator can be sure of it.
    var itType: FuzzType?
    var indent = 0
    var blockDepth = 0
    /// Inside an `if` or `for` header, where a `{` opens the block: a record literal needs parentheses.
    var inHeader = false
    /// Inside a shortcut's body (only its parameters and own variables are visible; `return` allowed).
    var inShortcut = false
    /// How many loops enclose the statement being generated: `break` and `continue` need one.
    var loopDepth = 0
    /// The counters of `while` loops: never reassigned, or the loop might not end.
    var loopCounters: Set<String> = []
    var isBounded = true

    /// How deep expressions and blocks go in typed programs: enough to combine every production, small
    /// enough that a program runs in milliseconds.
    static let maxExpressionDepth = 3
    static let maxBlockDepth = 3

    public init(random: FuzzRandom, mayRunAway: Bool) {
        self.random = random
        self.mayRunAway = mayRunAway
    }

    /// Program `index` of campaign `seed`: typed (most), extreme, ill-typed or syntactically broken.
    public static func program(seed: UInt64, index: Int, mayRunAway: Bool) -> FuzzProgram {
        var generator = ProgramGenerator(random: FuzzRandom(seed: seed, index: index, stream: 1), mayRunAway: mayRunAway)
        return generator.anyProgram()
    }

    public mutating func anyProgram() -> FuzzProgram {
        let shape = random.weighted([(78, 0), (10, 1), (7, 2), (5, 3)])
        switch shape {
        case 1:
            var extremes = ExtremePrograms(random: random, mayRunAway: mayRunAway)
            let program = extremes.program()
            random = extremes.random
            return program
        case 2, 3:
            let program = typedProgram()
            var breaker = ProgramBreaker(random: random)
            defer { random = breaker.random }
            return shape == 2 ? breaker.illTyped(program) : breaker.broken(program)
        default:
            return typedProgram()
        }
    }

    // MARK: Programs

    public mutating func typedProgram() -> FuzzProgram {
        declare(Variable(name: "args", type: .list(.text), nonEmpty: false))
        var declarations: [String] = []
        for _ in 0..<random.weighted([(30, 0), (35, 1), (25, 2), (10, 3)]) {
            declarations += shortcutDeclaration()
        }
        // Shortcuts are registered before the script is checked, so they may also come after their calls.
        let declarationsFirst = random.chance(0.8)
        if declarationsFirst { lines += declarations; if !declarations.isEmpty { lines.append("") } }
        for _ in 0..<random.int(2...10) { statement() }
        finalStatement()
        if !declarationsFirst { lines.append(""); lines += declarations }
        return FuzzProgram(text: lines.joined(separator: "\n") + "\n", origin: "typed", isBounded: isBounded)
    }

    /// The last statement gives the script's result, which `--json` prints: usually a value of some
    /// type, so that every kind of value meets the JSON writer.
    mutating func finalStatement() {
        switch random.int(0..<10) {
        case 0: emit("return \(expression(randomType(), depth: 2))")
        case 1, 2: break
        default: emit(expression(randomType(), depth: 2))
        }
    }

    // MARK: Names and scopes

    mutating func freshName(_ prefix: String) -> String {
        nameCounter += 1
        return "\(prefix)\(nameCounter)"
    }

    mutating func declare(_ variable: Variable) {
        scopes[scopes.count - 1].append(variable)
    }

    var visible: [Variable] { scopes.flatMap { $0 } }

    func variables(of type: FuzzType) -> [Variable] {
        visible.filter { $0.type == type }
    }

    mutating func emit(_ line: String) {
        lines.append(String(repeating: "  ", count: indent) + line)
    }

    /// A block's statements, one level in. Variables set inside stay visible to the checker afterwards
    /// (there is no block scope) but the generator stops using them: they may not have been assigned.
    mutating func block(_ body: (inout ProgramGenerator) -> Void) {
        indent += 1
        blockDepth += 1
        scopes.append([])
        itType = nil
        body(&self)
        scopes.removeLast()
        blockDepth -= 1
        indent -= 1
        itType = nil
    }

    mutating func statements(_ range: ClosedRange<Int>) {
        let count = random.int(range)
        for _ in 0..<count { statement() }
        // `stop` only ends a block: anything after it in the same block is a compile-time error.
        if !inShortcut && random.chance(0.03) { emit("stop") }
    }

    // MARK: Types

    mutating func randomType(depth: Int = 2) -> FuzzType {
        let scalar = random.pick(FuzzType.scalars)
        guard depth > 0 else { return scalar }
        return random.weighted([
            (70, scalar),
            (14, .list(randomType(depth: depth - 1))),
            (8, .record(recordShape(depth: depth - 1))),
            (6, .list(.record(recordShape(depth: 0)))),
            (2, .null),
        ])
    }

    static let fieldNames = ["a", "b", "c", "title", "n", "when", "tags", "size"]

    mutating func recordShape(depth: Int) -> FuzzType.RecordShape {
        var names = Self.fieldNames
        var shape = FuzzType.RecordShape(names: [], types: [])
        for _ in 0..<random.int(1...3) {
            let name = names.remove(at: random.int(0..<names.count))
            shape.names.append(name)
            shape.types.append(depth > 0 && random.chance(0.2) ? randomType(depth: depth - 1) : random.pick(FuzzType.scalars))
        }
        return shape
    }

    // MARK: Statements

    mutating func statement() {
        let canNest = blockDepth < Self.maxBlockDepth
        let choice = random.weighted([
            (24, "set"), (8, "reassign"), (14, "show"), (6, "value"), (5, "arrow"), (4, "it"),
            (canNest ? 8 : 0, "if"), (canNest ? 6 : 0, "for"), (canNest ? 4 : 0, "repeat"), (canNest ? 3 : 0, "while"), (canNest ? 2 : 0, "try"),
            (loopDepth > 0 ? 3 : 0, "loop exit"),
            (5, "stages"), (shortcuts.isEmpty ? 0 : 6, "call"), (3, "stdlib"), (mayRunAway ? 1 : 0, "runaway"),
        ])
        switch choice {
        case "set":
            let type = randomType()
            let value = expression(type, depth: random.int(1...Self.maxExpressionDepth))
            let name = freshName("v")
            emit("set \(name) = \(value)")
            declare(Variable(name: name, type: type, nonEmpty: Self.isNonEmptyLiteral(value)))
            itType = type
        case "reassign":
            guard let variable = visible.filter({ $0.name != "args" && !loopCounters.contains($0.name) }).randomElement(using: &random) else { return statement() }
            let value = expression(variable.type, depth: random.int(1...2))
            emit("set \(variable.name) = \(value)")
            // The variable keeps its type; whether it is still non-empty is no longer known.
            if variable.nonEmpty { replace(variable, nonEmpty: Self.isNonEmptyLiteral(value)) }
            itType = variable.type
        case "show":
            emit("show \(argument(expression(randomType(), depth: random.int(0...Self.maxExpressionDepth))))")
        case "value":
            let type = randomType()
            emit(expression(type, depth: random.int(1...2)))
            itType = type
        case "arrow":
            let type = randomType()
            let name = freshName("v")
            emit("\(expression(type, depth: random.int(1...2))) -> \(name)")
            declare(Variable(name: name, type: type, nonEmpty: false))
            itType = type
        case "it":
            guard let type = itType else { return statement() }
            if random.chance(0.5) {
                emit("show it")
            } else {
                let name = freshName("v")
                emit("set \(name) = \(random.chance(0.5) ? "it" : expressionUsingIt(type))")
                declare(Variable(name: name, type: type, nonEmpty: false))
            }
        case "if":
            ifStatement()
        case "for":
            forStatement()
        case "repeat":
            let count = random.weighted([(6, String(random.int(0...4))), (2, "(-1)"),
                                         (2, "count(\(expression(.list(randomType(depth: 0)), depth: 1)))")])
            emit("repeat \(count) times {")
            loopBody()
        case "while":
            whileStatement()
        case "try":
            // The first block often fails (a division, a number read from a text), the second says so.
            emit("try {")
            block { $0.statements(1...2) }
            emit(random.chance(0.5) ? "} otherwise {" : "}\notherwise {")
            block { generator in
                if generator.random.chance(0.5) { generator.emit("show error") } else { generator.statements(1...2) }
            }
            emit("}")
        case "loop exit":
            // Inside an `if`, so that what follows in the block is still reachable.
            inHeader = true
            let condition = expression(.bool, depth: random.int(0...2))
            inHeader = false
            emit("if \(condition) { \(random.chance(0.5) ? "break" : "continue") }")
        case "stages":
            listStagesStatement()
        case "call":
            let shortcut = random.pick(shortcuts)
            callStatement(shortcut)
        case "stdlib":
            let type = random.pick([FuzzType.int, .decimal, .text, .list(.int)])
            emit("show \(stdlibCall(type, depth: 1))")
        default:
            runawayStatement()
        }
    }

    mutating func replace(_ variable: Variable, nonEmpty: Bool) {
        for scope in scopes.indices {
            if let index = scopes[scope].firstIndex(where: { $0.name == variable.name }) {
                scopes[scope][index] = Variable(name: variable.name, type: variable.type, nonEmpty: nonEmpty)
            }
        }
    }

    /// `[` with at least one item before the `]`, and not `[]`: a list known not to be empty.
    static func isNonEmptyLiteral(_ text: String) -> Bool {
        text.hasPrefix("[") && text != "[]"
    }

    mutating func expressionUsingIt(_ type: FuzzType) -> String {
        switch type {
        case .int: return "(it + \(random.int(0...9)))"
        case .text: return "(it + \"!\")"
        case .list: return "(it + it)"
        case .bool: return "(not it)"
        default: return "it"
        }
    }

    mutating func ifStatement() {
        inHeader = true
        let condition = expression(.bool, depth: random.int(1...2))
        inHeader = false
        emit("if \(condition) {")
        block { $0.statements(1...3) }
        var line = "}"
        for _ in 0..<random.weighted([(6, 0), (3, 1), (1, 2)]) {
            inHeader = true
            let other = expression(.bool, depth: 1)
            inHeader = false
            emit(line + " else if \(other) {")
            block { $0.statements(1...2) }
            line = "}"
        }
        if random.chance(0.5) {
            emit(line + " else {")
            block { $0.statements(1...2) }
        }
        emit("}")
    }

    mutating func forStatement() {
        let element = randomType(depth: 1)
        inHeader = true
        let list = expression(.list(element), depth: random.int(0...2))
        inHeader = false
        let name = freshName("e")
        emit("for \(name) in \(list) {")
        loopBody { $0.declare(Variable(name: name, type: element, nonEmpty: false)) }
    }

    /// `while` over a counter of its own, so that it ends: `continue` comes after the counter goes up.
    mutating func whileStatement() {
        let counter = freshName("w")
        loopCounters.insert(counter)
        emit("set \(counter) = 0")
        declare(Variable(name: counter, type: .int, nonEmpty: false))
        inHeader = true
        let more = random.chance(0.3) ? " and \(expression(.bool, depth: random.int(0...1)))" : ""
        inHeader = false
        emit("while \(counter) < \(random.int(0...4))\(more) {")
        loopBody { generator in generator.emit("set \(counter) = \(counter) + 1") }
    }

    /// A loop's block and its closing brace; `start` declares or emits what comes first in it.
    mutating func loopBody(_ start: (inout ProgramGenerator) -> Void = { _ in }) {
        loopDepth += 1
        block { generator in
            start(&generator)
            generator.statements(1...3)
        }
        loopDepth -= 1
        emit("}")
    }

    /// `xs | filter where … | sort by … | limit n -> name` on a list of records, or `limit` on any list.
    mutating func listStagesStatement() {
        let shape = recordShape(depth: 0)
        let list = expression(.list(.record(shape)), depth: 1)
        var stages: [String] = []
        for _ in 0..<random.int(1...3) {
            switch random.int(0..<3) {
            case 0: stages.append("filter where \(whereClause(shape))")
            case 1: stages.append("sort by \(sortKeys(shape))")
            default: stages.append("limit \(limitCount())")
            }
        }
        let name = freshName("v")
        emit("\(list) | " + stages.joined(separator: " | ") + " -> \(name)")
        declare(Variable(name: name, type: .list(.record(shape)), nonEmpty: false))
        itType = .list(.record(shape))
    }

    mutating func limitCount() -> String {
        // A negative constant limit is a compile-time error: rare, so that most pipelines run.
        random.weighted([(30, String(random.int(0...5))), (1, "(-1)"), (2, "9223372036854775807")])
    }

    /// A condition on a record's fields: the left side of each comparison names a field.
    mutating func whereClause(_ shape: FuzzType.RecordShape, depth: Int = 1) -> String {
        if depth > 0 && random.chance(0.3) {
            let op = random.pick(["and", "or"])
            return "\(whereClause(shape, depth: depth - 1)) \(op) \(whereClause(shape, depth: depth - 1))"
        }
        let index = random.int(0..<shape.names.count)
        let (field, type) = (shape.names[index], shape.types[index])
        let negation = random.chance(0.1) ? "not " : ""
        switch type {
        case .bool where random.chance(0.5):
            return negation + field
        case .text where random.chance(0.4):
            let op = random.pick(["contains", "starts with", "ends with"])
            return "\(negation)\(field) \(op) \(expression(.text, depth: 0))"
        case _ where type.isOrderable && random.chance(0.2):
            return "\(negation)\(field) between \(expression(type, depth: 0)) and \(expression(type, depth: 0))"
        case _ where random.chance(0.15):
            return "\(negation)\(field) in \(listLiteral(type, depth: 0))"
        case _ where type.isOrderable:
            let op = random.pick(["==", "!=", "<", "<=", ">", ">="])
            return "\(negation)\(field) \(op) \(expression(type, depth: 1))"
        default:
            return "\(negation)\(field) \(random.pick(["==", "!="])) \(expression(type, depth: 1))"
        }
    }

    mutating func sortKeys(_ shape: FuzzType.RecordShape) -> String {
        let orderable = shape.names.indices.filter { shape.types[$0].isOrderable }
        guard !orderable.isEmpty else { return shape.names[0] }   // an unorderable key: a compile-time error
        var keys: [String] = []
        for _ in 0..<random.int(1...min(2, orderable.count)) {
            let index = random.pick(orderable)
            // Only a text key may ignore case: on another it is a compile-time error.
            let folding = shape.types[index] == .text && random.chance(0.3) ? " ignoring case" : ""
            keys.append(shape.names[index] + random.pick(["", " asc", " desc"]) + folding)
        }
        return keys.joined(separator: ", ")
    }

    // MARK: Shortcuts

    static let shortcutWords = ["alpha", "beta", "gamma", "delta", "omega", "kappa", "sigma", "theta"]

    mutating func shortcutDeclaration() -> [String] {
        let name = "fz " + Self.shortcutWords[shortcuts.count % Self.shortcutWords.count] + (shortcuts.count >= 8 ? "\(shortcuts.count)" : "")
        if random.chance(0.15) { return recursiveShortcut(name) }
        let parameterTypes: [FuzzType] = [.int, .decimal, .text, .bool, .date, .duration, .size, .list(.int), .list(.text)]
        var parameters: [Parameter] = []
        for index in 0..<random.int(1...3) {
            let type = random.pick(parameterTypes)
            var suffix = ""
            // The input (the first parameter) stays required, so that a call always gives it.
            if index > 0 {
                switch random.int(0..<4) {
                // A default must be a constant: not `now`, not `date(…)`.
                case 0 where type != .date: suffix = " = " + literal(type)
                case 1 where type == .text: suffix = "?"
                default: break
                }
            }
            parameters.append(Parameter(name: "p\(index + 1)", type: type, suffix: suffix))
        }
        let result = randomType(depth: 1)
        // The body sees only its parameters and its own variables.
        let saved = (scopes, itType, indent, blockDepth, lines)
        scopes = [parameters.map { Variable(name: $0.name, type: $0.suffix == "?" ? .null : $0.type, nonEmpty: false) }]
        itType = nil
        indent = 1
        blockDepth = 1
        lines = []
        inShortcut = true
        statements(0...3)
        if random.chance(0.3) {
            inHeader = true
            let condition = expression(.bool, depth: 1)
            inHeader = false
            emit("if \(condition) { return \(expression(result, depth: 1)) }")
        }
        emit("return \(expression(result, depth: 2))")
        let body = lines
        inShortcut = false
        (scopes, itType, indent, blockDepth, lines) = saved
        let list = parameters.map { "\($0.name): \($0.type.declaration)\($0.suffix)" }.joined(separator: ", ")
        shortcuts.append(Shortcut(name: name, parameters: parameters, result: result, isRecursive: false))
        return ["shortcut \"\(name)\" (\(list)) {"] + body + ["}"]
    }

    mutating func recursiveShortcut(_ name: String) -> [String] {
        shortcuts.append(Shortcut(name: name, parameters: [Parameter(name: "n", type: .int, suffix: "")], result: .int, isRecursive: true))
        return [
            "shortcut \"\(name)\" (n: Int) {",
            "  if n <= 0 { return 0 }",
            "  return 1 + (\(name) n - 1)",
            "}",
        ]
    }

    /// `fz alpha input p2: x`, the input given or piped, or a list piped into it (one call per element).
    mutating func call(_ shortcut: Shortcut, depth: Int) -> (text: String, type: FuzzType) {
        let input = shortcut.parameters[0]
        var labeled: [String] = []
        for parameter in shortcut.parameters.dropFirst() where parameter.isRequired || random.chance(0.5) {
            labeled.append("\(parameter.name): \(argument(expression(parameter.type, depth: max(0, depth - 1))))")
        }
        let rest = labeled.isEmpty ? "" : " " + labeled.joined(separator: " ")
        if shortcut.isRecursive {
            let n = random.weighted([(8, String(random.int(0...6))), (mayRunAway ? 2 : 0, String(random.pick([199, 200, 500, 100_000])))])
            return ("(\(shortcut.name) \(n))", .int)
        }
        // A list piped into a parameter that takes a list is that one value, not one call per element.
        switch random.int(0..<6) {
        case 0 where input.type.element == nil:
            let list = expression(.list(input.type), depth: max(0, depth - 1))
            return ("(\(list) | \(shortcut.name)\(rest))", .list(shortcut.result))
        case 1:
            return ("(\(argument(expression(input.type, depth: max(0, depth - 1)))) | \(shortcut.name)\(rest))", shortcut.result)
        default:
            return ("(\(shortcut.name) \(argument(expression(input.type, depth: max(0, depth - 1))))\(rest))", shortcut.result)
        }
    }

    mutating func callStatement(_ shortcut: Shortcut) {
        let (text, type) = call(shortcut, depth: 2)
        // Without its parentheses, as a statement: `fz alpha 3 p2: "x" -> v4`.
        let bare = String(text.dropFirst().dropLast())
        if random.chance(0.5) {
            let name = freshName("v")
            emit("\(bare) -> \(name)")
            declare(Variable(name: name, type: type, nonEmpty: false))
        } else {
            emit(bare)
        }
        itType = type
    }

    /// A loop that only a limit stops, or that grows a value each turn.
    mutating func runawayStatement() {
        isBounded = false
        let name = freshName("v")
        switch random.int(0..<4) {
        case 0:
            emit("set \(name) = 0")
            emit("repeat 1000000000 times { set \(name) = \(name) + 1 }")
        case 1:
            emit("repeat 1000000000 times { show \"tick\" }")
        case 2:
            emit("set \(name) = \"ab\"")
            emit("repeat \(random.pick([20, 24, 40, 64])) times { set \(name) = \(name) + \(name) }")
            emit("show count(\(name))")
        default:
            emit("set \(name) = [1]")
            emit("repeat \(random.pick([20, 24, 40])) times { set \(name) = \(name) + \(name) }")
            emit("show count(\(name))")
        }
    }
}

extension Array {
    func randomElement(using random: inout FuzzRandom) -> Element? {
        isEmpty ? nil : self[random.int(0..<count)]
    }
}
