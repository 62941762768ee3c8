import Foundation

/// How much more memory this process may use: the least of the machine's memory, its control group's limit
/// (systemd's `MemoryMax=`, a container's memory limit) and what is left of its address-space limit
/// (`ulimit -v`). A run's values are sized against it (`ValueLimits.defaultMaxBytes`), so that under a tighter
/// limit than the machine's a value too large is still an error before it is built, not an allocation that
/// aborts the process.
enum ProcessMemory {
    static var limit: UInt64 {
        var limit = UInt64(max(sysconf(Int32(_SC_PHYS_PAGES)), 1)) &* pageSize
        if let addressSpace = addressSpaceLeft() { limit = min(limit, addressSpace) }
        for file in controlGroupLimitFiles() {
            // "max" (version 2) or a huge number (version 1) when there is no limit; either way nothing changes.
            if let text = contents(of: file),
               // Not Foundation's `trimmingCharacters`, whose first use costs a scan of every conformance record.
               let bytes = UInt64(text.filter { !$0.isWhitespace }) {
                limit = min(limit, bytes)
            }
        }
        return limit
    }

    /// What the address-space limit leaves, if there is one. It counts memory reserved, not used: each thread's
    /// stack and each of glibc's per-thread heaps (64 MB) count in full, so a debug `auto` in the middle of a run
    /// holds 850 MB of address space while it uses 25 MB. So what is already reserved is taken off, and 256 MB
    /// more for the threads and heaps a run has yet to start.
    private static func addressSpaceLeft() -> UInt64? {
        var addressSpace = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &addressSpace) == 0,
              addressSpace.rlim_cur != rlim_t.max  // RLIM_INFINITY, which Swift does not import
        else { return nil }
        let reserved = (statm(field: 0) ?? 0) &+ (256 << 20)
        return UInt64(addressSpace.rlim_cur) > reserved ? UInt64(addressSpace.rlim_cur) - reserved : 1 << 20
    }

    /// The memory limit files of this process's control group, version 2 and version 1, and those at the root
    /// of the hierarchy this process sees (inside a container, its own group is often only visible as the root).
    private static func controlGroupLimitFiles() -> [String] {
        var files = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        guard let groups = contents(of: "/proc/self/cgroup") else { return files }
        for line in groups.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2] != "/" else { continue }
            if fields[0] == "0" && fields[1].isEmpty {
                files.append("/sys/fs/cgroup\(fields[2])/memory.max")
            } else if fields[1].split(separator: ",").contains("memory") {
                files.append("/sys/fs/cgroup/memory\(fields[2])/memory.limit_in_bytes")
            }
        }
        return files
    }

    /// The bytes of memory this process has resident now, or nil when the kernel doesn't say.
    static func resident() -> UInt64? { statm(field: 1) }

    /// A field of `/proc/self/statm` in bytes: 0 the address space reserved, 1 what is resident.
    private static func statm(field: Int) -> UInt64? {
        guard let fields = contents(of: "/proc/self/statm")?.split(separator: " "), fields.count > field,
              let pages = UInt64(fields[field]) else { return nil }
        return pages &* pageSize
    }

    private static var pageSize: UInt64 { UInt64(max(sysconf(Int32(_SC_PAGESIZE)), 1)) }

    /// A small file of the kernel's, read with read(2): every run reads these before its first statement, and
    /// Foundation's `String(contentsOfFile:)` (with `ProcessInfo` for the machine's memory) took a tenth of a
    /// start-up.
    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
