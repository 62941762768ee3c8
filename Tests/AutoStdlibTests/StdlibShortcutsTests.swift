import AutoIntents
import AutoStdlib
import AutoTestSupport
import Foundation
import Testing

/// The standard library's shortcuts (Sources/AutoStdlib/Shortcuts), run by the real `auto` on real folders, with a
/// trash of the test's own.
@Suite struct StdlibShortcutsTests {
    /// The test's folder, whose path is `folder`: removed with everything in it after the test.
    let temporary: TemporaryFolder
    let folder: String

    init() throws {
        temporary = try TemporaryFolder("auto-shortcuts")
        folder = try GrantedPath.resolve(temporary.path)
        try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
        for name in ["a.jpg", "b.PDF", "song.mp3", "IMG_001.png", "IMG_002.png", "data.weird"] {
            try name.write(toFile: folder + "/in/" + name, atomically: true, encoding: .utf8)
        }
    }

    func auto(_ script: String, _ flags: [String] = []) async throws -> BinaryRunner.Result {
        try await BinaryRunner.runAwaiting(flags + ["-e", script.replacingOccurrences(of: "DIR", with: folder)],
                             environment: ["XDG_DATA_HOME": folder + "/data"], directory: folder)
    }

    func tree(_ path: String) throws -> [String] { try FileManager.default.subpathsOfDirectory(atPath: folder + "/" + path).sorted() }

    /// Each file of Shortcuts/ is in the prelude, by its name, in name order, with its text.
    @Test func thePreludeIsTheShortcutsFolder() throws {
        let shortcuts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/AutoStdlib/Shortcuts").standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: shortcuts.path).filter { $0.hasSuffix(".auto") }.sorted()
        #expect(!files.isEmpty)
        #expect(StandardLibrary.prelude.map(\.name) == files.map { "stdlib-intents/" + $0 })
        for (file, embedded) in zip(files, StandardLibrary.prelude) {
            let text = try String(contentsOf: shortcuts.appendingPathComponent(file), encoding: .utf8)
            #expect(embedded.text == text || embedded.text + "\n" == text, "\(file)")
        }
    }

    @Test func tidyFolderSortsFilesByKind() async throws {
        let result = try await auto(#"show count(tidy folder "DIR/in")"#)
        #expect(result.standardOutput == "6\n", "\(result.standardError)")
        #expect(try tree("in") == ["Audio", "Audio/song.mp3", "Documents", "Documents/b.PDF", "Images", "Images/IMG_001.png",
                                   "Images/IMG_002.png", "Images/a.jpg", "Other", "Other/data.weird"])
    }

    @Test func backUpFolderMakesADatedZipAndNeverReplacesOne() async throws {
        let result = try await auto(#"show (back up folder "DIR/in" into: "DIR/backups").name"# + "\n" + #"show (back up folder "DIR/in" into: "DIR/backups").name"#)
        let day = { () -> String in
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: Date())
        }()
        #expect(result.standardOutput == "in \(day).zip\nin \(day) 2.zip\n", "\(result.standardError)")
        #expect(try tree("backups").count == 2)
    }

    @Test func trashOldFilesAsksFirst() async throws {
        let old = Date().addingTimeInterval(-40 * 86_400)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: folder + "/in/a.jpg")
        let refused = try await auto(#"trash old files "DIR/in" days: 30"#)
        #expect(refused.exitCode == 1, "no one to confirm: \(refused.standardError)")
        #expect(refused.standardError.contains("Move 1 files not changed for 30 days to the trash?"), "\(refused.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder + "/in/a.jpg"))
        let confirmed = try await auto(#"show (trash old files "DIR/in" days: 30).name"#, ["--yes"])
        #expect(confirmed.standardOutput == "[\"a.jpg\"]\n", "\(confirmed.standardError)")
        #expect(try tree("data/Trash/files") == ["a.jpg"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/in/a.jpg"))
    }

    @Test func startNoteFillsTheTemplate() async throws {
        try "Title: {title}\nOn {date}\n".write(toFile: folder + "/template.md", atomically: true, encoding: .utf8)
        let result = try await auto(#"show read text (start note "Plans" folder: "DIR/notes" template: "DIR/template.md")"#)
        #expect(result.standardOutput.hasPrefix("Title: Plans\nOn "), "\(result.standardOutput) \(result.standardError)")
        let plain = try await auto(#"show read text (start note "Other" folder: "DIR/notes")"#)
        #expect(plain.standardOutput.hasPrefix("# Other\n\n"), "\(plain.standardError)")
        #expect(try tree("notes").count == 2)
    }

    @Test func renameFilesShowsThePlanAndRefusesClashes() async throws {
        let renamed = try await auto(#"rename files "DIR/in" pattern: "^IMG_(\\d+)" replacement: "photo-$1""#, ["--yes"])
        #expect(renamed.standardOutput == "IMG_001.png → photo-001.png\nIMG_002.png → photo-002.png\n", "\(renamed.standardError)")
        #expect(try tree("in").contains("photo-001.png"))
        let clash = try await auto(#"rename files "DIR/in" pattern: "^photo-.*" replacement: "same""#, ["--yes"])
        #expect(clash.exitCode == 1)
        #expect(clash.standardError.contains("two files would get the same name"), "\(clash.standardError)")
        #expect(try tree("in").contains("photo-002.png"), "nothing was renamed")
    }

    /// `fetch json` (Shortcuts/web.auto) against the web intents' test server.
    @Test func fetchJSONKeepsTheFieldsAsked() async throws {
        try await TestHTTPServer.with { server in
            let list = try await auto(#"show json(fetch json "\#(server.base)/people.json" fields: ["name", "address.city"])"#)
            #expect(list.standardOutput == #"[{"name":"Ann","address.city":"Oslo"},{"name":"Bo","address.city":null}]"# + "\n", "\(list.standardError)")
            let one = try await auto(#"show json(fetch json "\#(server.base)/person.json" fields: ["id", "name"])"#)
            #expect(one.standardOutput == #"{"id":3,"name":"Cy"}"# + "\n", "\(one.standardError)")
            let whole = try await auto(#"show (fetch json "\#(server.base)/person.json").address.city"#)
            #expect(whole.standardOutput == "Lima\n", "\(whole.standardError)")
            let text = try await auto(#"fetch json "\#(server.base)/text""#)
            #expect(text.exitCode == 1)
            #expect(text.standardError.contains("did not answer JSON (its content type: text/plain; charset=utf-8)"), "\(text.standardError)")
            let missing = try await auto(#"fetch json "\#(server.base)/status/404" fields: ["name"]"#)
            #expect(missing.standardError.contains("'\(server.base)/status/404' answered with status 404"), "\(missing.standardError)")
            let sandboxed = try await auto(#"fetch json "\#(server.base)/people.json""#, ["--allow-net=example.org"])
            #expect(sandboxed.standardError.contains("it is not among what --allow-net granted (example.org)"), "\(sandboxed.standardError)")
            #expect(server.paths == ["/people.json", "/person.json", "/person.json", "/text", "/status/404"], "\(server.paths)")
        }
    }
}
