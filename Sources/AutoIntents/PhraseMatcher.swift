import Foundation

/// Words as the phrase matcher compares them: what people say and what phrases declare go through the same steps.
enum PhraseWords {
    /// Words that carry nothing in a request ("please open my shelf"): dropped from both sides.
    static let fillers: Set<String> = ["please", "my", "the", "a", "an", "can", "could", "would", "will", "you", "me",
                                       "hey", "just", "kindly", "our", "your"]
    /// A word that may join the host's name to the phrase ("… in library", "add a book to library"): optional with
    /// the name.
    static let prepositions: Set<String> = ["in", "on", "to", "with", "using", "from", "via"]

    /// A word as compared, and as it was written: an entity's words go to the host's query as written ("Girl's").
    struct Word {
        let text: String
        let written: String
    }

    /// Lower case, accents folded, punctuation read as a space; an apostrophe is dropped, so "don't" is one word.
    static func split(_ text: String) -> [Word] {
        var words: [Word] = [], written = ""
        func end() {
            // Foundation's folding only where there is something to fold: its first use loads tables, a measurable part of
            // registering a host's phrases, which are mostly ASCII.
            let folded = (written.allSatisfy(\.isASCII) ? written.lowercased()
                : written.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)).filter { $0.isLetter || $0.isNumber }
            if !folded.isEmpty { words.append(Word(text: folded, written: written)) }
            written = ""
        }
        for character in text {
            if character.isLetter || character.isNumber {
                written.append(character)
            } else if character == "'" || character == "’" {
                if !written.isEmpty { written.append("'") }
            } else {
                end()
            }
        }
        end()
        return words
    }

    static func all(_ text: String) -> [String] { split(text).map(\.text) }

    /// The words that count: all but the fillers.
    static func significant(_ text: String) -> [String] {
        all(text).filter { !fillers.contains($0) }
    }

    static func significantWords(_ text: String) -> [Word] {
        split(text).filter { !fillers.contains($0.text) }
    }

    /// How many typos a word tolerates: none in a short word, where one edit makes another word ("read", "red").
    static func tolerance(_ word: String) -> Int {
        word.count >= 8 ? 2 : word.count >= 4 ? 1 : 0
    }

    /// What hearing `heard` for `word` costs: 0 for the word or a synonym of it, the number of typos when within
    /// the word's tolerance, nil otherwise.
    static func cost(_ heard: String, for word: String, synonyms: [String] = []) -> Int? {
        if heard == word || synonyms.contains(heard) { return 0 }
        var best: Int?
        for candidate in [word] + synonyms {
            // Words further apart in length than the tolerance can't be within it: no table to fill.
            guard abs(heard.count - candidate.count) <= tolerance(candidate) else { continue }
            let distance = EditDistance.between(heard, candidate)
            if distance <= tolerance(candidate), distance < (best ?? .max) { best = distance }
        }
        return best
    }

    /// What hearing `heard` for a name of several words costs: each word in turn, in order.
    static func cost(_ heard: [String], for name: [String]) -> Int? {
        guard heard.count == name.count, !name.isEmpty else { return nil }
        var total = 0
        for (said, word) in zip(heard, name) {
            guard let cost = cost(said, for: word) else { return nil }
            total += cost
        }
        return total
    }
}

/// One declared phrase, ready to match: the words it needs, the host's name it may leave out, the parameter its
/// other words fill. It owns the rule for where the host's name is heard, which registration (a phrase must match
/// its own text) and `PhraseMatcher` (what people say) both go through `fits`.
struct PhrasePattern: Sendable {
    /// Index of its shortcut in `Registry.appShortcuts`.
    let shortcut: Int
    let phrase: ShortcutPhrase
    /// The phrase's own words, fillers left out, in order; each must be heard (in any order).
    let words: [String]
    /// The host's name, heard or not, as people leave the app they talk to unsaid.
    let applicationWords: [String]
    /// Where the phrase says the host's name, which is where a sentence is first looked at for it; at the end for a
    /// phrase that doesn't say it (a shortcut's written in the language), as people add it ("… in auto").
    let applicationPlace: Place
    let parameter: ParameterInfo?

    enum Place {
        case start, middle, end
    }

    init(shortcut: Int, phrase: ShortcutPhrase, applicationName: String, parameter: ParameterInfo?) {
        var words: [String] = []
        // Whether anything is said before the name (a word, the parameter) and whether anything is after it.
        var saysName = false, saidBefore = false, saidAfter = false
        var previousWasText = false
        for part in phrase.parts {
            switch part {
            case .text(let text):
                let significant = PhraseWords.significant(text)
                words += significant
                if saysName && !significant.isEmpty { saidAfter = true }
                previousWasText = true
                continue
            case .applicationName:
                // The preposition before the name goes with it, and any of them is heard for it ("with library").
                if previousWasText, let last = words.last, PhraseWords.prepositions.contains(last) { words.removeLast() }
                saysName = true
                saidBefore = saidBefore || !words.isEmpty
            case .parameter, .unknownParameter:
                if saysName { saidAfter = true } else { saidBefore = true }
            }
            previousWasText = false
        }
        self.shortcut = shortcut
        self.phrase = phrase
        self.words = words
        self.applicationWords = PhraseWords.significant(applicationName)
        applicationPlace = !saysName || !saidAfter ? .end : !saidBefore ? .start : .middle
        self.parameter = parameter
    }

    /// How the phrase's words were found in what was said.
    struct Fit {
        /// Typos (in the phrase's words and in the host's name), plus one when the words came in another order than
        /// the phrase's.
        let cost: Int
        /// What is left for the parameter, in the order said, and where each was said.
        let rest: [String]
        let restIndices: [Int]
    }

    /// The ways `heard` fits the phrase, the one to prefer first; empty when none does. The host's name is looked
    /// for before the phrase's words, so that none of them takes it for a typo of theirs ("trail" for `trails`): said
    /// exactly, at the phrase's place first, it is the name, and the one fit; only when it isn't is each hearing of it
    /// with typos a fit (costing its typos), and so is the name left unsaid, so that the words' meaning decides
    /// ("open trail" to `trails` opens a trail named so).
    func fits(_ heard: [String], synonyms: [String: [[String]]]) -> [Fit] {
        // A host's name of filler words only ("my") is never heard.
        guard !applicationWords.isEmpty else { return fit(heard, name: nil, synonyms: synonyms).map { [$0] } ?? [] }
        var exact: [Int] = [], near: [(start: Int, typos: Int)] = []
        if heard.count >= applicationWords.count {
            for start in 0...heard.count - applicationWords.count {
                guard let typos = PhraseWords.cost(Array(heard[start..<start + applicationWords.count]), for: applicationWords) else { continue }
                if typos == 0 { exact.append(start) } else { near.append((start, typos)) }
            }
        }
        for start in exact.filter({ isAtPlace($0, in: heard) }) + exact.filter({ !isAtPlace($0, in: heard) }) {
            if let fit = fit(heard, name: (start, 0), synonyms: synonyms) { return [fit] }
        }
        let placed = near.filter { isAtPlace($0.start, in: heard) } + near.filter { !isAtPlace($0.start, in: heard) }
        return placed.compactMap { fit(heard, name: $0, synonyms: synonyms) } + [fit(heard, name: nil, synonyms: synonyms)].compactMap { $0 }
    }

    /// Whether the host's name heard from `start` is where the phrase says it: first (after a preposition), last, or
    /// between other words.
    func isAtPlace(_ start: Int, in heard: [String]) -> Bool {
        let first = start == 0 || (start == 1 && PhraseWords.prepositions.contains(heard[0]))
        let last = start + applicationWords.count == heard.count
        switch applicationPlace {
        case .start: return first
        case .end: return last
        case .middle: return !first && !last
        }
    }

    /// Finds each of the phrase's words among `heard`, the host's name heard at `name` (or unsaid) set aside; nil
    /// when one is missing, or when words are left over and there is no parameter to take them.
    func fit(_ heard: [String], name: (start: Int, typos: Int)?, synonyms: [String: [[String]]]) -> Fit? {
        var used = [Bool](repeating: false, count: heard.count)
        if let name { for index in name.start..<name.start + applicationWords.count { used[index] = true } }
        var cost = name?.typos ?? 0, previous = -1, inOrder = true
        for word in words {
            let alternatives = (synonyms[word] ?? []).filter { $0.count == 1 }.map { $0[0] }
            // The cheapest hearing; among equals the first after the previous word, so a sentence said in the phrase's
            // order keeps it, and a parameter's value that repeats a phrase word ("open read shelf") is left alone.
            var best: (index: Int, cost: Int, after: Bool)?
            for index in heard.indices where !used[index] {
                guard let wordCost = PhraseWords.cost(heard[index], for: word, synonyms: alternatives) else { continue }
                let after = index > previous
                if let current = best, current.cost < wordCost || (current.cost == wordCost && (current.after || !after)) { continue }
                best = (index, wordCost, after)
            }
            guard let best else { return nil }
            used[best.index] = true
            cost += best.cost
            if !best.after { inOrder = false }
            previous = best.index
        }
        if !inOrder { cost += 1 }
        // A preposition just before the name goes with it, after the phrase's own words took theirs ("log in library").
        if let start = name?.start, start > 0, !used[start - 1], PhraseWords.prepositions.contains(heard[start - 1]) {
            used[start - 1] = true
        }
        let rest = heard.indices.filter { !used[$0] }
        if parameter == nil && !rest.isEmpty { return nil }
        return Fit(cost: cost, rest: rest.map { heard[$0] }, restIndices: rest)
    }

    /// How far what was said is from this phrase, for suggestions: its words not heard, the words said that it
    /// has no place for, and then the letters apart.
    func distance(from heard: [String]) -> (missing: Int, letters: Int) {
        let missing = words.filter { word in !heard.contains { PhraseWords.cost($0, for: word) != nil } }.count
        let extra = parameter == nil ? heard.filter { said in !(words + applicationWords).contains { PhraseWords.cost(said, for: $0) != nil } }.count : 0
        return (missing + extra, EditDistance.between(heard.joined(separator: " "), words.joined(separator: " ")))
    }
}

/// The phrases of every registered App Shortcut and the synonyms their providers gave: what the matcher reads.
package struct PhraseBook: Sendable {
    var patterns: [PhrasePattern] = []
    /// Words or an enum case's name (its words joined by one space) → the other words people say for it.
    var synonyms: [String: [[String]]] = [:]
}

/// A shortcut that what was said matches, with the value its words give the parameter.
package struct ShortcutMatch: Sendable {
    package let shortcut: RegisteredShortcut
    package let phrase: ShortcutPhrase
    /// The parameter the phrase fills; nil for a phrase without one.
    package let parameter: ParameterInfo?
    /// An enum's case, or the text an entity is found by (found again when the call runs, as any entity named by
    /// text is, so that several matches are a choice there); nil when the words left it out and the intent asks.
    package let value: Value?
    /// The value as the sentence shows it: the case's display name, the entity's words.
    package let valueText: String?
    /// Typos, reordering and an inexact value: lower is closer.
    package let cost: Int

    /// The phrase as it was understood: "Open Currently Reading in library", or "Open {shelf} in library" when the
    /// value was left out.
    package var sentence: String {
        phrase.filled(applicationName: shortcut.applicationName) { name in valueText ?? "{\(name)}" }
    }
}

/// What a sentence matched.
package enum PhraseMatch: Sendable {
    /// The best matches, all equally close: one runs; several are a choice.
    case found([ShortcutMatch])
    /// Nothing: the closest phrases, at most three, as "Open {shelf} in library".
    case none(closest: [String])
}

/// Matches what people say to the App Shortcuts' phrases (the host's, and those of shortcuts written in the language
/// with `phrases`): case, punctuation and accents don't count, filler words are dropped, a phrase's words may come in
/// any order and with a typo or two (see `PhraseWords.tolerance`), a synonym counts as the word, and the host's name
/// may be left out, or said after any of `PhraseWords.prepositions`; said exactly it is never taken for another word
/// (see `PhrasePattern.fits`). The words left over fill the phrase's parameter: an enum by a case's display name,
/// identifier or synonym; an entity through its string query; an Int by a number in digits.
package struct PhraseMatcher: Sendable {
    package let registry: Registry

    package init(registry: Registry) { self.registry = registry }

    package func match(_ sentence: String) async throws -> PhraseMatch {
        let words = PhraseWords.significantWords(sentence), heard = words.map(\.text)
        let book = registry.phraseBook
        var matches: [ShortcutMatch] = []
        for pattern in book.patterns {
            // The phrase's cheapest fit with a value; among equals the first, as `fits` orders them.
            var cheapest: (cost: Int, matches: [ShortcutMatch])?
            for fit in pattern.fits(heard, synonyms: book.synonyms) where fit.cost < cheapest?.cost ?? .max {
                let written = fit.restIndices.map { words[$0].written }.joined(separator: " ")
                let values = try await values(for: pattern, fit: fit, written: written)
                guard let cost = values.map(\.cost).min().map({ fit.cost + $0 }), cost < cheapest?.cost ?? .max else { continue }
                cheapest = (cost, values.filter { fit.cost + $0.cost == cost }.map { value in
                    ShortcutMatch(shortcut: registry.appShortcuts[pattern.shortcut], phrase: pattern.phrase, parameter: pattern.parameter,
                                  value: value.value, valueText: value.text, cost: cost)
                })
            }
            matches += cheapest?.matches ?? []
        }
        guard let best = matches.map(\.cost).min() else { return .none(closest: closest(to: heard)) }
        // The same call reached by several phrases is one match.
        var seen: Set<String> = []
        let winners = matches.filter { $0.cost == best }.filter { match in
            seen.insert("\(match.shortcut.intent.name)\u{0}\(match.valueText ?? "")").inserted
        }
        return .found(winners)
    }

    /// The values the words left over give the pattern's parameter, with what each costs: nothing said costs 1
    /// (the intent will ask), an enum case its typos, an entity 0 when its title is the words and 1 when the
    /// query found it otherwise, a number 0. None when the words name nothing. `written` is the words as said, for
    /// the query.
    func values(for pattern: PhrasePattern, fit: PhrasePattern.Fit, written: String) async throws -> [(value: Value?, text: String?, cost: Int)] {
        guard let parameter = pattern.parameter else { return [(nil, nil, 0)] }
        if fit.rest.isEmpty { return [(nil, nil, 1)] }
        switch parameter.type {
        case .enumeration(let type):
            return Self.cases(of: type, heard: fit.rest, synonyms: registry.phraseBook.synonyms).map { index, cost in
                (.enumCase(EnumCaseValue(type: type, index: index)), type.cases[index].displayName, cost)
            }
        case .entity(let type):
            guard let query = registry.query(for: type), query.canFindByText else { return [] }
            let found = try await query.run(FindRequest.asReturned(.matching(written)))
            guard !found.isEmpty else { return [] }
            let exact = found.contains { value in
                guard case .entity(let entity) = value else { return false }
                let display = entity.display
                return ([display.title] + display.synonyms).contains { PhraseWords.significant($0) == fit.rest }
            }
            return [(.text(written), written, exact ? 0 : 1)]
        case .int:
            // A number said in digits: one word, as words are split at anything but letters and digits.
            guard fit.rest.count == 1, let number = Int(fit.rest[0]) else { return [] }
            return [(.int(number), fit.rest[0], 0)]
        default:
            return []
        }
    }

    /// The cases whose display name, identifier or a synonym the words are, each at its cost; only the cheapest.
    static func cases(of type: AnyEnumType, heard: [String], synonyms: [String: [[String]]]) -> [(index: Int, cost: Int)] {
        var costs: [(index: Int, cost: Int)] = []
        for (index, item) in type.cases.enumerated() {
            let names = [PhraseWords.significant(item.displayName), PhraseWords.significant(ParameterInfo.titleCase(item.identifier))]
            let all = names + names.flatMap { synonyms[$0.joined(separator: " ")] ?? [] }
            if let cost = all.compactMap({ PhraseWords.cost(heard, for: $0) }).min() { costs.append((index, cost)) }
        }
        guard let best = costs.map(\.cost).min() else { return [] }
        return costs.filter { $0.cost == best }
    }

    /// The three phrases nearest to what was said, as templates: "Open {shelf} in library".
    func closest(to heard: [String]) -> [String] {
        let ranked = registry.phraseBook.patterns.map { pattern in
            (pattern, pattern.distance(from: heard))
        }.sorted { $0.1.missing != $1.1.missing ? $0.1.missing < $1.1.missing : $0.1.letters < $1.1.letters }
        var seen: Set<String> = []
        return ranked.map { pattern, _ in
            pattern.phrase.filled(applicationName: registry.appShortcuts[pattern.shortcut].applicationName) { "{\($0)}" }
        }.filter { seen.insert($0).inserted }.prefix(3).map { $0 }
    }
}
