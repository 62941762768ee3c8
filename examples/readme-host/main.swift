import AutoHost
import AutoIntents
import Foundation

enum Shelf: String, AppEnum {
    case wantToRead, currentlyReading, read
    static let enumType = EnumType<Shelf>("shelf", displayNames: [
        .wantToRead: "Want to Read", .currentlyReading: "Currently Reading", .read: "Read"])
}

struct Book: AppEntity {
    static let entityType = EntityType<Book>(singular: "book")    // properties: its stored ones, found
    var id: UUID
    var title: String
    var author: String
    var price: Decimal
    var shelf: Shelf
    var displayRepresentation: DisplayRepresentation { .init(title: title, subtitle: author) }
}

final class Store: Sendable { /* the host's database, client or store */ }

struct AddBook: AppIntent {
    static let title = "Add book"
    static let sideEffect = SideEffect.changes
    static let parameterSummary: ParameterSummary? = "Add {title} by {author} to {shelf}"

    @Parameter(question: "What is the book's title?") var title: String     // required; the input
    @Parameter var author: String?                                           // optional
    @Parameter(default: 0, range: 0...1_000) var price: Decimal             // a default, and a range
    @Parameter(default: .wantToRead) var shelf: Shelf
    @Dependency var store: Store                                            // the host's, by type

    func perform(_ context: IntentContext) async throws -> IntentResult<Book> {
        guard !title.isEmpty else { throw IntentError("a book needs a title") }
        let book = Book(id: UUID(), title: title, author: author ?? "Anonymous", price: price, shelf: shelf)
        return .result(value: book, dialog: "Added \(title)")
    }
}

await AutoHost.main(name: "library") { registry in  // the whole CLI; the registry holds the built-ins
    try registry.register(dependency: Store())       // dependencies first, one of each type
    try registry.register(AddBook.self)              // its entity and enum types are registered with it
}
