import AutoLanguage
/// What a file trigger watches: a folder, its folders too when `recursive`, the names that match `glob`, and the
/// kinds of change it wants. Shared by `FileEventWatcher`, `PollingWatcher` and `TreeSnapshot.scan`.
package struct WatchSpec: Sendable, Equatable {
    /// Absolute and already resolved (`~` expanded); trailing slashes are dropped.
    package let folder: String
    /// Folders inside are watched too, as they come and go; links to folders are never entered.
    package let recursive: Bool
    /// Tested on a file's name (not its path); nil: every file. Folders are entered whatever their names.
    package let glob: FileGlob?
    package let kinds: Set<FileEvent.Kind>

    package init(folder: String, recursive: Bool = false, glob: FileGlob? = nil, kinds: Set<FileEvent.Kind> = Set(FileEvent.Kind.allCases)) {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        self.folder = folder
        self.recursive = recursive
        self.glob = glob
        self.kinds = kinds
    }

    /// Whether a file of this name belongs to the watch (a folder's name is never tested).
    func includes(fileNamed name: String) -> Bool {
        glob?.matches(name) ?? true
    }
}
