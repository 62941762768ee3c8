@testable import AutoIntents
import Foundation
import Testing

/// Registration reads a struct's stored properties through Swift's private reflection (`StoredProperties`, the one
/// seam onto it) and then writes and reads at the offsets it gives. These hold what that relies on, against the
/// public `MemoryLayout.offset(of:)`, so that a toolchain that changes it fails here before it misplaces a write
/// under a host; and they show that what the seam can't read is refused with the type's name, never misread.
@Suite struct StoredPropertiesTests {
    final class Box: Sendable {}
    struct Pair<T> { var first: T; var second: T }

    /// Every kind of property an intent or an entity holds, with padding between them.
    struct Everything {
        var flag: Int8 = 0
        var text = ""
        var day = Date(timeIntervalSince1970: 0)
        var link: URL? = nil
        var id = UUID()
        var price: Decimal = 0
        var list: [Int] = []
        var count: Int? = nil
        var box = Box()
        var anything: any Sendable = 1
        var tuple: (Int8, Int) = (0, 0)
        var pair = Pair<Int8>(first: 0, second: 0)
        @Parameter var title: String
        @Parameter var note: String?
        @Dependency var clock: Int
        var last: Int8 = 0

        /// Each property's name, key path and type; written here, where a wrapper's storage (`_title`) is visible.
        static var paths: [(String, PartialKeyPath<Everything>, Any.Type)] { [
            ("flag", \.flag, Int8.self), ("text", \.text, String.self), ("day", \.day, Date.self), ("link", \.link, URL?.self),
            ("id", \.id, UUID.self), ("price", \.price, Decimal.self), ("list", \.list, [Int].self), ("count", \.count, Int?.self),
            ("box", \.box, Box.self), ("anything", \.anything, (any Sendable).self), ("tuple", \.tuple, (Int8, Int).self),
            ("pair", \.pair, Pair<Int8>.self), ("_title", \._title, Parameter<String>.self), ("_note", \._note, Parameter<String?>.self),
            ("_clock", \._clock, Dependency<Int>.self), ("last", \.last, Int8.self),
        ] }
    }

    struct Probe {
        var flag: Int8 = 0
        @Parameter var parameter: String
        static var parameterOffset: Int? { MemoryLayout<Probe>.offset(of: \._parameter) }
    }

    @Test func theOffsetsAreTheCompilersInDeclarationOrder() throws {
        let paths = Everything.paths
        let fields = try StoredProperties.of(Everything.self)
        #expect(fields.map(\.name) == paths.map(\.0))
        for (field, (name, path, type)) in zip(fields, paths) {
            #expect(field.offset == MemoryLayout<Everything>.offset(of: path), "\(name)")
            #expect(ObjectIdentifier(field.type) == ObjectIdentifier(type), "\(name): \(field.type)")
        }
        #expect(fields.map(\.propertyName).suffix(4) == ["title", "note", "clock", "last"])
    }

    @Test func aParametersDeclarationIsItsFirstWord() throws {
        for type in [Parameter<Int>.self, Parameter<String?>.self, Parameter<[Double]>.self] as [Any.Type] {
            let first = try #require(try StoredProperties.of(type).first)
            #expect(first.name == "declaration" && first.offset == 0, "\(type): \(first.name) at \(first.offset)")
        }
    }

    @Test func everySpecialisationOfAGenericStructIsRecognised() throws {
        struct Mixed {
            var count = Parameter<Int>()
            var name = Parameter<String?>()
            var list: [Int] = []
            var number = 3
            var optional: Int? = nil
            var dependency = Dependency<String>()
        }
        let fields = try StoredProperties.of(Mixed.self)
        #expect(fields.filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map(\.name) == ["count", "name"])
        #expect(fields.filter { $0.isSpecialisation(of: Dependency<Int>.self) }.map(\.name) == ["dependency"])
    }

    @Test func onlyAStructHasADescriptor() {
        #expect(StoredProperties.structDescriptor(of: Everything.self) != nil)
        #expect(StoredProperties.structDescriptor(of: Pair<Int>.self) == StoredProperties.structDescriptor(of: Pair<String>.self))
        for type in [Box.self, Int?.self, (Int, Int).self, ComparatorMode.self, (any Sendable).self, (() -> Void).self] as [Any.Type] {
            #expect(StoredProperties.structDescriptor(of: type) == nil, "\(type)")
        }
    }

    @Test func whatIsNotAStructIsRefusedWithWhy() {
        #expect(throws: StoredProperties.Unreadable.self) { try StoredProperties.of(Int?.self) }
        do {
            _ = try StoredProperties.of(Box.self)
            Issue.record("a class was read as a struct")
        } catch {
            #expect(error.reason.hasPrefix("is a class: the engine reads and fills the properties of structs only"))
        }
        do {
            _ = try StoredProperties.of(ComparatorMode.self, for: "the query of books")
            Issue.record("an enum was read as a struct")
        } catch {
            #expect(error.message.hasPrefix("the query of books, AutoIntents.ComparatorMode, is not a struct"), "\(error.message)")
        }
    }

    @Test func thisToolchainReadsAsTheEngineRelies() {
        #expect(StoredProperties.toolchainProblem == nil, "\(StoredProperties.toolchainProblem ?? "")")
        // The layout rule the start-up check computes its expectations with is the compiler's.
        #expect(LayoutProbe.expected().map(\.offset) == LayoutProbe.compilersOffsets(), "\(LayoutProbe.compilersOffsets())")
    }

    /// The check that guards every registration: a reflection that read other offsets, nothing, or a `Parameter`
    /// laid out otherwise is caught, and says what it read.
    @Test func aToolchainThatReadsOtherwiseIsCaught() throws {
        let read = try StoredProperties.of(Probe.self)
        let parameter = try StoredProperties.of(Parameter<String>.self)
        let expected = [StoredProperties.Field(name: "flag", offset: 0, type: Int8.self),
                        StoredProperties.Field(name: "_parameter", offset: try #require(Probe.parameterOffset),
                                               type: Parameter<String>.self)]
        #expect(StoredProperties.problem(in: read, expected: expected, parameter: parameter) == nil)

        var moved = expected
        moved[1] = StoredProperties.Field(name: "_parameter", offset: 1, type: Parameter<String>.self)
        let mismatch = try #require(StoredProperties.problem(in: read, expected: moved, parameter: parameter))
        #expect(mismatch.contains("where [flag at 0: Int8, _parameter at 1: Parameter<String>] was expected"), "\(mismatch)")

        #expect(StoredProperties.problem(in: nil, expected: expected, parameter: parameter)?.hasSuffix("can't list a struct's stored properties") == true)
        let reordered = Array(parameter.reversed())
        #expect(StoredProperties.problem(in: read, expected: expected, parameter: reordered)?.hasSuffix("isn't its first word") == true)
    }

    @Test func aClassesFieldsAreListedOnlyToNameThem() {
        final class Holder: @unchecked Sendable { var name = ""; @Dependency var clock: Int }
        #expect(StoredProperties.ofClass(Holder.self).map(\.name) == ["name", "_clock"])
    }
}

/// What registration says of a type it can't read: a class entity, a class query with a `@Dependency`. A class
/// query without one, and a class entity that lists its properties, are fine.
@Suite struct ClassesAtRegistrationTests {
    final class Note: AppEntity, @unchecked Sendable {
        static let entityType = EntityType<Note>(singular: "note")
        let id: String
        let text: String
        init(id: String, text: String) { (self.id, self.text) = (id, text) }
        var displayRepresentation: DisplayRepresentation { .init(title: text) }
    }

    final class Memo: AppEntity, @unchecked Sendable {
        static let entityType = EntityType<Memo>(singular: "memo", properties: [.init("text", \.text)])
        let id: String
        let text: String
        init(id: String, text: String) { (self.id, self.text) = (id, text) }
        var displayRepresentation: DisplayRepresentation { .init(title: text) }
    }

    final class MemoQuery: EnumerableEntityQuery, @unchecked Sendable {
        func entities(for identifiers: [String]) async throws -> [Memo] { try await allEntities().filter { identifiers.contains($0.id) } }
        func allEntities() async throws -> [Memo] { [Memo(id: "1", text: "milk")] }
    }

    final class LedgerMemoQuery: EnumerableEntityQuery, @unchecked Sendable {
        @Dependency var ledger: Ledger
        func entities(for identifiers: [String]) async throws -> [Memo] { [] }
        func allEntities() async throws -> [Memo] { [Memo(id: "2", text: ledger.owner)] }
    }

    @Test func aClassEntityThatListsNoPropertiesIsRefused() {
        var registry = Registry()
        #expect {
            try registry.register(entity: Note.self)
        } throws: { error in
            let message = (error as? RegistrationError)?.message ?? ""
            return message.contains("the entity type 'note' lists its stored properties, but AutoIntentsTests.ClassesAtRegistrationTests.Note "
                                    + "is a class") && message.contains("give it the properties to show")
        }
    }

    @Test func aClassEntityWithItsPropertiesAndAClassQueryAreFound() async throws {
        var registry = Registry()
        try registry.register(entity: Memo.self)
        try registry.register(query: MemoQuery())
        let query = try #require(registry.query(for: Memo.entityType))
        #expect(query.canEnumerate)
    }

    @Test func aClassQueryWithADependencyIsRefused() throws {
        var registry = Registry()
        try registry.register(dependency: Ledger(owner: "Ada"))
        try registry.register(entity: Memo.self)
        #expect {
            try registry.register(query: LedgerMemoQuery())
        } throws: { error in
            (error as? RegistrationError)?.message == "the query of memos, AutoIntentsTests.ClassesAtRegistrationTests.LedgerMemoQuery, "
                + "is a class whose @Dependency 'ledger' the engine can't fill: declare it a struct, or give the class what it needs when you make it"
        }
    }
}
