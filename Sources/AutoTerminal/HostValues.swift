import AutoIntents
import AutoLanguage
import AutoRuntime
import Foundation
import Synchronization

/// The values Tab offers inside a text, from the host's own query: entities' titles (`open book "Em`) or a text
/// property's values (`where author == "Jane`). Asked under a time budget, so that typing never stalls: a host
/// slower than that simply offers nothing this time.
package enum HostValues {
    package static let budget: Duration = .milliseconds(100)
    /// At most this many are offered.
    package static let limit = 50

    package static func completions(for wanted: ValuesWanted, registry: Registry) -> [Completion] {
        let type: AnyEntityType
        switch wanted.wanted {
        case .entities(let entityType): type = entityType
        case .property(let entityType, index: _): type = entityType
        case .files: return files(startingWith: wanted.typed)
        case .options(let parameter, let arguments, let inText): return options(of: parameter, given: arguments, inText: inText, typed: wanted.typed)
        }
        guard let query = registry.query(for: type), query.canFindByText else { return [] }
        let typed = wanted.typed
        let source: FindRequest.Source = query.canEnumerate ? .all : .matching(typed)
        let found: [Value] = withinBudget { () async throws -> [Value] in
            try await query.run(FindRequest.asReturned(source))
        } ?? []
        var seen = Set<String>()
        var values: [Completion] = []
        for value in found {
            guard case Value.entity(let entity) = value else { continue }
            let text: String
            switch wanted.wanted {
            case .entities: text = entity.display.title
            case .files, .options: continue  // answered above, without a query
            case .property(_, let index):
                guard case .text(let property) = entity.property(index) else { continue }
                text = property
            }
            guard text.lowercased().hasPrefix(typed.lowercased()), seen.insert(text).inserted else { continue }
            // Written as in a text, with the closing quote: the value is whole.
            values.append(Completion(text: String(ValueFormatter.quoted(text).dropFirst()), kind: .value, detail: entity.display.subtitle ?? ""))
            if values.count == limit { break }
        }
        return values.sorted { $0.text < $1.text }
    }

    /// The options a parameter's provider suggests that start with `typed`, in the provider's order (best first):
    /// inside a text, the text options without their opening quote; elsewhere every option as a literal.
    package static func options(of parameter: ParameterInfo, given arguments: [String: Value], inText: Bool, typed: String,
                        budget: Duration = budget) -> [Completion] {
        guard let provider = parameter.options else { return [] }
        let found = withinBudget(budget) { try await provider.options(for: OptionsRequest(arguments: arguments)) } ?? []
        return completions(ofOptions: found, type: parameter.type, inText: inText, typed: typed)
    }

    /// The options that start with `typed`, written for where the cursor is.
    package static func completions(ofOptions found: [Value], type: ValueType, inText: Bool, typed: String) -> [Completion] {
        var seen = Set<String>()
        var values: [Completion] = []
        for value in found {
            let text: String
            if inText {
                guard case .text(let option) = value else { continue }
                text = String(ValueFormatter.quoted(option).dropFirst())
            } else {
                switch value {
                case .text(let option): text = ValueFormatter.quoted(option)
                case .enumCase(let option): text = option.identifier
                case .int, .decimal, .bool: text = ValueFormatter.inline(value)
                default: continue  // no literal writes it (an entity, a date): completion offers it in its text instead
                }
            }
            // A word typed without its quote (`genre: Fa`) still finds "Fantasy", which replaces it.
            let compared = !inText && text.hasPrefix("\"") ? text.dropFirst() : Substring(text)
            guard compared.lowercased().hasPrefix(typed.lowercased()), seen.insert(text).inserted else { continue }
            values.append(Completion(text: text, kind: .value, detail: type.description))
            if values.count == limit { break }
        }
        return values
    }

    /// The files and folders whose path starts with `typed` (a folder's with `/` after it, to go on into it; a
    /// file's with the closing quote). Relative paths are from the working folder; `~/` is the home folder.
    package static func files(startingWith typed: String) -> [Completion] {
        let expanded = typed.hasPrefix("~/") ? NSHomeDirectory() + typed.dropFirst() : typed
        let folder = expanded.hasSuffix("/") ? expanded : (expanded as NSString).deletingLastPathComponent
        let namePrefix = expanded.hasSuffix("/") ? "" : (expanded as NSString).lastPathComponent
        let typedFolder = typed.hasSuffix("/") ? typed : String(typed.dropLast(namePrefix.count))
        guard let entries = try? FileTree.entries(of: folder.isEmpty ? "." : folder) else { return [] }
        let names = entries.map(\.name).filter { $0.hasPrefix(namePrefix) && ($0.hasPrefix(".") == namePrefix.hasPrefix(".")) }
        return names.sorted().prefix(limit).map { name in
            var status = stat()
            let path = (folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name))
            let isFolder = FileCalls.stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
            // Quoted as a literal writes it: a name that isn't UTF-8 is completed with `\xHH` escapes.
            let written = String(ValueFormatter.quoted(typedFolder + name).dropFirst().dropLast())
            return Completion(text: written + (isFolder ? "/" : "\""), kind: .value, detail: isFolder ? "folder" : "file")
        }
    }

    /// Runs `work` and waits for it at most `budget`; nil when it failed or took longer (it is then cancelled).
    package static func withinBudget<T: Sendable>(_ budget: Duration = budget, _ work: @escaping @Sendable () async throws -> T) -> T? {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task.detached {
            if let value = try? await work() { result.withLock { $0 = value } }
            done.signal()
        }
        let nanoseconds = Int(budget.components.seconds) * 1_000_000_000 + Int(budget.components.attoseconds / 1_000_000_000)
        if done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
            task.cancel()
            return nil
        }
        return result.withLock { $0 }
    }
}
