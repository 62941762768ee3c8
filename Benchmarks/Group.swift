import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import GRDB

// Workload: `find books | count by author | sort by count desc, key | limit 3` over 1M entities handed over by
// an enumerable query: the engine groups every book by a key (one hash lookup each), beside SQLite's GROUP BY on
// the same rows and Python's collections.Counter. Every side must find the same three authors with their counts.

let groupScript = "find books | count by author | sort by count desc, key | limit 3"
let groupSQL = "SELECT author, count(*) AS n FROM book GROUP BY author ORDER BY n DESC, author LIMIT 3"

/// `{key: "Author 7", count: 1093}` records as `Author 7|1093`, the way the sqlite3 shell lists rows.
func authorCounts(_ value: Value) -> [String] {
    guard case .list(let groups) = value else { return [ValueFormatter.inline(value)] }
    return groups.map { group in
        guard case .record(let record) = group, case .text(let author)? = record["key"], case .int(let count)? = record["count"] else {
            return ValueFormatter.inline(group)
        }
        return "\(author)|\(count)"
    }
}

@Sendable func groupWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let books = makeBooks(options.rows)
    let executor = Engine(registry: .standard)
    let size = options.rows.formatted()

    var registry = Registry.standard
    try registry.register(query: InMemoryBooks(books: books))
    let program = try ScriptCompiler.compile(SourceFile(name: "group.auto", text: groupScript), registry: registry).get().program
    var expected: [String] = []
    var pythonFound: [String] = []
    // Python's Counter is the anchor this row is close to: the two take turns (`alternating`).
    let timings = try await alternating(rounds: options.rounds, [
        { .milliseconds(try await measure(options.repetitions) { expected = authorCounts(try await executor.run(program, interaction: Silent()).value()) }) },
        {
            let (timing, found) = anchors.python(pythonPrelude + pythonBooks(options.rows) + """
                import collections
                found = []
                def query():
                    global found
                    counts = collections.Counter(b[2] for b in books)
                    found = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
                print(bench(query, \(options.repetitions)))
                for author, n in found: print("%s|%d" % (author, n))
                """)
            pythonFound = found
            return timing
        },
    ])
    let (engine, python) = (timings[0], timings[1])

    let (database, path) = try await bookDatabase(books)
    var rawResult: [String] = []
    let raw = try await measure(options.repetitions) {
        rawResult = try await database.read { db in
            try Row.fetchAll(db, sql: groupSQL).map { row in "\(row["author"] as String)|\(row["n"] as Int)" }
        }
    }
    if rawResult != expected { notes.mismatch("group: SQLite via GRDB found \(rawResult), the engine \(expected)") }
    try database.close()

    let (shell, shellFound) = try sqliteShell(anchors, path, groupSQL, options.repetitions, rows: 3)
    if shell.milliseconds != nil, shellFound != expected { notes.mismatch("group: the sqlite3 shell found \(shellFound), the engine \(expected)") }

    if python.milliseconds != nil, pythonFound != expected { notes.mismatch("group: Python found \(pythonFound), the engine \(expected)") }

    notes.add("group: \(size) books in 1,000 authors; `\(groupScript)` against `\(groupSQL)` (no index on author) and "
        + "Python's `collections.Counter` over the same tuples, then a sort of the 1,000 counts (the engine and Python in \(options.rounds) rounds that take turns). The engine's result \(expected) is checked against every side.")
    return [
        ResultRow(workload: "count by author of all books, top 3 by count, \(size) entities", engine: engine,
                  anchors: [("sqlite3 shell (.timer)", shell), ("SQLite in-process (GRDB, raw SQL)", .milliseconds(raw)), ("Python 3 (Counter)", python)],
                  goal: Goal(text: "ahead of every anchor", limit: nil), scaled: options.rows != 1_000_000),
    ]
}
