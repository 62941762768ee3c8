import AutoIntents
import CLinux
import Dispatch
import Foundation
import Synchronization

/// Changes to files in some folders, from inotify: a file written and closed, created, moved in or out, deleted.
/// Folders are watched rather than files, so that an editor that saves by writing a new file and renaming it over
/// the old one is seen too. When the kernel's queue overflows, `changed` gets every folder instead of names.
/// Unchecked: its properties are set once, in `init`, and a dispatch source may be cancelled from any thread.
package final class FileWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let folders: [Int32: String]
    private let source: any DispatchSourceRead

    /// What a change calls: the paths that changed (or the folders themselves, after an overflow).
    package typealias Handler = @Sendable ([String]) -> Void

    package struct WatchError: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    package init(folders paths: [String], queue: DispatchQueue = DispatchQueue(label: "auto.file-watcher"), changed: @escaping Handler) throws(WatchError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw WatchError(description: FileWatchError.failed(errno, paths.first ?? "/").description) }
        var folders: [Int32: String] = [:]
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        for path in Set(paths) {
            let watch = FileNameBytes.withCString(path) { inotify_add_watch(descriptor, $0, mask) }
            guard watch >= 0 else {
                let code = errno
                close(descriptor)
                throw WatchError(description: FileWatchError.failed(code, path).description)
            }
            folders[watch] = path
        }
        self.descriptor = descriptor
        self.folders = folders
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        self.source = source
        let known = folders
        source.setEventHandler {
            let paths = Self.readEvents(descriptor, folders: known)
            if !paths.isEmpty { changed(paths) }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit {
        source.cancel()
    }

    /// The paths named by the events waiting: `folder/name`, or every folder when events were lost.
    static func readEvents(_ descriptor: Int32, folders: [Int32: String]) -> [String] {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var paths: [String] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            var offset = 0
            while offset + 16 <= count {
                let (watch, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                offset += 16 + length
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    paths += folders.values
                    continue
                }
                guard let folder = folders[watch] else { continue }
                paths.append(nameBytes.isEmpty ? folder : folder + "/" + FileNameBytes.text(nameBytes))
            }
        }
        return paths
    }
}
