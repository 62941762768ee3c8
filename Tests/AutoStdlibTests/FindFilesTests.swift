import AutoIntents
import AutoLanguage
@testable import AutoRuntime
import AutoTestSupport
import Foundation
import Synchronization
import Testing

/// `find files in FOLDER recursive hidden where … sort by … limit n` on a real tree in a temporary folder.
@Suite struct FindFilesTests {
    /// The test's folder, whose path is `folder`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let folder: String

    init() throws {
        temporary = try TemporaryFolder("auto-find")
        folder = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: folder + "/Downloads/old", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder + "/Downloads/.cache", withIntermediateDirectories: true)
        // Four PDFs of different sizes and ages, one in a folder inside, one hidden; a text; a small PDF.
        let files: [(String, Int, TimeInterval)] = [
            ("Downloads/report.pdf", 3_000_000, 100), ("Downloads/invoice.pdf", 1_500_000, 300), ("Downloads/tiny.pdf", 10, 400),
            ("Downloads/old/2019.pdf", 2_000_000, 500), ("Downloads/.cache/cached.pdf", 4_000_000, 600), ("Downloads/notes.txt", 5, 50),
        ]
        for (path, size, age) in files {
            FileManager.default.createFile(atPath: folder + "/" + path, contents: Data(count: size))
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: folder + "/" + path)
        }
    }

    func run(_ text: String, grants: Grants = .all) async -> ScriptOutcome {
        await EngineHarness.run(text.replacingOccurrences(of: "DIR", with: folder), registry: try! stdlibRegistry(), grants: grants)
    }

    @Test func theIssuesExampleFindsTheNewestLargePDFsOfTheFolderOnly() async {
        let outcome = await run("""
            show (find files in "DIR/Downloads" where extension == "pdf" and size > 1 MB sort by modified desc limit 5).name
            show (find files in "DIR/Downloads" recursive where extension == "pdf" and size > 1 MB sort by modified desc limit 5).name
            show (find files in "DIR/Downloads" recursive hidden where extension == "pdf" sort by size desc limit 2).name
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == [#"["report.pdf", "invoice.pdf"]"#, #"["report.pdf", "invoice.pdf", "2019.pdf"]"#,
                                   #"["cached.pdf", "report.pdf"]"#], "recursive and hidden only when asked")
    }

    @Test func withoutASortFilesComeInTreeOrderAsListFolderGivesThem() async {
        let outcome = await run("""
            show (find files in "DIR/Downloads" recursive hidden).path == (list folder "DIR/Downloads" recursive: true hidden: true).path
            show (find files in "DIR/Downloads" recursive).name
            show (find files in "DIR/Downloads" recursive limit 2).name
            show (find files in "DIR/Downloads" where kind == "folder").name
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["true", #"["invoice.pdf", "notes.txt", "old", "2019.pdf", "report.pdf", "tiny.pdf"]"#,
                                   #"["invoice.pdf", "notes.txt"]"#, #"["old"]"#])
    }

    /// `where extension == "…"` turns names down by their last bytes first (`FileSearch.requiredSuffix`): it must find
    /// what filtering the folder's listing finds, for names that end almost so, and for the Kelvin sign, which equals K.
    @Test(arguments: ["txt", "TXT", "K", "k", "tx"])
    func anExtensionFindsWhatFilteringTheListingFinds(_ wanted: String) async throws {
        let odd = folder + "/odd"
        try FileManager.default.createDirectory(atPath: odd + "/folder.txt", withIntermediateDirectories: true)
        for name in ["a.txt", "b.TXT", ".txt", "c.txt.bak", "d.tx", "etxt", "f.", "g.K", "h.\u{212A}", "i.k", "j.Txt", "k.tx.txt"] {
            FileManager.default.createFile(atPath: odd + "/" + name, contents: Data())
        }
        let outcome = await run("""
            set found = (find files in "DIR/odd" hidden where extension == "\(wanted)").name
            set filtered = (list folder "DIR/odd" hidden: true | filter where extension == "\(wanted)").name
            show found
            show found == filtered
            show (find files in "DIR/odd" hidden where extension == "\(wanted)" or name == "etxt").name == (list folder "DIR/odd" hidden: true | filter where extension == "\(wanted)" or name == "etxt").name
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output.dropFirst() == ["true", "true"], "\(outcome.output)")
        let expected: [String: String] = [
            "txt": #"["a.txt", "folder.txt", "k.tx.txt"]"#, "TXT": #"["b.TXT"]"#, "K": #"["g.K", "h.\#u{212A}"]"#, "k": #"["i.k"]"#,
            "tx": #"["d.tx"]"#,
        ]
        #expect(outcome.output.first == expected[wanted])
    }

    @Test func theCurrentFolderWhenNoFolderIsNamed() throws {
        let outcome = try BinaryRunner.run(["-e", "show (find files).name"], directory: folder + "/Downloads/old")
        #expect(outcome.standardOutput == "[\"2019.pdf\"]\n", "\(outcome.standardError)")
    }

    @Test func aLinkLoopIsListedNotEnteredAndOddNamesAreFound() async throws {
        try FileManager.default.createSymbolicLink(atPath: folder + "/Downloads/old/up", withDestinationPath: folder + "/Downloads")
        for name in ["with space.pdf", "-dash.pdf", "new\nline.pdf"] {
            FileManager.default.createFile(atPath: folder + "/Downloads/old/" + name, contents: Data("x".utf8))
        }
        // A name that is not UTF-8 is listed with its byte as `\xFF`, and its size is read from the file of that name.
        let bytes: [UInt8] = Array((folder + "/Downloads/old/bad").utf8) + [0xFF, 0]
        let descriptor = bytes.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(descriptor >= 0)
        close(descriptor)
        let outcome = await run("""
            show (find files in "DIR/Downloads" recursive where kind == "link").name
            show (find files in "DIR/Downloads/old" recursive where size < 10 bytes and kind == "file" sort by name).name
            show (find files in "DIR/Downloads/old").name
            """)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output.first == #"["up"]"#, "the link is listed once and not followed: \(outcome.output)")
        #expect(outcome.output.dropFirst().first == #"["-dash.pdf", "bad\xFF", "new\nline.pdf", "with space.pdf"]"#, "\(outcome.output)")
        #expect(outcome.output.last?.contains(#""bad\xFF""#) == true, "\(outcome.output)")
    }

    @Test func wrongFoldersAndGrantsAreClearErrors() async {
        let missing = await run(#"find files in "DIR/nothing""#)
        #expect(missing.standardError.contains("there is no folder '\(folder)/nothing'"), "\(missing.standardError)")
        let file = await run(#"find files in "DIR/Downloads/notes.txt""#)
        #expect(file.standardError.contains("'\(folder)/Downloads/notes.txt' is not a folder"), "\(file.standardError)")
        let elsewhere = Grants(read: .only([folder + "/Downloads/old"]))
        let refused = await run(#"find files in "DIR/Downloads""#, grants: elsewhere)
        #expect(refused.standardError.contains("'\(folder)/Downloads' is outside what --allow-read granted"), "\(refused.standardError)")
        let throughDots = await run(#"find files in "DIR/Downloads/old/..""#, grants: elsewhere)
        #expect(throughDots.standardError.contains("'\(folder)/Downloads' is outside what --allow-read granted"), "\(throughDots.standardError)")
        let granted = await run(#"show (find files in "DIR/Downloads/old").name"#, grants: elsewhere)
        #expect(granted.output == [#"["2019.pdf"]"#], "\(granted.standardError)")
        let typed = await run(#"find files in 3"#)
        #expect(typed.standardError.contains("'in' needs a folder"), "\(typed.standardError)")
        let entity = await run(#"find widgets in "DIR""#)
        #expect(entity.exitCode != 0)
    }

    @Test func aLimitStopsTheWalkUnlessASortNeedsEveryFile() throws {
        for index in 0..<200 { FileManager.default.createFile(atPath: folder + "/Downloads/old/\(index).txt", contents: Data(count: index)) }
        let tested = Atomic<Int>(0)
        let test: @Sendable (Value) -> Bool = { _ in
            tested.add(1, ordering: .relaxed)
            return true
        }
        let unsorted = FileSearchPlan(folder: nil, recursive: false, hidden: false, condition: nil, sort: [], limit: nil)
        let first = try FileSearch.run(unsorted, folder: .text(folder + "/Downloads/old"), limit: 3, test: test, grants: .all, limits: ValueLimits())
        #expect(first.count == 3 && tested.load(ordering: .relaxed) == 3, "the walk stopped at the third match")

        tested.store(0, ordering: .relaxed)
        let bySize = FileSearchPlan(folder: nil, recursive: false, hidden: false, condition: nil,
                                    sort: [SortPlan(path: [.file(.size)], descending: true)], limit: nil)
        let largest = try FileSearch.run(bySize, folder: .text(folder + "/Downloads/old"), limit: 3, test: test, grants: .all, limits: ValueLimits())
        #expect(tested.load(ordering: .relaxed) == 201, "a sort reads every file")
        #expect(largest.map { value -> String in if case .file(let file) = value { return file.name }; return "" } == ["2019.pdf", "199.txt", "198.txt"])
    }

    /// With a sort and a limit, the walk takes each folder as the file system lists it and the kept files are ordered
    /// by their paths: ties come out in tree order as they do without a limit (`d/x` before `d-x`, which `/` below `-`
    /// in the bytes of the path would get wrong).
    @Test func tiesUnderALimitComeInTreeOrderThoughFoldersAreNotSorted() async throws {
        let root = folder + "/ties"
        for name in ["d", "d-x", "d.x", "b", "a b"] { try FileManager.default.createDirectory(atPath: root + "/" + name, withIntermediateDirectories: true) }
        for path in ["d/x", "d/a", "d-x/x", "d.x/x", "b/z", "a b/y", "c", "d0", "A", "é"] {
            FileManager.default.createFile(atPath: root + "/" + path, contents: Data(count: 7))
        }
        let all = await run(#"show (find files in "DIR/ties" recursive sort by size desc).path"#)
        let limited = await run(#"show (find files in "DIR/ties" recursive sort by size desc limit 100).path"#)
        #expect(all.exitCode == 0 && limited.exitCode == 0, "\(all.standardError)\(limited.standardError)")
        #expect(limited.output == all.output)
        let three = await run(#"show (find files in "DIR/ties" recursive where name != "A" sort by size limit 3).name"#)
        #expect(three.output == [#"["y", "z", "c"]"#])
        // The rule itself, against a walk in order of name.
        var walked: [String] = []
        try FileTree(root: root, recursive: true, hidden: false).walk { folder, name, _ in
            walked.append(FileTree.path(of: name, in: folder))
            return true
        }
        #expect(walked.count == 15)
        #expect(zip(walked, walked.dropFirst()).allSatisfy { FileTree.precedesInTree($0, $1) && !FileTree.precedesInTree($1, $0) })
    }
}
