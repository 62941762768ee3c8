/// An App Shortcut as registered: with the intent it runs and the host's name its phrases say.
package struct RegisteredShortcut: Sendable {
    package let shortcut: AppShortcut
    package let intent: IntentDescriptor
    package let applicationName: String
}

extension Registry {
    /// Registers a provider's App Shortcuts, after the intents they run and the queries of the entities their phrases
    /// name. `applicationName` is what `\(.applicationName)` says: the host's command name (`library`).
    ///
    /// Each phrase is checked here, so that a mistake shows when the host starts and not when someone speaks: it says
    /// the app's name; it names at most one parameter, of an enum, of an entity found by text or an Int; it has words of its
    /// own; its own text matches it (with each case of an enum parameter); no other phrase has the same words.
    public mutating func register<P: AppShortcutsProvider>(shortcuts provider: P.Type, applicationName: String) throws(RegistrationError) {
        var book = phraseBook
        for (key, alternatives) in P.synonyms {
            let words = alternatives.map(PhraseWords.significant).filter { !$0.isEmpty }
            book.synonyms[PhraseWords.significant(key).joined(separator: " "), default: []] += words
        }
        var added: [RegisteredShortcut] = []
        for shortcut in P.appShortcuts {
            guard let intent = intent(named: IntentDescriptor.name(of: shortcut.intentTitle)) else {
                throw RegistrationError("the shortcut '\(shortcut.shortTitle)' runs '\(shortcut.intentTitle)', which is not registered; register the intent before its shortcuts")
            }
            // The twin's shortcut: registered before, added before this one by the provider, or this one.
            let owners = appShortcuts.map(\.shortcut) + added.map(\.shortcut) + [shortcut]
            for phrase in shortcut.phrases {
                book.patterns.append(try checkedPattern(phrase, of: shortcut, intent: intent, applicationName: applicationName,
                                                        saysName: true, owners: owners, book: book))
            }
            added.append(RegisteredShortcut(shortcut: shortcut, intent: intent, applicationName: applicationName))
        }
        appShortcuts += added
        phraseBook = book
    }

    /// Registers the phrases of a shortcut written in the language (`shortcut "describe number" (n: Int) phrases
    /// ["describe \(n)"] { … }`), checked as an App Shortcut's are but for the host's name, which they don't say:
    /// the sentences `say` runs it by. Returns each phrase refused, by its index, with why; the others are
    /// registered.
    package mutating func register(phrases: [ShortcutPhrase], of intent: IntentDescriptor,
                                   applicationName: String) -> [(phrase: Int, error: RegistrationError)] {
        let shortcut = AppShortcut(intentTitle: intent.title, phrases: phrases, shortTitle: intent.title)
        let owners = appShortcuts.map(\.shortcut) + [shortcut]
        var refused: [(phrase: Int, error: RegistrationError)] = []
        for (index, phrase) in phrases.enumerated() {
            do {
                phraseBook.patterns.append(try checkedPattern(phrase, of: shortcut, intent: intent, applicationName: applicationName,
                                                              saysName: false, owners: owners, book: phraseBook))
            } catch {
                refused.append((index, error))
            }
        }
        appShortcuts.append(RegisteredShortcut(shortcut: shortcut, intent: intent, applicationName: applicationName))
        return refused
    }

    /// A phrase of the shortcut registered next, checked: its parts against the intent, its own text matching it, and
    /// no phrase of `book` with its words (`owners`, by index, the shortcuts of the book's phrases). `saysName`: the
    /// phrase must say the host's name, as an App Shortcut's must.
    func checkedPattern(_ phrase: ShortcutPhrase, of shortcut: AppShortcut, intent: IntentDescriptor, applicationName: String,
                        saysName: Bool, owners: [AppShortcut], book: PhraseBook) throws(RegistrationError) -> PhrasePattern {
        let pattern = try self.pattern(phrase, of: shortcut, intent: intent, index: owners.count - 1,
                                       applicationName: applicationName, saysName: saysName)
        try Self.checkReachable(pattern, in: shortcut, applicationName: applicationName, synonyms: book.synonyms)
        if let twin = book.patterns.first(where: { Self.sameWords($0, pattern) }) {
            throw RegistrationError("the phrase \"\(phrase)\" of the shortcut '\(shortcut.shortTitle)' has the same words as \"\(twin.phrase)\" of '\(owners[twin.shortcut].shortTitle)'; nothing could tell them apart")
        }
        return pattern
    }

    /// The phrase as the matcher reads it, once its parts are checked against the intent.
    func pattern(_ phrase: ShortcutPhrase, of shortcut: AppShortcut, intent: IntentDescriptor, index: Int,
                 applicationName: String, saysName: Bool) throws(RegistrationError) -> PhrasePattern {
        let about = "the phrase \"\(phrase)\" of the shortcut '\(shortcut.shortTitle)'"
        guard phrase.parts.contains(.applicationName) || !saysName else {
            throw RegistrationError("\(about) doesn't say the app's name; put \\(.applicationName) in it")
        }
        guard !phrase.parts.contains(.unknownParameter) else {
            throw RegistrationError("\(about) names a property of '\(intent.name)' that is not one of its @Parameter properties")
        }
        let names = phrase.parameterNames
        guard names.count <= 1 else {
            throw RegistrationError("\(about) names \(names.count) parameters (\(names.joined(separator: ", "))); a phrase may name one")
        }
        var parameter: ParameterInfo?
        if let name = names.first {
            guard let index = intent.parameterIndex(named: name) else {
                throw RegistrationError("\(about) names '\(name)', which is not a parameter of '\(intent.name)'")
            }
            parameter = intent.parameters[index]
            switch intent.parameters[index].type {
            case .enumeration, .int: break
            case .entity(let type):
                guard query(for: type)?.canFindByText == true else {
                    throw RegistrationError("\(about) names '\(name)', a \(type.singular), but \(type.plural) can't be found by text; register a query "
                                            + "that is an EntityStringQuery or an EnumerableEntityQuery before the shortcuts")
                }
            default:
                throw RegistrationError("\(about) names '\(name)', of type \(intent.parameters[index].type); a phrase's parameter is an enum, an entity or an Int")
            }
        }
        let pattern = PhrasePattern(shortcut: index, phrase: phrase, applicationName: applicationName, parameter: parameter)
        guard !pattern.words.isEmpty else {
            throw RegistrationError("\(about) has no words of its own besides the app's name and the parameter; anything said would match it")
        }
        return pattern
    }

    /// Whether the phrase's own text matches it, exactly: with each case of an enum parameter filled in, a number for
    /// an Int, and the parameter's title standing for an entity (whose names only the host's query knows, when it runs).
    static func checkReachable(_ pattern: PhrasePattern, in shortcut: AppShortcut, applicationName name: String,
                               synonyms: [String: [[String]]]) throws(RegistrationError) {
        var examples: [(text: String, matches: ([String]) -> Bool)] = []
        switch pattern.parameter?.type {
        case .enumeration(let type)?:
            for (index, item) in type.cases.enumerated() {
                let text = pattern.phrase.filled(applicationName: name) { _ in item.displayName }
                examples.append((text, { rest in PhraseMatcher.cases(of: type, heard: rest, synonyms: synonyms).contains { $0.index == index && $0.cost == 0 } }))
            }
        case .int?:
            examples.append((pattern.phrase.filled(applicationName: name) { _ in "1" }, { $0 == ["1"] }))
        case let type?:
            let title = pattern.parameter?.title ?? type.description
            let text = pattern.phrase.filled(applicationName: name) { _ in title }
            examples.append((text, { rest in rest == PhraseWords.significant(title) }))
        case nil:
            examples.append((pattern.phrase.filled(applicationName: name) { _ in "" }, { $0.isEmpty }))
        }
        for (text, matches) in examples {
            // The fit `say` takes for the text: the first that costs nothing (see `PhraseMatcher.match`).
            guard let fit = pattern.fits(PhraseWords.significant(text), synonyms: synonyms).first(where: { $0.cost == 0 }), matches(fit.rest) else {
                throw RegistrationError("the phrase \"\(pattern.phrase)\" of the shortcut '\(shortcut.shortTitle)' doesn't match its own text \"\(text)\"; its words and its parameter's values run together")
            }
        }
    }

    /// Whether two phrases have the same words and the same kind of parameter: then no sentence prefers one.
    static func sameWords(_ a: PhrasePattern, _ b: PhrasePattern) -> Bool {
        a.words.sorted() == b.words.sorted() && a.parameter?.type == b.parameter?.type
    }
}
