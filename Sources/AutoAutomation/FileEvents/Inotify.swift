import AutoIntents
import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// The inotify calls that can fail for lack of room, behind a seam, so that a test can make them fail as a full
/// system does (ENOSPC, EMFILE) without changing the machine's limits, which would change them for every user.
struct InotifyCalls: Sendable {
    var initialize: @Sendable () -> (descriptor: Int32, error: Int32)
    var addWatch: @Sendable (_ descriptor: Int32, _ path: String, _ mask: UInt32) -> (watch: Int32, error: Int32)

    static let system = InotifyCalls(
        initialize: {
            let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            return (descriptor, descriptor < 0 ? errno : 0)
        },
        addWatch: { descriptor, path, mask in
            let watch = FileNameBytes.withCString(path) { inotify_add_watch(descriptor, $0, mask) }
            return (watch, watch < 0 ? errno : 0)
        })
}

/// One event as read from an inotify descriptor.
struct InotifyRecord: Sendable {
    let watch: Int32
    let mask: UInt32
    /// The name in the watched folder (`FileNameBytes` for one that isn't UTF-8); nil for an event on the folder
    /// itself.
    let name: String?

    func has(_ flags: Int32) -> Bool { mask & UInt32(bitPattern: flags) != 0 }

    /// The events in what one `read` returned. A record cut short (which the kernel never writes) ends the list.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> [InotifyRecord] {
        var records: [InotifyRecord] = []
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= bytes.count {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            guard offset + header + length <= bytes.count else { break }
            // The name is padded with NULs to an aligned length.
            let field = UnsafeRawBufferPointer(rebasing: bytes[(offset + header)..<(offset + header + length)])
            let end = field.firstIndex(of: 0) ?? field.count
            let name = end == 0 ? nil : FileNameBytes.text(UnsafeRawBufferPointer(rebasing: field[..<end]))
            records.append(InotifyRecord(watch: watch, mask: mask, name: name))
            offset += header + length
        }
        return records
    }
}
