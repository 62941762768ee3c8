import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import GRDB
@testable import LibraryExample
import Testing

/// Hundreds of generated where/sort/limit queries over the example data give the same books through SQL
/// pushdown, through engine-side evaluation and through a brute-force oracle written here.
@Suite struct DifferentialTests {
    @Test func pushdownEngineAndOracleAgree() async throws {
        let folder = try TemporaryFolder("library-tests")
        defer { withExtendedLifetime(folder) {} }
        let database = freshDatabase(in: folder)
        try await spreadDatesAdded(database)
        let pushdown = try Library.registry(database: database)
        var engineOnly = Registry.standard
        try engineOnly.register(query: EngineOnlyBookQuery(books: BookQuery(database: database)))
        let books = try await BookQuery(database: database).allEntities()
        #expect(books.count >= 300)

        var generator = QueryGenerator(books: books, seed: 20_261_122)
        var pushedSomething = 0, engineSomething = 0, ignoringCase = 0, byDateAdded = 0
        for _ in 0..<400 {
            let query = generator.query()
            let script = "find books " + query.script
            let viaSQL = try await run(script, pushdown)
            let viaEngine = try await run(script, engineOnly)
            let expected = query.evaluate(books).map(\.id)
            #expect(viaSQL.ids == expected, "SQL pushdown differs for: \(script)")
            #expect(viaEngine.ids == expected, "the engine differs for: \(script)")
            if viaSQL.summary.contains("host: ") && !viaSQL.summary.contains("host: all books") { pushedSomething += 1 }
            if viaSQL.summary.contains("engine: ") { engineSomething += 1 }
            if script.contains("added") { byDateAdded += 1 }
            if script.contains("ignoring case") {
                ignoringCase += 1
                // SQL is never asked for a sort ignoring case: the engine sorts (and limits) those books.
                let host = viaSQL.summary.components(separatedBy: " · engine: ")[0]
                #expect(!host.contains("sort by") && !host.contains("limit"), "pushed down: \(viaSQL.summary)")
            }
        }
        // The generated queries exercise both sides of the planner.
        #expect(pushedSomething > 100)
        #expect(engineSomething > 20)
        #expect(ignoringCase > 20)
        #expect(byDateAdded > 40)
    }

    /// The seeded books all came at the library's making: a library in use has books added on many days, and
    /// some from before the date was kept (nil). Midnights, so that the queries' `date("…")` literals are exact.
    func spreadDatesAdded(_ database: LibraryDatabase) async throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let days = (0..<12).map { calendar.date(from: DateComponents(year: 2025, month: $0 + 1, day: 3 + $0))! }
        try await database.write { db in
            for (index, id) in try Int64.fetchAll(db, sql: "SELECT id FROM book ORDER BY id").enumerated() {
                let added: Date? = index % 13 == 0 ? nil : days[index % days.count]
                try db.execute(sql: "UPDATE book SET added = ? WHERE id = ?", arguments: [added, id])
            }
        }
    }

    func run(_ script: String, _ registry: Registry) async throws -> (ids: [Int64], summary: String) {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "q.auto", text: script), registry: registry).get()
        let summary = compiled.graph.allNodes.compactMap { node -> String? in
            if case .find(let call) = node.kind { return call.summary }
            return nil
        }.joined()
        let result = try await compiled.run()
        guard case .list(let items) = result else { return ([], summary) }
        return (items.compactMap { value in
            if case .entity(let entity) = value { return (entity.payload as? TypedEntityPayload<Book>)?.entity.id }
            return nil
        }, summary)
    }
}

/// Random where-clauses, sorts and limits, with values drawn from the data so that they match something.
struct QueryGenerator {
    let books: [Book]
    var random: SeededRandom

    init(books: [Book], seed: UInt64) {
        self.books = books
        random = SeededRandom(seed: seed)
    }

    enum Property: String, CaseIterable {
        case title, author, genre, recommendedBy, published, readDate, pages, rating, shelf, added
    }

    indirect enum Condition {
        case compare(Property, String, OracleValue)
        case between(Property, OracleValue, OracleValue)
        case and(Condition, Condition)
        case or(Condition, Condition)
        case not(Condition)
    }

    struct Query {
        let condition: Condition?
        /// Each key: its property, whether it is descending, whether it ignores case.
        let sort: [(Property, Bool, Bool)]
        let limit: Int?

        var script: String {
            var parts: [String] = []
            if let condition { parts.append("where " + Self.text(condition)) }
            if !sort.isEmpty {
                parts.append("sort by " + sort.map { $0.0.rawValue + ($0.1 ? " desc" : "") + ($0.2 ? " ignoring case" : "") }.joined(separator: ", "))
            }
            if let limit { parts.append("limit \(limit)") }
            return parts.joined(separator: " ")
        }

        static func text(_ condition: Condition) -> String {
            switch condition {
            case .compare(let property, let op, let value): return "\(property.rawValue) \(op) \(value.literal)"
            case .between(let property, let low, let high): return "\(property.rawValue) between \(low.literal) and \(high.literal)"
            case .and(let a, let b): return "(\(text(a)) and \(text(b)))"
            case .or(let a, let b): return "(\(text(a)) or \(text(b)))"
            case .not(let a): return "not (\(text(a)))"
            }
        }

        /// The oracle: every book tested in plain Swift, a stable sort, then the limit.
        func evaluate(_ books: [Book]) -> [Book] {
            var result = books.filter { book in condition.map { Self.holds($0, book) } ?? true }
            if !sort.isEmpty {
                result = result.enumerated().sorted { a, b in
                    for (property, descending, ignoringCase) in sort {
                        func key(_ book: Book) -> OracleValue {
                            let value = OracleValue.of(property, book)
                            // `ignoring case`: the lowercase forms, ordered as texts are.
                            if ignoringCase, let text = value.text { return .text(text.lowercased()) }
                            return value
                        }
                        let c = OracleValue.order(key(a.element), key(b.element))
                        if c != 0 { return descending ? c > 0 : c < 0 }
                    }
                    return a.offset < b.offset
                }.map(\.element)
            }
            return limit.map { Array(result.prefix($0)) } ?? result
        }

        static func holds(_ condition: Condition, _ book: Book) -> Bool {
            switch condition {
            case .compare(let property, let op, let value): return OracleValue.compare(OracleValue.of(property, book), op, value)
            case .between(let property, let low, let high):
                let v = OracleValue.of(property, book)
                return OracleValue.compare(v, ">=", low) && OracleValue.compare(v, "<=", high)
            case .and(let a, let b): return holds(a, book) && holds(b, book)
            case .or(let a, let b): return holds(a, book) || holds(b, book)
            case .not(let a): return !holds(a, book)
            }
        }
    }

    mutating func query() -> Query {
        let condition = random.chance(0.9) ? self.condition(depth: 0) : nil
        var sort: [(Property, Bool, Bool)] = []
        if random.chance(0.7) {
            let sortable: [Property] = [.title, .author, .published, .pages, .rating, .readDate, .genre, .added]
            for _ in 0..<(random.chance(0.3) ? 2 : 1) {
                let property = random.pick(sortable)
                // Only text keys may ignore case; such a key is never pushed down to SQL.
                let isText = [.title, .author, .genre].contains(property)
                sort.append((property, random.chance(0.5), isText && random.chance(0.25)))
            }
        }
        let limit = random.chance(0.6) ? random.int(0...25) : nil
        return Query(condition: condition, sort: sort, limit: limit)
    }

    mutating func condition(depth: Int) -> Condition {
        if depth < 2, random.chance(0.35) {
            let a = condition(depth: depth + 1), b = condition(depth: depth + 1)
            switch random.int(0...2) {
            case 0: return .and(a, b)
            case 1: return .or(a, b)
            default: return .not(a)
            }
        }
        let property = random.pick(Property.allCases)
        let sample = OracleValue.of(property, random.pick(books))
        let other = OracleValue.of(property, random.pick(books))
        switch property {
        case .title, .author, .genre, .recommendedBy:
            let text = sample.text ?? "a"
            switch random.int(0...6) {
            case 0: return .compare(property, "==", .text(text))
            case 1: return .compare(property, "!=", .text(text))
            case 2: return .compare(property, random.pick(["<", "<=", ">", ">="]), .text(text))
            case 3: return .compare(property, "contains", .text(random.substring(of: text).uppercased()))
            case 4: return .compare(property, "starts with", .text(String(text.prefix(random.int(1...4))).lowercased()))
            case 5: return .compare(property, "ends with", .text(String(text.suffix(random.int(1...3)))))
            default: return .compare(property, "in", .list([.text(text), .text(other.text ?? "b")]))
            }
        case .published, .readDate, .pages, .rating, .added:
            if sample.isNull { return .compare(property, random.pick(["==", "!="]), .null) }
            if random.chance(0.15), !other.isNull {
                let (low, high) = OracleValue.order(sample, other) <= 0 ? (sample, other) : (other, sample)
                return .between(property, low, high)
            }
            return .compare(property, random.pick(["==", "!=", "<", "<=", ">", ">="]), sample)
        case .shelf:
            return .compare(property, random.pick(["==", "!="]), sample)
        }
    }
}

/// A value as the oracle sees it, with the engine's rules written out independently.
enum OracleValue {
    case null
    case text(String)
    case int(Int)
    case date(Date)
    case shelf(Shelf)
    case list([OracleValue])

    var isNull: Bool { if case .null = self { true } else { false } }
    var text: String? { if case .text(let t) = self { t } else { nil } }

    static func of(_ property: QueryGenerator.Property, _ book: Book) -> OracleValue {
        switch property {
        case .title: return .text(book.title)
        case .author: return .text(book.author)
        case .genre: return .text(book.genre)
        case .recommendedBy: return book.recommendedBy.map(OracleValue.text) ?? .null
        case .published: return .date(book.published)
        case .readDate: return book.readDate.map(OracleValue.date) ?? .null
        case .pages: return .int(book.pages)
        case .rating: return book.rating.map(OracleValue.int) ?? .null
        case .shelf: return .shelf(book.shelf)
        case .added: return book.added.map(OracleValue.date) ?? .null
        }
    }

    var literal: String {
        switch self {
        case .null: return "nil"
        case .text(let t): return "\"" + t.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        case .int(let i): return String(i)
        case .date(let d):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .current
            let c = calendar.dateComponents([.year, .month, .day], from: d)
            return String(format: "date(\"%04d-%02d-%02d\")", c.year!, c.month!, c.day!)
        case .shelf(let s): return s.rawValue
        case .list(let items): return "[" + items.map(\.literal).joined(separator: ", ") + "]"
        }
    }

    /// Nil first; otherwise the natural order of the kind.
    static func order(_ a: OracleValue, _ b: OracleValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return -1
        case (_, .null): return 1
        case (.text(let x), .text(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.int(let x), .int(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        case (.date(let x), .date(let y)): return x < y ? -1 : (x == y ? 0 : 1)
        default: return 0
        }
    }

    static func equal(_ a: OracleValue, _ b: OracleValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.text(let x), .text(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.shelf(let x), .shelf(let y)): return x == y
        default: return false
        }
    }

    static func compare(_ a: OracleValue, _ op: String, _ b: OracleValue) -> Bool {
        switch op {
        case "==": return equal(a, b)
        case "!=": return !equal(a, b)
        case "<", "<=", ">", ">=":
            if a.isNull || b.isNull { return false }
            let c = order(a, b)
            return op == "<" ? c < 0 : op == "<=" ? c <= 0 : op == ">" ? c > 0 : c >= 0
        case "contains", "starts with", "ends with":
            guard case .text(let x) = a, case .text(let y) = b else { return false }
            if y.isEmpty { return true }
            let options: String.CompareOptions = op == "contains" ? [.caseInsensitive]
                : op == "starts with" ? [.caseInsensitive, .anchored] : [.caseInsensitive, .anchored, .backwards]
            return x.range(of: y, options: options) != nil
        case "in":
            guard case .list(let items) = b else { return false }
            return items.contains { equal(a, $0) }
        default: return false
        }
    }
}

/// A few characters of a text, for the queries that search in one.
extension SeededRandom {
    mutating func substring(of text: String) -> String {
        let characters = Array(text)
        guard characters.count > 1 else { return text }
        let start = int(0...(characters.count - 1))
        let length = int(1...min(4, characters.count - start))
        return String(characters[start..<start + length])
    }
}
