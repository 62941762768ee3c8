import AutoIntents
@testable import AutoLanguage
@testable import AutoStdlib
import Testing

/// Which titles scripts can call (`CallableTitle`), judged by the parser: every title the engine registers itself
/// is callable, and the words the language keeps for itself are found wherever they make a title uncallable.
@Suite struct CallableTitleTests {
    @Test func everyTitleOfTheEngineIsCallable() {
        var titles = Registry.standard.intents.map(\.title) + StandardLibrary.intents.entries.map(\.title)
        titles += ["Repeat text", "Stop timer", "Try again", "Sort books", "Mark as read", "Count words", "Run command", "Café au lait",
                   "Shortcut", "Automation"]
        for title in titles {
            #expect(CallableTitle.problem(title) == nil, "\(title): \(CallableTitle.problem(title) ?? "")")
        }
    }

    @Test(arguments: [
        ("Find easy trails", "'find'"), ("Set", "'set'"), ("If needed", "'if'"), ("For each book", "'for'"), ("While away", "'while'"),
        ("Return book", "'return'"), ("Filter where", "'filter'"), ("Sort by title", "'sort'"), ("Stop", "'stop'"),
        ("Check in", "'in'"), ("Search and replace", "'and'"), ("Turn on or off", "'or'"), ("Not now", "'not'"),
        ("Starts soon", "'starts'"), ("Fill between", "'between'"), ("True up", "'true'"), ("Each day", "'each'"),
        ("Distinct", "'distinct'"), ("Set alarm", "'set'"), ("Limit speed", "'limit'"), ("Repeat", "'repeat'"),
        ("Set-up", "'set-up'"), ("Open 3D model", "'3d'"), ("Back up!", "'up!'"), ("Rate book 5", "'5'"),
    ])
    func aTitleTheLanguageReadsOtherwiseIsNamed(_ title: String, _ word: String) throws {
        let problem = try #require(CallableTitle.problem(title), "\(title) was taken as callable")
        #expect(problem.contains(word), "\(title): \(problem)")
    }
}
