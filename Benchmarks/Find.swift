import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import GRDB

// Workload 1: `find books where author == "Author 42" sort by published desc limit 3` over 1M entities,
// engine-side over an enumerable query, pushed down to SQLite through a property query, and the same
// question put to SQLite's own shell and to Python. Every side must find the same three books.

/// A book as the benchmark's host keeps it.
struct BenchBook: AppEntity {
    static let entityType = EntityType<BenchBook>(singular: "book", plural: "books", properties: [
        .init("title", \.title), .init("author", \.author), .init("published", \.published), .init("rating", \.rating),
    ])
    var id: Int
    var title: String
    var author: String
    var published: Date
    var rating: Int
    var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }
}

/// Every book in memory: the engine filters, sorts and limits itself.
struct InMemoryBooks: EnumerableEntityQuery {
    let books: [BenchBook]
    func allEntities() async throws -> [BenchBook] { books }
    func entities(for identifiers: [Int]) async throws -> [BenchBook] { identifiers.map { books[$0] } }
}

/// Books in SQLite, found in SQL as the Library example's `BookQuery` does: `==` on author becomes a GRDB
/// expression with a bound argument, the sort ORDER BY (ties by id) and the limit LIMIT.
struct SQLiteBooks: EntityPropertyQuery {
    typealias Predicate = SQLExpression
    let database: DatabaseQueue

    var properties: [QueryProperty<BenchBook, SQLExpression>] {
        [
            .init("author", [.equal { (text: String) in Column("author") == text }]),
            .init("rating", [.equal { (value: Int) in Column("rating") == value }]),
        ]
    }

    var sortableProperties: [String] { ["published", "title", "rating"] }

    func entities(matching predicates: [SQLExpression], mode: ComparatorMode, sortedBy: [QuerySort], limit: Int?) async throws -> [BenchBook] {
        var request = Table("book").all()
        if !predicates.isEmpty { request = request.filter(predicates.joined(operator: mode == .and ? .and : .or)) }
        let orderings: [any SQLOrderingTerm] = sortedBy.map { $0.descending ? Column($0.property).desc : Column($0.property).asc } + [Column("id")]
        request = request.order(orderings)
        if let limit { request = request.limit(limit) }
        let final = request
        return try await database.read { db in try Row.fetchAll(db, final).map(Self.book) }
    }

    func entities(for identifiers: [Int]) async throws -> [BenchBook] {
        try await database.read { db in try Row.fetchAll(db, Table("book").filter(keys: identifiers)).map(Self.book) }
    }

    static func book(_ row: Row) -> BenchBook {
        BenchBook(id: row["id"], title: row["title"], author: row["author"],
                  published: Date(timeIntervalSince1970: row["published"]), rating: row["rating"])
    }
}

/// The books, from a fixed linear congruential generator that the Python anchor repeats exactly.
func makeBooks(_ count: Int) -> [BenchBook] {
    var seed: UInt64 = 42
    func next() -> UInt64 {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return seed >> 33
    }
    let start = Date(timeIntervalSince1970: -3_000_000_000)
    return (0..<count).map { index in
        BenchBook(id: index, title: "Title \(index)", author: "Author \(next() % 1000)",
                  published: start.addingTimeInterval(Double(next() % 4_000_000_000)), rating: Int(next() % 5) + 1)
    }
}

/// The books in a new SQLite file of their own (no index on author: SQLite scans, as the engine must over an
/// enumerable query), and its path for the sqlite3 shell.
func bookDatabase(_ books: [BenchBook]) async throws -> (DatabaseQueue, String) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-books-\(books.count).sqlite").path
    for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    let database = try DatabaseQueue(path: path)
    try await database.write { db in
        try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author TEXT NOT NULL, published REAL NOT NULL, rating INTEGER NOT NULL)")
        let insert = try db.makeStatement(sql: "INSERT INTO book VALUES (?, ?, ?, ?, ?)")
        for book in books {
            try insert.execute(arguments: [book.id, book.title, book.author, book.published.timeIntervalSince1970, book.rating])
        }
    }
    try await database.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") }
    return (database, path)
}

/// Python that rebuilds `makeBooks(count)` as `books`, a list of (id, title, author, published, rating) tuples.
func pythonBooks(_ count: Int) -> String {
    """
    M = (1 << 64) - 1
    def make(n):
        seed, books = 42, []
        for i in range(n):
            seed = (seed * 6364136223846793005 + 1442695040888963407) & M; a = seed >> 33
            seed = (seed * 6364136223846793005 + 1442695040888963407) & M; p = seed >> 33
            seed = (seed * 6364136223846793005 + 1442695040888963407) & M; r = seed >> 33
            books.append((i, "Title %d" % i, "Author %d" % (a % 1000), -3000000000 + p % 4000000000, r % 5 + 1))
        return books
    books = make(\(count))

    """
}

/// The sqlite3 shell on a database file, `.timer on`: the query once untimed, then `repetitions` times. Its median
/// (real time per statement, 1 ms resolution) and the first `rows` lines the query printed (`.mode list`).
func sqliteShell(_ anchors: Anchors, _ path: String, _ sql: String, _ repetitions: Int, rows: Int) throws -> (Timing, [String]) {
    guard let sqlite3 = anchors.sqlite3 else { return (.notInstalled("sqlite3"), []) }
    let query = sql + ";\n"
    let input = ".mode list\n" + query + ".timer on\n" + String(repeating: query, count: repetitions)
    let output = try run(sqlite3, ["-batch", path], input: input)
    let lines = output.stdout.split(separator: "\n").map(String.init)
    let times = lines.compactMap { line -> Double? in
        guard line.hasPrefix("Run Time: real ") else { return nil }
        return line.dropFirst("Run Time: real ".count).split(separator: " ").first.flatMap { Double($0) }.map { $0 * 1000 }
    }
    let found = Array(lines.prefix { !$0.hasPrefix("Run Time") }.prefix(rows))
    if output.status != 0 || times.isEmpty {
        return (.failed("sqlite3: \(output.stderr.split(separator: "\n").first ?? "no timings")"), found)
    }
    return (.milliseconds(median(times)), found)
}

/// An interaction nobody answers: the workloads never ask.
struct Silent: Interaction {
    func show(_ dialog: Dialog) async {}
    func requestValue(_ request: ValueRequest) async throws -> Value { throw NoAnswerError(question: request.prompt) }
    func choose(_ request: ChoiceRequest) async throws -> Int { throw NoAnswerError(question: request.prompt) }
    func confirm(_ request: ConfirmationRequest) async throws -> Bool { false }
    func progress(_ event: ProgressEvent) async {}
}

let findScript = #"find books where author == "Author 42" sort by published desc limit 3"#
/// The SQL the property query sends for `findScript` (GRDB spells it with quotes and a bound argument).
let findSQL = "SELECT * FROM book WHERE author = 'Author 42' ORDER BY published DESC, id LIMIT 3"

func titles(_ value: Value) -> [String] {
    if case .list(let items) = value { return items.map(ValueFormatter.inline) }
    return [ValueFormatter.inline(value)]
}

@Sendable func findWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let books = makeBooks(options.rows)
    let executor = Engine(registry: .standard)
    let size = options.rows.formatted()
    var expected: [String] = []

    // (a) Engine-side: the query hands over every book, the engine filters with typed closures and keeps a top-3 heap.
    var inMemory = Registry.standard
    try inMemory.register(query: InMemoryBooks(books: books))
    let engineGraph = try ScriptCompiler.compile(SourceFile(name: "find.auto", text: findScript), registry: inMemory).get().program
    let engine = try await measure(options.repetitions) { expected = titles(try await executor.run(engineGraph, interaction: Silent()).value()) }

    // The database file the pushdown and the sqlite3 shell share: no index on author, so SQLite scans as the engine does.
    let (database, path) = try await bookDatabase(books)

    // (b) Pushed down: the checker hands `author == …`, the sort and the limit to the property query, which runs SQL.
    var pushed = Registry.standard
    try pushed.register(query: SQLiteBooks(database: database))
    let pushedGraph = try ScriptCompiler.compile(SourceFile(name: "find.auto", text: findScript), registry: pushed).get().program
    var pushedResult: [String] = []
    let pushdown = try await measure(options.repetitions) { pushedResult = titles(try await executor.run(pushedGraph, interaction: Silent()).value()) }
    if pushedResult != expected { notes.mismatch("find: pushed down to SQLite found \(pushedResult), the engine \(expected)") }

    // SQLite in this process, the SQL written by hand (no engine, no entity decoding beyond the title).
    var rawResult: [String] = []
    let raw = try await measure(options.repetitions) {
        rawResult = try await database.read { db in try String.fetchAll(db, sql: findSQL.replacingOccurrences(of: "SELECT *", with: "SELECT title")) }
    }
    if rawResult != expected { notes.mismatch("find: SQLite via GRDB found \(rawResult), the engine \(expected)") }
    try database.close()

    // (c) The sqlite3 shell on the same file, `.timer on`, the query once to warm up, then `repetitions` times.
    let (shell, shellFound) = try sqliteShell(anchors, path, findSQL.replacingOccurrences(of: "SELECT *", with: "SELECT title"), options.repetitions, rows: 3)
    if shell.milliseconds != nil, shellFound != expected { notes.mismatch("find: the sqlite3 shell found \(shellFound), the engine \(expected)") }

    // (d) Python: the same books rebuilt from the same generator as a list of tuples, then a filter and heapq.nlargest.
    let (python, pythonFound) = anchors.python(pythonPrelude + pythonBooks(options.rows) + """
        published = operator.itemgetter(3)
        found = []
        def query():
            global found
            found = heapq.nlargest(3, (b for b in books if b[2] == "Author 42"), key=published)
        print(bench(query, \(options.repetitions)))
        for b in found: print(b[1])
        """)
    if python.milliseconds != nil, pythonFound != expected { notes.mismatch("find: Python found \(pythonFound), the engine \(expected)") }

    notes.add("find: \(size) books; the engine's result \(expected) is checked against every other side. SQLite has no index on author: "
        + "every side scans all rows, as the engine must over an enumerable query.")
    notes.add("find: the sqlite3 shell runs on the file the benchmark wrote (\(path)), timed by its own `.timer on` "
        + "(real time per statement, 1 ms resolution), after one untimed run; its median is over \(options.repetitions) runs in one process.")
    notes.add("find: Python rebuilds the same books as a list of \(size) tuples before timing, then times "
        + "`heapq.nlargest(3, (b for b in books if b[2] == X), key=published)` with time.perf_counter.")

    let anchorsOfFind: [(name: String, timing: Timing)] = [
        ("sqlite3 shell (.timer)", shell), ("SQLite in-process (GRDB, raw SQL)", .milliseconds(raw)), ("Python 3 (filter + heapq)", python),
    ]
    return [
        ResultRow(workload: "find … limit 3, \(size) entities, engine-side (enumerable query)", engine: .milliseconds(engine),
                  anchors: anchorsOfFind, goal: .atMost(15, "≤ 15 ms engine-side"), scaled: options.rows != 1_000_000),
        ResultRow(workload: "find … limit 3, \(size) entities, pushed down to SQLite (property query)", engine: .milliseconds(pushdown),
                  anchors: anchorsOfFind, goal: Goal(text: "none (the SQLite anchor is 37 ms)", limit: nil)),
    ]
}
