import AutoIntents
import Foundation

/// `find files in FOLDER recursive hidden where … sort by … limit n`: a walk of the folder (`FileTree`) that tests
/// each file as it comes and keeps only what the sort and the limit need. Without a sort the walk stops at the
/// limit; with a sort and a limit a bounded heap keeps the best n, so no list of every file is built; with a sort
/// alone every match is kept and sorted as `sort by` sorts a list. The where-clause and the sort keys read a
/// file's properties exactly as `filter where` and `sort by` do on a list of files, so the two always agree.
enum FileSearch {
    /// `byName` tests what the where-clause asks of a file's name and extension, on the name alone (`split`); `test`
    /// the rest, on the file.
    static func run(_ plan: FileSearchPlan, folder: Value?, limit: Int?, byName: ListQueries.Test? = nil,
                    test: ListQueries.Test?, grants: Grants, limits: ValueLimits) throws(EvaluationError) -> [Value] {
        var tree = FileTree(root: try root(folder, grants: grants), recursive: plan.recursive, hidden: plan.hidden)
        let limit = limit ?? Int.max
        if limit == 0 { return [] }
        var failure: EvaluationError?
        var visited = 0
        let suffix = plan.condition.flatMap(requiredSuffix)
        // The where-clause first, then what the sort and limit keep. Returns false to stop the walk.
        func walk(_ keep: @escaping (Value, Int) throws(EvaluationError) -> Bool) throws(EvaluationError) {
            do {
                try tree.walk { folder, name, _ in
                    visited &+= 1
                    if visited % Interruption.stride == 0 { try Interruption.check() }
                    // A file named by its name alone has the same name and extension: most entries of a large walk are
                    // turned down here, before their paths are built, and by the suffix before they are a value.
                    if let suffix, !Self.name(name, endsWith: suffix) { return true }
                    if let byName, try !byName(.file(FileRef(path: name))) { return true }
                    let file = Value.file(FileRef(path: FileTree.path(of: name, in: folder)))
                    if let test, try !test(file) { return true }
                    return try keep(file, visited)
                }
            } catch let error as EvaluationError {
                throw error
            } catch {
                throw EvaluationError("\(error)")
            }
        }
        var found: [Value] = []
        if plan.sort.isEmpty || limit == Int.max {
            try walk { file, _ throws(EvaluationError) in
                found.append(file)
                if found.count % Interruption.stride == 0 { try limits.checkList(count: found.count) }
                return found.count < limit
            }
            return plan.sort.isEmpty ? found : try ListQueries.sort(found, plan.sort, grants: grants)
        }
        // Sorted and cut here, ties in tree order by their paths: the walk needn't sort each folder's entries by name.
        tree.inNameOrder = false
        var heap = BoundedHeap<(file: Value, keys: [Value], path: String)>(capacity: limit) { a, _, b, _ in
            let c = ListQueries.compare(a.keys, b.keys, plan.sort, failure: &failure)
            return c != 0 ? c < 0 : FileTree.precedesInTree(a.path, b.path)
        }
        try walk { file, position in
            guard case .file(let ref) = file else { return true }
            heap.insert((file, ListQueries.sortValues(of: file, plan.sort, grants: grants), ref.path), position)
            return true
        }
        if let failure { throw failure }
        return heap.sorted().map(\.file)
    }

    /// The last bytes of every name the where-clause takes, when it asks for an extension written as a text of ASCII
    /// letters and digits (`extension == "txt"`, alone or under `and`): `.txt`. A file's extension is the bytes after
    /// the last dot of its name, and a text of those letters equals only the same bytes, but for `K`, which the Kelvin
    /// sign (U+212A) equals: an extension with a `K` gets no suffix. Tested on the name as it comes, this turned down
    /// nine in ten entries of the benchmark's walk before each was a file value to read the extension of.
    static func requiredSuffix(_ condition: ConditionPlan) -> [UInt8]? {
        switch condition {
        case .compare(let path, .equal, let expression):
            guard path.count == 1, case .file(.extension) = path[0], case .constant(.text(let text)) = expression.kind,
                  !text.isEmpty, text.utf8.allSatisfy(isLetterOrDigitButK)
            else { return nil }
            return Array(".\(text)".utf8)
        case .and(let a, let b):
            return requiredSuffix(a) ?? requiredSuffix(b)
        default:
            return nil
        }
    }

    private static func isLetterOrDigitButK(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte != UInt8(ascii: "K")
        default: return false
        }
    }

    /// Whether `name`'s bytes end with `suffix`; true when they can't be read in place (the test then decides).
    static func name(_ name: String, endsWith suffix: [UInt8]) -> Bool {
        name.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.count >= suffix.count && bytes[(bytes.count - suffix.count)...].elementsEqual(suffix)
        } ?? true
    }

    /// The where-clause as two tests: the comparisons, joined by `and`, that read only the file's name or extension
    /// (tested on the name before the walk builds the path), and the rest.
    static func split(_ condition: ConditionPlan) -> (byName: ConditionPlan?, rest: ConditionPlan?) {
        func conjuncts(_ plan: ConditionPlan) -> [ConditionPlan] {
            if case .and(let a, let b) = plan { return conjuncts(a) + conjuncts(b) }
            return [plan]
        }
        func readsNameOnly(_ plan: ConditionPlan) -> Bool {
            switch plan {
            case .compare(let path, _, _):
                guard path.count == 1, case .file(let property) = path[0] else { return false }
                return property == .name || property == .extension
            case .and(let a, let b), .or(let a, let b): return readsNameOnly(a) && readsNameOnly(b)
            case .not(let a): return readsNameOnly(a)
            }
        }
        func joined(_ plans: [ConditionPlan]) -> ConditionPlan? {
            plans.dropFirst().reduce(plans.first) { joined, next in joined.map { .and($0, next) } }
        }
        let all = conjuncts(condition)
        return (joined(all.filter(readsNameOnly)), joined(all.filter { !readsNameOnly($0) }))
    }

    /// The folder to walk, resolved as the file intents resolve theirs (`~`, relative to the current folder, `..` and
    /// links), once the run may read it.
    static func root(_ folder: Value?, grants: Grants) throws(EvaluationError) -> String {
        let path: String
        switch folder {
        case nil: path = "."
        case .file(let file)?: path = file.path
        case .text(let text)?: path = text
        case let other?: throw EvaluationError("'find files in' needs a folder, as a file or a text path, not \(other.type)")
        }
        if path.isEmpty { throw EvaluationError("'find files in' needs a folder, and the path is empty") }
        let root: String
        do {
            root = try GrantedPath.resolve(path)
        } catch {
            throw EvaluationError(error.description)
        }
        guard grants.allows(.read, path: root) else { throw EvaluationError(grants.refusal(.read, "'\(root)'")) }
        var status = stat()
        guard FileCalls.stat(root, &status) == 0 else {
            throw EvaluationError(errno == ENOENT ? "there is no folder '\(root)'" : FileSystemFailure(errno, "read", root).description)
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw EvaluationError("'\(root)' is not a folder") }
        return root
    }
}
