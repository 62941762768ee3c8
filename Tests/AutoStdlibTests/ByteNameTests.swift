import AutoIntents
import AutoTestSupport
import Foundation
import Testing

/// File names are bytes (issue 29, item 6): on the real binary, every file intent and `auto run` handle a name that
/// isn't UTF-8, show it as `\xHH`, and find the same file again from what they showed. The files are made and looked
/// at here by their bytes with the C calls, never through the engine's own conversion.
@Suite struct ByteNameTests {
    /// The test's folder, whose path is `home`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let home: String

    init() throws {
        temporary = try TemporaryFolder("auto-bytes")
        home = try GrantedPath.resolve(temporary.path)
    }

    /// `home/` and `name`'s bytes, NUL-ended, for a C call.
    func cPath(_ name: [UInt8]) -> [CChar] {
        (Array((home + "/").utf8) + name + [0]).map { CChar(bitPattern: $0) }
    }

    func make(_ name: [UInt8], _ contents: String) throws {
        let descriptor = open(cPath(name), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno)!) }
        defer { close(descriptor) }
        _ = Array(contents.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    func makeFolder(_ name: [UInt8]) {
        mkdir(cPath(name), 0o755)
    }

    /// The contents of the file of that name, nil when there is none.
    func contents(_ name: [UInt8]) -> String? {
        let descriptor = open(cPath(name), O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = read(descriptor, &buffer, buffer.count)
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    func exists(_ name: [UInt8]) -> Bool {
        var status = stat()
        return lstat(cPath(name), &status) == 0
    }

    func run(_ script: String, _ flags: [String] = []) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(flags + ["-e", script.replacingOccurrences(of: "HOME", with: home)],
                                           environment: ["HOME": home, "XDG_DATA_HOME": home + "/data"], directory: home)
    }

    static let f80 = Array("f".utf8) + [0x80] + Array(".txt".utf8)

    @Test func aListedNameShowsEscapedAndIsReadAgainFromWhatItShowed() async throws {
        try make(Self.f80, "hello")
        let listed = try await run(#"show list folder "HOME""#)
        #expect(listed.exitCode == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains(#"\#(home)/f\x80.txt"#), "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains("\u{FFFD}"))

        let typed = try await run(#"show read text "HOME/f\x80.txt""#)
        #expect(typed.standardOutput == "hello\n", "\(typed.standardError)")
        let listedThenRead = try await run(#"for f in list folder "HOME" { show f.name; show read text f }"#)
        #expect(listedThenRead.standardOutput == "f\\x80.txt\nhello\n", "\(listedThenRead.standardError)")
        let quoted = try await run(#"show [first(list folder "HOME").name]"#)
        #expect(quoted.standardOutput == "[\"f\\x80.txt\"]\n", "\(quoted.standardError)")
    }

    @Test func jsonWritesTheByteAsAnEscapedStandInThatComesBack() async throws {
        try make(Self.f80, "hello")
        let listed = try await run(#"list folder "HOME""#, ["--json"])
        #expect(listed.standardOutput.contains(#"f\uef80.txt"#), "\(listed.standardOutput)")
        let json = try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String]
        #expect(json?.first.map { FileNameBytes.bytes($0) } == Array((home + "/").utf8) + Self.f80)
    }

    @Test func writeCopyMoveRenameAndMakeFolderUseTheNamesBytes() async throws {
        try make(Self.f80, "hello")
        let result = try await run(#"""
            write text "new" to "HOME/n\xFF.txt"
            copy file "HOME/f\x80.txt" to "HOME/c\x81.txt"
            make folder "HOME/m\x84/d\x85"
            move file "HOME/c\x81.txt" to "HOME/m\x84/d\x85"
            rename file "HOME/m\x84/d\x85/c\x81.txt" to "r\x82.txt"
            show (list folder "HOME/m\x84/d\x85").name
            """#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(contents(Array("n".utf8) + [0xFF] + Array(".txt".utf8)) == "new")
        #expect(contents([0x6D, 0x84, 0x2F, 0x64, 0x85, 0x2F, 0x72, 0x82] + Array(".txt".utf8)) == "hello")
        #expect(!exists(Array("c".utf8) + [0x81] + Array(".txt".utf8)))
        #expect(result.standardOutput == "[\"r\\x82.txt\"]\n")
    }

    @Test func propertiesAndFindFilesReadTheFileOfThatName() async throws {
        try make(Self.f80, "hello")
        let result = try await run(#"""
            set f = first(list folder "HOME")
            show [f.exists, f.kind, f.size]
            show (find files in "HOME" where extension == "txt").name
            """#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "[true, \"file\", 5 bytes]\n[\"f\\x80.txt\"]\n")
    }

    @Test func deletingToTheTrashAndForGood() async throws {
        try make(Self.f80, "hello")
        makeFolder([0x64, 0x86])
        try make([0x64, 0x86, 0x2F, 0x87], "inner")
        let result = try await run(#"delete file "HOME/f\x80.txt"; delete file "HOME/d\x86" permanently: true"#, ["--yes"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(!exists(Self.f80) && !exists([0x64, 0x86]))
        #expect(contents(Array("data/Trash/files/".utf8) + Self.f80) == "hello")
        let info = contents(Array("data/Trash/info/".utf8) + Self.f80 + Array(".trashinfo".utf8)) ?? ""
        #expect(info.contains("Path=\(home)/f%80.txt"), "\(info)")
    }

    @Test func zipAndUnzipKeepTheNames() async throws {
        makeFolder([0x7A, 0x88])
        try make([0x7A, 0x88, 0x2F] + Self.f80, "zipped")
        let result = try await run(#"zip "HOME/z\x88" to: "HOME/a\x83.zip"; unzip "HOME/a\x83.zip" to: "HOME/out""#)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(exists(Array("a".utf8) + [0x83] + Array(".zip".utf8)))
        #expect(contents(Array("out/z".utf8) + [0x88, 0x2F] + Self.f80) == "zipped")
    }

    @Test func aProgramGetsTheNamesBytesAsItsArgument() async throws {
        try make(Self.f80, "hello")
        let result = try await run(#"show (run command "cat" arguments: [first(list folder "HOME").path]).stdout"#)
        #expect(result.standardOutput == "hello\n", "\(result.standardError)")
        // Each argument ends where its bytes end, the NUL that ends it not read past.
        let echoed = try await run(#"show (run command "printf" arguments: ["%s|%s", "a\x80", "b"]).stdout"#)
        #expect(echoed.standardOutput == "a\\x80|b\n", "\(echoed.standardError)")
    }

    /// `auto run` on a script whose name isn't UTF-8, given a file of such a name as its argument: the shell passes
    /// both as bytes.
    @Test func autoRunTakesAScriptAndArgumentsByTheirBytes() throws {
        try make(Array("s".utf8) + [0xFF] + Array(".auto".utf8), "show read text args[0]\n")
        try make(Self.f80, "hello")
        let result = try BinaryRunner.run(["-c", #"exec "$0" run "$(printf '%s/s\377.auto' "$1")" "$(printf '%s/f\200.txt' "$1")""#, BinaryRunner.binary, home],
                                          executable: "/bin/sh", directory: home)
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(result.standardOutput == "hello\n")
        let missing = try BinaryRunner.run(["-c", #"exec "$0" run "$(printf '%s/t\377.auto' "$1")""#, BinaryRunner.binary, home],
                                           executable: "/bin/sh", directory: home)
        #expect(missing.exitCode != 0)
        #expect(missing.standardError.contains(#"t\xFF.auto: no such file"#), "\(missing.standardError)")
    }

    /// A grant given in the shell with the byte itself: the name's own bytes are what is granted, and compared.
    @Test func aConfinedRunWritesUnderItsGrantWhateverTheNamesBytes() throws {
        makeFolder([0x62, 0x89])
        func confined(_ script: String) throws -> BinaryRunner.Result {
            try BinaryRunner.run(["-c", #"exec "$0" --sandbox --allow-read="$1" --allow-write="$(printf '%s/b\211' "$1")" -e "$2""#,
                                  BinaryRunner.binary, home, script.replacingOccurrences(of: "HOME", with: home)],
                                 executable: "/bin/sh", directory: home)
        }
        let inside = try confined(#"write text "x" to "HOME/b\x89/f.txt""#)
        #expect(inside.exitCode == 0, "\(inside.standardError)")
        #expect(contents([0x62, 0x89, 0x2F, 0x66, 0x2E, 0x74, 0x78, 0x74]) == "x")
        let outside = try confined(#"write text "x" to "HOME/f.txt""#)
        #expect(outside.exitCode != 0)
        #expect(outside.standardError.contains(#"b\x89"#), "\(outside.standardError)")
        #expect(!exists(Array("f.txt".utf8)))
    }
}
