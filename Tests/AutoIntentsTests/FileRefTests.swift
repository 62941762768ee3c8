import AutoIntents
import Foundation
import Testing

/// A file's name and extension, read from its path by bytes, agree with NSString's path functions (but for "//", whose
/// name NSString gives as "" and FileRef as "/").
@Suite struct FileRefTests {
    @Test(arguments: ["/a/b.txt", "/a/b/", "/", "", "a.tar.gz", ".bashrc", "a.", "dir.d/file", "/x/.hidden.txt", "é.txt", "a//b.md//",
                      "name with spaces.PDF", "/tmp/日本.テキスト",
                      "x/.b", "x/a.", "a.b.", "/x.y/", "x.y/z", "/.", "f12345.txt", "日本.txt/"])
    func nameAndExtensionAsNSStringHasThem(_ path: String) {
        let file = FileRef(path: path)
        #expect(file.name == (path as NSString).lastPathComponent, "name of \(path)")
        #expect(file.pathExtension == (path as NSString).pathExtension, "extension of \(path)")
    }

    @Test func theRootIsNamedSlashHoweverManySlashesWriteIt() {
        #expect(FileRef(path: "//").name == "/" && FileRef(path: "///").pathExtension == "")
    }
}
