import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import GRDB

// The benchmarks of DESIGN.md §5, run side by side in one process so that the ratios hold on a noisy
// machine. Build with `swift run -c release auto-bench`; `--quick` runs a small smoke version for CI.

let quick = CommandLine.arguments.contains("--quick")
let rows = quick ? 20_000 : 1_000_000
let repetitions = quick ? 3 : 15

/// A book as the benchmark's host keeps it in memory.
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

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

func measure(_ body: () async throws -> Void) async rethrows -> Double {
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
    }
    return median(samples)
}

func row(_ name: String, _ milliseconds: Double, against anchor: Double? = nil, goal: String) {
    let ratio = anchor.map { String(format: "%6.2fx", $0 / milliseconds) } ?? "      "
    print(String(format: "%-62@ %9.2f ms  %@  goal %@", name as NSString, milliseconds, ratio, goal))
}

let books = makeBooks(rows)
var registry = Registry.standard
registry.register(query: InMemoryBooks(books: books))
let findScript = #"find books where author == "Author 42" sort by published desc limit 3"#
let compiled = try ScriptCompiler.compile(SourceFile(name: "bench.auto", text: findScript), registry: registry).get()

struct Silent: Interaction {
    func show(_ dialog: Dialog) async {}
    func requestValue(_ request: ValueRequest) async throws -> Value { throw NoAnswerError(question: request.prompt) }
    func choose(_ request: ChoiceRequest) async throws -> Int { throw NoAnswerError(question: request.prompt) }
    func confirm(_ request: ConfirmationRequest) async throws -> Bool { false }
    func progress(_ event: ProgressEvent) async {}
}

let executor = Executor(interaction: Silent())
var engineResult: [String] = []
let engine = try await measure {
    let result = try await executor.run(compiled.graph)
    if case .list(let items) = result { engineResult = items.map(ValueFormatter.inline) }
}

// The same data and query in SQLite, in memory, without an index (a full scan, as the engine does).
let database = try DatabaseQueue()
try await database.write { db in
    try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, author TEXT, published REAL, rating INTEGER)")
    let insert = try db.makeStatement(sql: "INSERT INTO book VALUES (?, ?, ?, ?, ?)")
    for book in books {
        try insert.execute(arguments: [book.id, book.title, book.author, book.published.timeIntervalSince1970, book.rating])
    }
}
var sqliteResult: [String] = []
let sqlite = try await measure {
    sqliteResult = try await database.read { db in
        try String.fetchAll(db, sql: "SELECT title FROM book WHERE author = ? ORDER BY published DESC LIMIT 3", arguments: ["Author 42"])
    }
}

print("auto benchmarks — \(rows) rows, median of \(repetitions) runs, ratio = anchor time / engine time (above 1 is faster)")
row("SQLite: where author == X order by published desc limit 3", sqlite, goal: "anchor")
row("engine: find books where author == X sort by … desc limit 3", engine, against: sqlite, goal: "≤ 15 ms at 1M")
// An entity shows as its title: both sides must have found the same three books, in the same order.
if engineResult != sqliteResult {
    print("MISMATCH: the engine found \(engineResult), SQLite \(sqliteResult)")
    exit(1)
}
