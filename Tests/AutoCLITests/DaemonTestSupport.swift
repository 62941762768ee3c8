import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// What the tests of the real `auto daemon` share: the runs its store holds, and waiting for something in the store,
/// the log or the file system.
enum DaemonTestSupport {
    /// The runs recorded in `store` so far, of one automation or all, newest first; none while the store doesn't
    /// exist yet.
    static func runs(in store: String, of name: String? = nil) -> [RunRecord] {
        guard FileManager.default.fileExists(atPath: store), let opened = try? SQLiteRunStore(path: store) else { return [] }
        return (try? opened.runs(of: name, limit: 100_000)) ?? []
    }

    /// Waits for `condition`, with a generous deadline, sleeping between looks without holding a thread of the shared
    /// pool. When it never holds, the failure shows `detail` and the daemon's exit status and log.
    static func waitUntil(_ what: String, of process: ChildProcess?, timeout: Duration, detail: () -> String = { "" },
                          _ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                let log = process.map {
                    "\nexit status: \($0.waitForExit(timeout: .zero).map(String.init) ?? "running")\nlog:\n\($0.standardError.suffix(4_000))"
                }
                Issue.record("never: \(what)\(detail())\(log ?? "")")
                return
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}
