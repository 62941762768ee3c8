import Foundation

/// The pages of the `auto` binary (or a host's) that loading read, given back once the daemon idles.
///
/// A start touches code and metadata all over a large static binary, and the kernel maps 64 KB around each page
/// touched: an idle daemon held 28 MB of its own binary's pages, more than all its automations. Those pages are
/// clean copies of the file, in the page cache; unmapping them from this process loses nothing, and the ones a
/// later fire needs come back from the page cache on first use (minor faults, no disk read).
enum ExecutablePages {
    /// Unmaps the executable's read-only mappings that hold no page of the process's own (`Anonymous: 0 kB` in
    /// `/proc/self/smaps`): relocated data (RELRO) has such pages and keeps them, writable data is never touched.
    /// Returns the bytes given back from the resident set.
    @discardableResult
    static func release() -> Int {
        guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return 0 }
        var released = 0
        // A file's path starts with a slash; `[vdso]`, `[stack]` and the heap are the kernel's or the process's own.
        for mapping in Mapping.all(in: smaps) where mapping.path.hasPrefix("/") && !mapping.writable && mapping.anonymousKB == 0 {
            if madvise(UnsafeMutableRawPointer(bitPattern: mapping.start), mapping.end - mapping.start, MADV_DONTNEED) == 0 {
                released += mapping.residentKB * 1024
            }
        }
        return released
    }

    /// One mapping of `/proc/self/smaps`: its header line and the fields that follow it.
    struct Mapping {
        var start = 0, end = 0
        var writable = true
        var path = ""
        var residentKB = 0
        var anonymousKB = -1

        /// Each mapping starts with `start-end perms offset device inode [path]`; a field line starts with its name.
        static func all(in smaps: String) -> [Mapping] {
            var mappings: [Mapping] = []
            for line in smaps.split(separator: "\n") {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let first = fields.first else { continue }
                if first.hasSuffix(":") {
                    guard !mappings.isEmpty, fields.count >= 2, let kilobytes = Int(fields[1]) else { continue }
                    if first == "Rss:" { mappings[mappings.count - 1].residentKB = kilobytes }
                    if first == "Anonymous:" { mappings[mappings.count - 1].anonymousKB = kilobytes }
                    continue
                }
                let bounds = first.split(separator: "-")
                guard bounds.count == 2, fields.count >= 5, let start = Int(bounds[0], radix: 16), let end = Int(bounds[1], radix: 16)
                else { continue }
                // The path is the rest of the line after the inode; it may hold spaces.
                let path = fields.count > 5 ? fields[5...].joined(separator: " ") : ""
                mappings.append(Mapping(start: start, end: end, writable: fields[1].contains("w"), path: path))
            }
            return mappings
        }
    }
}
