import AutoTestSupport
import Foundation
import MCP
import Synchronization
import Testing

/// `library mcp` driven by the SDK's own client over the real binary's standard input and output: what an AI
/// assistant's client sees.
@Suite(.timeLimit(.minutes(2))) struct McpServerTests {
    @Test func listsTheLibrarysToolsWithSchemasFromTheirParameters() async throws {
        let library = try await McpLibrary()
        let tools = try await library.client.listTools().tools
        let byName = Dictionary(tools.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for name in ["find_books", "find_authors", "open_book", "add_book", "rate_book", "move_book", "delete_book"] {
            #expect(byName[name] != nil, "\(name) in \(byName.keys.sorted())")
        }
        // Reading files isn't granted: the import, which reads a CSV, is left out, and so are the prelude's shortcuts
        // whose bodies call intents that touch files or the network.
        #expect(byName["import_books"] == nil)
        for name in ["tidy_folder", "back_up_folder", "fetch_json"] { #expect(byName[name] == nil, "\(name) is listed") }
        // The engine's own tools are not the Library's: its built-ins, the standard library's intents and shortcuts.
        for name in ["show", "ask", "wait", "read_text", "notify", "parse_csv", "shout", "average"] {
            #expect(byName[name] == nil, "\(name) is listed")
        }
        // The genres the Library's options provider gives are the parameter's values.
        let genre = try #require(byName["open_genre"]?.inputSchema.objectValue?["properties"]?.objectValue?["genre"]?.objectValue)
        let genres = genre["enum"]?.arrayValue ?? []
        #expect(genres.contains("Classic") && genres.contains("Literary Fiction"), "\(genre)")

        let delete = try #require(byName["delete_book"])
        #expect(delete.annotations.destructiveHint == true)
        #expect(delete.inputSchema.objectValue?["required"] == ["book"])
        let add = try #require(byName["add_book"]?.inputSchema.objectValue?["properties"]?.objectValue)
        #expect(add["pages"] == ["type": "integer", "title": "Pages", "default": 0, "minimum": 0, "maximum": 100_000])
        #expect(add["genre"]?.objectValue?["default"] == "Unknown")
        #expect(add["title"]?.objectValue?["description"] == "What is the book's title?")
        #expect(byName["add_book"]?.inputSchema.objectValue?["required"] == ["title"])
        #expect(add["title"]?.objectValue?["enum"] == nil)
        let book = try #require(delete.inputSchema.objectValue?["properties"]?.objectValue?["book"]?.objectValue)
        #expect(book["type"] == ["string", "integer"])
        #expect(book["description"]?.stringValue?.contains("library://book/42") == true, "\(book)")
        let rating = try #require(byName["rate_book"]?.inputSchema.objectValue?["properties"]?.objectValue?["rating"]?.objectValue)
        #expect(rating["minimum"] == 1 && rating["maximum"] == 5)
        let shelf = try #require(byName["move_book"]?.inputSchema.objectValue?["properties"]?.objectValue?["to"]?.objectValue)
        #expect(shelf["enum"] == ["wantToRead", "currentlyReading", "read"])
        #expect(shelf["oneOf"]?.arrayValue?.first == ["const": "wantToRead", "title": "Want to Read"])
        let find = try #require(byName["find_books"])
        #expect(find.annotations.readOnlyHint == true)
        #expect(find.inputSchema.objectValue?["properties"]?.objectValue?["where"] != nil)
        // Property names as declared, not as the query keeps them to match them.
        #expect(find.description?.contains("readDate != < <= == > >= between in;") == true, "\(find.description ?? "")")
        #expect(find.description?.contains("sorts by added, author, genre, pages, published, rating, readDate, title") == true, "\(find.description ?? "")")
        await library.stop()
    }

    /// The same find as a script's, pushed down to SQLite as the script's is, with the same books.
    @Test func findBooksByAuthorIsPushedDownAndGivesWhatTheScriptGives() async throws {
        let library = try await McpLibrary()
        let result = try await library.call("find_books", [
            "where": [["property": "author", "op": "==", "value": "Jane Austen"]],
            "sort": [["property": "published", "descending": true]], "limit": 3,
        ])
        #expect(result.isError != true, "\(McpLibrary.text(result))")
        #expect(result._meta?["auto/plan"] == "find books · host: author == \"Jane Austen\", sort by published desc, limit 3")
        guard case .object(let content)? = result.structuredContent, case .array(let books)? = content["books"] else {
            Issue.record("no books in \(String(describing: result.structuredContent))")
            return
        }
        #expect(books.count == 3)
        let script = try LibraryBinary.run(["--db", library.folder("library.sqlite"), "--json", "-e",
                                            "find books where author == \"Jane Austen\" sort by published desc limit 3"])
        #expect(try JSONDecoder().decode(MCP.Value.self, from: Data(script.standardOutput.utf8)) == .array(books))

        // A condition the host can't answer stays in the engine, and the plan says so.
        let mixed = try await library.call("find_books", [
            "where": [["property": "author", "op": "==", "value": "Jane Austen"], ["property": "title", "op": "contains", "value": "and"]],
        ])
        let plan = mixed._meta?["auto/plan"]?.stringValue ?? ""
        #expect(plan.hasPrefix("find books · host: author == \"Jane Austen\""), "\(plan)")
        await library.stop()
    }

    @Test func callsAnIntentWithItsDialogAndStructuredResult() async throws {
        let library = try await McpLibrary()
        let emma = try await library.bookID(titled: "Emma")
        let rated = try await library.call("rate_book", ["book": .string(emma), "rating": 4])
        #expect(rated.isError != true, "\(McpLibrary.text(rated))")
        #expect(McpLibrary.text(rated).hasPrefix("Rated Emma 4 of 5"))
        #expect(rated.structuredContent?.objectValue?["result"]?.objectValue?["rating"] == 4)
        let book = try await library.books(["where": [["property": "rating", "op": "==", "value": 4], ["property": "title", "op": "==", "value": "Emma"]]])
        #expect(book.count == 1)

        // Out of range, of the wrong type, unknown: errors the assistant can read, and the server goes on.
        let outOfRange = try await library.call("rate_book", ["book": .string(emma), "rating": 9])
        #expect(outOfRange.isError == true && McpLibrary.text(outOfRange).contains("between 1 and 5"), "\(McpLibrary.text(outOfRange))")
        let wrongType = try await library.call("rate_book", ["book": .string(emma), "rating": "five"])
        #expect(wrongType.isError == true && McpLibrary.text(wrongType).contains("expected an integer"), "\(McpLibrary.text(wrongType))")
        let unknown = try await library.call("burn_book", ["book": .string(emma)])
        #expect(unknown.isError == true && McpLibrary.text(unknown).contains("no tool 'burn_book'"))
        let badProperty = try await library.call("find_books", ["where": [["property": "colour", "op": "==", "value": "red"]]])
        #expect(badProperty.isError == true && McpLibrary.text(badProperty).contains("author"), "\(McpLibrary.text(badProperty))")
        let badLimit = try await library.call("find_books", ["limit": "many"])
        #expect(badLimit.isError == true)

        // The book is a resource too.
        let contents = try await library.client.readResource(uri: "library://book/\(emma)")
        #expect(contents.first?.text?.contains("\"title\":\"Emma\"") == true, "\(contents)")
        await #expect(throws: (any Error).self) { try await library.client.readResource(uri: "library://book/999999") }
        await #expect(throws: (any Error).self) { try await library.client.readResource(uri: "auto://book/\(emma)") }
        await library.stop()
    }

    /// A tool an assistant was configured with keeps working when its intent is renamed or deprecated: called by a
    /// former title or a deprecated name, it runs; only current names are listed.
    @Test func formerAndDeprecatedToolNamesStillCallTheirIntents() async throws {
        let library = try await McpLibrary()
        let names = Set(try await library.client.listTools().tools.map(\.name))
        #expect(names.contains("mark_as_read") && names.contains("open_shelf"), "\(names.sorted())")
        #expect(!names.contains("finish_book") && !names.contains("list_shelf"), "\(names.sorted())")
        let emma = try await library.bookID(titled: "Emma")
        let finished = try await library.call("finish_book", ["book": .string(emma)])
        #expect(finished.isError != true, "\(McpLibrary.text(finished))")
        #expect(McpLibrary.text(finished).hasPrefix("Marked Emma as read"), "\(McpLibrary.text(finished))")
        let listed = try await library.call("list_shelf", ["shelf": "read"])
        #expect(listed.isError != true, "\(McpLibrary.text(listed))")
        #expect(McpLibrary.text(listed).contains("Emma"), "\(McpLibrary.text(listed))")
        await library.stop()
    }

    /// 680 books and their authors, a page of at most 100 at a time: each entity once, every page but the last full.
    @Test func resourcesAreListedAPageAtATime() async throws {
        let library = try await McpLibrary()
        var uris: [String] = []
        var cursor: String?
        var pages = 0
        repeat {
            let page = try await library.client.listResources(cursor: cursor)
            #expect(page.resources.count <= 100)
            if page.nextCursor != nil { #expect(page.resources.count == 100) }
            uris += page.resources.map(\.uri)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil && pages < 100
        #expect(Set(uris).count == uris.count)
        #expect(uris.filter { $0.hasPrefix("library://book/") }.count == 680, "\(uris.count)")
        #expect(uris.contains { $0.hasPrefix("library://author/") })
        #expect(pages == (uris.count + 99) / 100)
        await #expect(throws: (any Error).self) { try await library.client.listResources(cursor: "not a cursor") }
        await library.stop()
    }

    @Test func deletingABookAsksFirstAndKeepsItWhenDeclined() async throws {
        let declining = try await McpLibrary(answer: McpLibrary.decline)
        let emma = try await declining.bookID(titled: "Emma")
        let declined = try await declining.call("delete_book", ["book": .string(emma)])
        #expect(declined.isError == true && McpLibrary.text(declined).contains("was not confirmed"), "\(McpLibrary.text(declined))")
        #expect(declining.questions.withLock { $0 } == ["Delete 'Emma'? This can't be undone."])
        #expect(try await declining.books(["where": [["property": "title", "op": "==", "value": "Emma"]]]).count == 1)
        await declining.stop()

        let accepting = try await McpLibrary(answer: McpLibrary.accept)
        let deleted = try await accepting.call("delete_book", ["book": .string(emma)])
        #expect(deleted.isError != true, "\(McpLibrary.text(deleted))")
        #expect(McpLibrary.text(deleted) == "Deleted Emma")
        #expect(accepting.questions.withLock { $0 }.count == 1)
        #expect(try await accepting.books(["where": [["property": "title", "op": "==", "value": "Emma"]]]).isEmpty)
        await accepting.stop()
    }

    @Test func aClientThatCantAskGetsTheDeleteRefused() async throws {
        let library = try await McpLibrary(elicitation: false)
        let emma = try await library.bookID(titled: "Emma")
        let refused = try await library.call("delete_book", ["book": .string(emma)])
        #expect(refused.isError == true && McpLibrary.text(refused).contains("did not declare elicitation"), "\(McpLibrary.text(refused))")
        #expect(try await library.books(["where": [["property": "title", "op": "==", "value": "Emma"]]]).count == 1)
        await library.stop()
    }

    @Test func aMissingParameterIsAskedFor() async throws {
        let library = try await McpLibrary(answer: { form in
            form.message.contains("How many stars") ? .init(action: .accept, content: ["value": 5]) : .init(action: .decline)
        })
        let emma = try await library.bookID(titled: "Emma")
        let rated = try await library.call("rate_book", ["book": .string(emma)])
        #expect(rated.isError != true, "\(McpLibrary.text(rated))")
        #expect(rated.structuredContent?.objectValue?["result"]?.objectValue?["rating"] == 5)
        #expect(library.questions.withLock { $0 } == ["How many stars, from 1 to 5?"])
        await library.stop()
    }

    /// A text that names several books is a choice among them, its options titled as people read them.
    @Test func severalMatchingBooksAreAChoice() async throws {
        let offered = Shared<[String]>([])
        let library = try await McpLibrary(answer: { form in
            let options = form.requestedSchema.properties["value"]?.objectValue?["oneOf"]?.arrayValue ?? []
            offered.value.withLock { $0 = options.compactMap { $0.objectValue?["title"]?.stringValue } }
            return .init(action: .accept, content: ["value": "2"])
        })
        let opened = try await library.call("open_book", ["book": "Harry Potter"])
        #expect(opened.isError != true, "\(McpLibrary.text(opened))")
        let titles = offered.value.withLock { $0 }
        #expect(titles.count == 2 && titles.allSatisfy { $0.hasPrefix("Harry Potter and the") }, "\(titles)")
        let title = try #require(opened.structuredContent?.objectValue?["book"]?.objectValue?["title"]?.stringValue)
        #expect(titles.count == 2 && titles[1].hasPrefix(title), "\(title) is not the second of \(titles)")
        #expect(library.questions.withLock { $0 }.first?.contains("Several match 'Harry Potter'") == true)
        await library.stop()
    }

    /// A CSV of `count` invented books in `folder`.
    static func booksCSV(count: Int, in folder: TemporaryFolder) throws -> String {
        var text = "title,author,published,pages\n"
        for index in 0..<count { text += "Invented Book \(index + 1),Author \(index % 7),2001-02-03,\(100 + index)\n" }
        let path = folder("more.csv")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anImportReportsItsProgress() async throws {
        let folder = try TemporaryFolder("library-mcp-csv")
        defer { withExtendedLifetime(folder) {} }
        let csv = try Self.booksCSV(count: 40, in: folder)
        let library = try await McpLibrary(["--allow-read=\(folder.path)"], answer: McpLibrary.accept)
        let (progress, reported) = AsyncStream.makeStream(of: (progress: Double, total: Double?).self)
        await library.client.onNotification(ProgressNotification.self) { message in
            if message.params.progressToken == .string("import-1") { reported.yield((message.params.progress, message.params.total)) }
        }
        let result = try await library.call("import_books", ["from": .string(csv)], meta: Metadata(progressToken: .string("import-1")))
        #expect(result.isError != true, "\(McpLibrary.text(result))")
        #expect(McpLibrary.text(result).hasPrefix("Imported 40 books from more.csv"))
        #expect(library.questions.withLock { $0 } == ["Import 40 books from more.csv?"])
        // Up to the last one, 40 of 40 (the suite's time limit fails the test if it never comes).
        var steps: [(progress: Double, total: Double?)] = []
        for await step in progress {
            steps.append(step)
            if step.progress == 40 { break }
        }
        #expect(steps.first?.progress == 0 && steps.allSatisfy { $0.total == 40 }, "\(steps)")
        #expect(steps.count >= 40)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.0 <= $1.0 }, "\(steps)")
        #expect(try await library.books(["where": [["property": "title", "op": "starts with", "value": "Invented Book"]]]).count == 40)
        await library.stop()
    }

    /// The client cancels the import while it waits for the confirmation: the answer that follows finds the run
    /// cancelled, and nothing is imported.
    @Test func cancellingTheRequestCancelsTheRun() async throws {
        let folder = try TemporaryFolder("library-mcp-csv")
        defer { withExtendedLifetime(folder) {} }
        let csv = try Self.booksCSV(count: 40, in: folder)
        let request = Shared<(client: Client?, id: ID?)>((nil, nil))
        let library = try await McpLibrary(["--allow-read=\(folder.path)"], answer: { _ in
            let (client, id) = request.value.withLock { $0 }
            if let client, let id { try await client.cancelRequest(id, reason: "the person changed their mind") }
            return .init(action: .accept, content: ["value": true])
        })
        // Known before it is sent, so that the confirmation, which comes after, can cancel it.
        let importing = CallTool.request(.init(name: "import_books", arguments: ["from": .string(csv)]))
        request.value.withLock { $0 = (library.client, importing.id) }
        let call = try await library.client.send(importing)
        await #expect(throws: CancellationError.self) { try await call.value }
        // A write waits for the import's transaction, if there were one still going: then nothing is there.
        let added = try await library.call("add_book", ["title": "After the import", "author": "Ann"])
        #expect(added.isError != true, "\(McpLibrary.text(added))")
        #expect(try await library.books(["where": [["property": "title", "op": "starts with", "value": "Invented Book"]]]).isEmpty)
        await library.stop()
    }

    @Test func whatTheCommandLineDidntGrantIsRefused() async throws {
        let library = try await McpLibrary(elicitation: false)
        let refused = try await library.call("import_books", ["from": "/tmp/more.csv"])
        #expect(McpLibrary.text(refused) == "'import books' needs to read files, and this server was not allowed to: start it with --allow-read")
        #expect(refused.isError == true)
        // The standard library's shortcuts are not the Library's tools, whatever is granted.
        let shortcut = try await library.call("fetch_json", ["url": "https://example.com/a.json"])
        #expect(McpLibrary.text(shortcut) == "there is no tool 'fetch_json'", "\(McpLibrary.text(shortcut))")
        await library.stop()

        // Granted one folder, a file outside it can't be read, and nobody can be asked for another.
        let granted = try TemporaryFolder("library-mcp-granted"), elsewhere = try TemporaryFolder("library-mcp-elsewhere")
        defer { withExtendedLifetime((granted, elsewhere)) {} }
        let csv = try Self.booksCSV(count: 3, in: elsewhere)
        let scoped = try await McpLibrary(["--allow-read=\(granted.path)"], elicitation: false)
        let outside = try await scoped.call("import_books", ["from": .string(csv)])
        #expect(outside.isError == true && McpLibrary.text(outside).contains("outside what --allow-read granted"), "\(McpLibrary.text(outside))")
        await scoped.stop()
    }
}

/// What a client's handler and the test both reach.
final class Shared<T: Sendable>: Sendable {
    let value: Mutex<T>
    init(_ value: T) { self.value = Mutex(value) }
}
