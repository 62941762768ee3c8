import Foundation

/// Runs recursive work (parsing, checking, compiling) on a thread with a stack sized for the nesting
/// limits, whatever thread the caller is on: Swift's concurrency threads have small stacks, and a deep
/// but legal script must get a diagnostic or a result, never a crash.
enum LargeStack {
    static let size = 512 << 20

    static func run<T>(_ work: @escaping () -> T) -> T {
        nonisolated(unsafe) var result: T?
        nonisolated(unsafe) let body = work
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.stackSize = size
        thread.start()
        done.wait()
        return result!
    }
}
