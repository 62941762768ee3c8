@testable import AutoAutomation
import AutoLanguage
import Foundation
import Testing

/// The idle daemon gives back the clean pages of the files it has mapped; pages of its own stay.
@Suite struct ExecutablePagesTests {
    @Test func readsEachMappingsBoundsPermissionsPathAndPages() {
        let smaps = """
            55d0a0000000-55d0a2000000 r-xp 00001000 08:01 1234                       /opt/my tools/auto
            Size:              32768 kB
            Rss:                5100 kB
            Anonymous:             0 kB
            VmFlags: rd ex mr mw me
            55d0a2000000-55d0a4000000 rw-p 02001000 08:01 1234                       /opt/my tools/auto
            Rss:                3892 kB
            Anonymous:           448 kB
            7ffd1000-7ffd3000 r-xp 00000000 00:00 0                                  [vdso]
            Rss:                   8 kB
            Anonymous:             0 kB
            """
        let mappings = ExecutablePages.Mapping.all(in: smaps)
        #expect(mappings.count == 3)
        #expect(mappings[0].start == 0x55d0a0000000 && mappings[0].end == 0x55d0a2000000)
        #expect(mappings[0].path == "/opt/my tools/auto", "a path keeps its spaces")
        #expect(!mappings[0].writable && mappings[0].residentKB == 5100 && mappings[0].anonymousKB == 0)
        #expect(mappings[1].writable && mappings[1].anonymousKB == 448)
        #expect(mappings[2].path == "[vdso]")
    }

    /// The test binary's own code is mapped from its file: some of it is given back, and the process goes on
    /// running code from those pages (they come back from the page cache).
    @Test func givesBackCleanPagesAndTheProcessGoesOn() throws {
        let released = ExecutablePages.release()
        #expect(released > 0)
        let smaps = try String(contentsOfFile: "/proc/self/smaps", encoding: .utf8)
        let writable = ExecutablePages.Mapping.all(in: smaps).filter { $0.writable && $0.anonymousKB > 0 }
        #expect(!writable.isEmpty, "the process's own pages are still there")
        // Code on the pages given back still runs.
        let schedule = try CronExpression(parsing: "*/5 9-17 * * mon-fri")
        #expect(schedule.matches(year: 2026, month: 11, day: 24, weekday: 2))
    }
}
