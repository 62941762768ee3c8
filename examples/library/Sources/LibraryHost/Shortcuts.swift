import AutoIntents

/// The library's App Shortcuts: what `library say` understands and `library shortcuts` lists.
struct LibraryShortcuts: AppShortcutsProvider {
    static var appShortcuts: [AppShortcut] {
        AppShortcut(intent: OpenShelf(), phrases: [
            "Open \(\.$shelf) in \(.applicationName)",
            "Open my \(\.$shelf) shelf in \(.applicationName)",
            "What's on \(\.$shelf) in \(.applicationName)",
        ], shortTitle: "Open shelf", systemImageName: "books.vertical")
        // The same words as the shelf's first phrase: the words after "open" tell a shelf from a book's title.
        AppShortcut(intent: OpenBook(), phrases: [
            "Open \(\.$book) in \(.applicationName)",
            "Open the book \(\.$book) in \(.applicationName)",
        ], shortTitle: "Open book", systemImageName: "book")
        AppShortcut(intent: MarkAsRead(), phrases: [
            "Mark \(\.$book) as read in \(.applicationName)",
            "I finished \(\.$book) in \(.applicationName)",
        ], shortTitle: "Mark as read", systemImageName: "checkmark.circle")
        AppShortcut(intent: AddBook(), phrases: [
            "Add a book to \(.applicationName)",
        ], shortTitle: "Add book", systemImageName: "plus")
    }

    static let synonyms: [String: [String]] = [
        "open": ["show", "list", "view"],
        "finished": ["read", "completed"],
        "Currently Reading": ["reading now", "in progress", "current"],
        "Want to Read": ["to read", "wishlist", "later"],
    ]
}
