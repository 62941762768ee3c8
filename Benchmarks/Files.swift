import Foundation

// The standard library on a tree of files (issue 15): the ten largest .txt files of a tree, beside GNU find and
// Python's os.walk, each a whole process from spawn to exit. The engine's side is `find files`, which tests each file
// as the walk reaches it and keeps the ten largest in a bounded heap.

@Sendable func filesWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    let auto = autoBinary
    let count = options.quick ? 2_000 : 100_000
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("auto-bench-files-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: root) }
    try makeTree(root, files: count)

    let script = "find files in \"\(root)\" recursive where extension == \"txt\" sort by size desc limit 10 | each it.name"
    let python = """
        import heapq, os, sys
        found = []
        for folder, _, names in os.walk(sys.argv[1]):
            for name in names:
                if name.endswith('.txt'):
                    path = os.path.join(folder, name)
                    found.append((os.stat(path).st_size, path))
        for size, path in heapq.nlargest(10, found):
            print(size, path)
        """
    // The same ten files on every side: the largest sizes are unique by construction.
    let expected = try largest(root)
    if let shown = try? run(auto, ["--json", "-e", script]).stdout, !shown.contains(expected.first ?? "?") {
        notes.mismatch("files: the engine's ten largest are not the expected ones: \(shown.prefix(200))")
    }
    // Seven: with three, one slow run of either side on a busy machine decided the verdict. The sides take turns, one
    // run each, so that a slow spell of the machine (they come and go within seconds here) falls on all of them.
    let repetitions = options.quick ? 1 : 7
    let timings = try await alternating(rounds: repetitions, [
        { spawnTimed(auto, ["-e", script], "auto") },
        { spawnTimed("/bin/sh", ["-c", "find '\(root)' -name '*.txt' -printf '%s %p\\n' | sort -rn | head -n 10"], "find") },
        { spawnTimed(anchors.python3, ["-c", python, root], "python3") },
    ])
    let (engine, find, walk) = (timings[0], timings[1], timings[2])
    notes.add("files: a tree of \(count) files in \(count / 1_000) folders, one in ten a .txt of 1–\(count) bytes; the ten largest .txt "
        + "files, a whole process each from spawn to exit (median of \(repetitions), the three sides taking turns): `auto -e 'find files in … recursive where "
        + "extension == \"txt\" sort by size desc limit 10'`, `find … -name '*.txt' -printf '%s %p\\n' | sort -rn | head`, "
        + "and Python's os.walk with os.stat and heapq.")
    return [ResultRow(workload: "ten largest .txt of \(count) files", engine: engine,
                      anchors: [("GNU find, sort and head", find), ("Python 3 os.walk", walk)],
                      goal: Goal(text: "no slower than find", limit: find.milliseconds), scaled: options.quick)]
}

/// `files` files in folders of a thousand; every tenth is a .txt whose size is its number (so the largest are unique).
func makeTree(_ root: String, files: Int) throws {
    for index in 0..<files {
        let folder = "\(root)/d\(index / 1_000)"
        if index % 1_000 == 0 { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let isText = index % 10 == 0
        let path = "\(folder)/f\(index).\(isText ? "txt" : "dat")"
        let size = isText ? max(1, index) : 16
        guard FileManager.default.createFile(atPath: path, contents: Data(count: size)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}

/// The names of the ten largest .txt files, by construction.
func largest(_ root: String) throws -> [String] {
    func number(_ path: String) -> Int { Int(((path as NSString).lastPathComponent as NSString).deletingPathExtension.dropFirst()) ?? 0 }
    let names = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".txt") }
    return names.sorted { number($0) > number($1) }.prefix(10).map { ($0 as NSString).lastPathComponent }
}
