@testable import AutoIntents
import Foundation
import Testing

/// Each kind of change between a host's two schemas, classified as an API-breakage checker would: what breaks
/// scripts, automations and phrases written against the old one, and what doesn't.
@Suite struct SchemaDiffTests {
    static let base = HostSchema(
        intents: [HostSchema.Intent(id: "OpenBook", title: "Open book", formerTitles: [], deprecated: nil, replacedBy: nil,
                                    parameters: [HostSchema.Parameter(id: "book", name: "book", formerNames: [], type: "Book", required: true),
                                                 HostSchema.Parameter(id: "note", name: "note", formerNames: [], type: "Text", required: false)],
                                    result: "nothing", sideEffect: "none")],
        entities: [HostSchema.Entity(id: "Book", singular: "book", plural: "books", properties: [HostSchema.Property(name: "title", type: "Text")])],
        enums: [HostSchema.Enum(id: "Shelf", cases: [HostSchema.Case(id: "read", title: "Read"), HostSchema.Case(id: "wantToRead", title: "Want to Read")])],
        shortcuts: [HostSchema.Shortcut(intent: "OpenBook", phrases: ["Open {book} in {app}"])])

    /// A change, and the one line the diff must say of it.
    static let table: [(String, @Sendable (inout HostSchema) -> Void, String)] = [
        ("intent removed", { $0.intents = [] }, "breaking: intent 'open book' was removed"),
        ("renamed, former title kept", { $0.intents[0].title = "Read book"; $0.intents[0].formerTitles = ["open book"] },
         "compatible: intent 'open book' is now 'read book', with the old title kept as a former one"),
        ("renamed, former title not kept", { $0.intents[0].title = "Read book" },
         "breaking: intent 'open book' is now 'read book' and the old title is not among its former titles"),
        ("deprecated", { $0.intents[0].deprecated = "use 'read book'" }, "compatible: intent 'open book' is deprecated: use 'read book'"),
        ("result changed", { $0.intents[0].result = "Book" }, "breaking: intent 'open book' returns Book, not nothing"),
        ("parameter removed", { $0.intents[0].parameters.removeLast() }, "breaking: parameter 'note' of 'open book' was removed"),
        ("parameter renamed, former name kept", { $0.intents[0].parameters[1].name = "remark"; $0.intents[0].parameters[1].formerNames = ["note"] },
         "compatible: parameter 'note' of 'open book' is now 'remark', with the old name kept as a former one"),
        ("parameter renamed", { $0.intents[0].parameters[1].name = "remark" },
         "breaking: parameter 'note' of 'open book' is now 'remark' and the old name is not among its former names"),
        ("parameter made required", { $0.intents[0].parameters[1].required = true }, "breaking: parameter 'note' of 'open book' became required"),
        ("parameter type changed", { $0.intents[0].parameters[1].type = "Int" }, "breaking: parameter 'note' of 'open book' takes Int, not Text"),
        ("required parameter added", { $0.intents[0].parameters.append(HostSchema.Parameter(id: "page", name: "page", formerNames: [], type: "Int", required: true)) },
         "breaking: intent 'open book' has a new required parameter 'page'"),
        ("optional parameter added", { $0.intents[0].parameters.append(HostSchema.Parameter(id: "page", name: "page", formerNames: [], type: "Int", required: false)) },
         "compatible: intent 'open book' has a new optional parameter 'page'"),
        ("intent added", { $0.intents.append(HostSchema.Intent(id: "RateBook", title: "Rate book", formerTitles: [], deprecated: nil, replacedBy: nil,
                                                                parameters: [], result: "nothing", sideEffect: "changes")) },
         "compatible: intent 'rate book' was added"),
        ("entity removed", { $0.entities = [] }, "breaking: entity type Book was removed"),
        ("property removed", { $0.entities[0].properties = [] }, "breaking: property 'title' of Book was removed"),
        ("property type changed", { $0.entities[0].properties[0].type = "Int" }, "breaking: property 'title' of Book is Int, not Text"),
        ("property renamed, former name kept", { $0.entities[0].properties[0] = HostSchema.Property(name: "name", type: "Text", formerNames: ["title"]) },
         "compatible: property 'title' of Book is now 'name', with the old name kept as a former one"),
        ("property added", { $0.entities[0].properties.append(HostSchema.Property(name: "added", type: "Date")) },
         "compatible: Book has a new property 'added'"),
        ("enum case removed", { $0.enums[0].cases.removeLast() }, "breaking: case 'wantToRead' of Shelf was removed"),
        ("enum case added", { $0.enums[0].cases.append(HostSchema.Case(id: "reading", title: "Reading")) }, "compatible: Shelf has a new case 'reading'"),
        ("enum removed", { $0.enums = [] }, "breaking: enum Shelf was removed"),
        ("enum case renamed, former name kept", { $0.enums[0].cases[1] = HostSchema.Case(id: "toRead", title: "To Read", formerNames: ["wantToRead"]) },
         "compatible: case 'wantToRead' of Shelf is now 'toRead', with the old name kept as a former one"),
        ("phrase gone", { $0.shortcuts[0].phrases = ["Open {book} now in {app}"] },
         "breaking: the phrase \"Open {book} in {app}\" of OpenBook's App Shortcut is gone"),
    ]

    @Test(arguments: table.indices)
    func eachChangeIsFoundAndClassified(_ index: Int) {
        let (name, change, expected) = Self.table[index]
        var new = Self.base
        change(&new)
        let found = SchemaDiff(from: Self.base, to: new).changes.map(\.description)
        #expect(found.contains(expected), "\(name): \(found)")
        #expect(SchemaDiff(from: Self.base, to: new).isBreaking == expected.hasPrefix("breaking"), "\(name)")
    }

    @Test func theSameSchemaHasNoChangesAndItsJSONReadsBack() throws {
        #expect(SchemaDiff(from: Self.base, to: Self.base).changes.isEmpty)
        let json = Self.base.json()
        #expect(try HostSchema.read(Data(json.utf8), file: "s.json") == Self.base)
        #expect(json.hasPrefix("{\n  \"entities\" : ["), "keys sorted: \(json.prefix(40))")
        #expect(throws: SchemaError.self) { try HostSchema.read(Data("{}".utf8), file: "s.json") }
    }
}
