import AutoTestSupport
import Foundation
import Testing

/// A date written as ISO 8601 (`json`, the logs, run histories) is in the machine's zone, with that zone's offset on
/// that date: `Z` at UTC, half hours where the zone has them, and daylight saving time's offset in summer only. The
/// zone is the process's (`TZ`), so each case runs `auto` in a zone of its own.
@Suite struct DateOffsetTests {
    @Test(arguments: [
        ("UTC", #"["2024-07-01T12:00:00Z","2024-01-15T08:30:05Z"]"#),
        ("Asia/Kolkata", #"["2024-07-01T17:30:00+05:30","2024-01-15T14:00:05+05:30"]"#),
        ("America/New_York", #"["2024-07-01T08:00:00-04:00","2024-01-15T03:30:05-05:00"]"#),
    ])
    func jsonDatesCarryTheZonesOffsetOnThatDate(_ zone: String, _ expected: String) async throws {
        let run = try await BinaryRunner.runAwaiting(["-e", #"show json([date("2024-07-01T12:00:00Z"), date("2024-01-15T08:30:05Z")])"#],
                                                     environment: ["TZ": zone])
        #expect(run.exitCode == 0, "\(run.standardError)")
        #expect(run.standardOutput == expected + "\n")
    }
}
