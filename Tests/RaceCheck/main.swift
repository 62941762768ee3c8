import AutoSampleHost
import Glibc

// `auto-race`: the concurrent-runs check (ConcurrentRuns) as a program, which CI builds and runs under Thread
// Sanitizer. A mismatch exits with 1; a data race makes the sanitizer's report and exit code 66.
do {
    let (alone, mismatches) = try await ConcurrentRuns.check()
    for mismatch in mismatches { print("mismatch: \(mismatch)") }
    print("\(alone.count) runs at once on one engine, \(mismatches.count) mismatches")
    if !mismatches.isEmpty { exit(1) }
} catch {
    print("auto-race: \(error)")
    exit(1)
}
