import CLinux
import Foundation

/// Runs recursive work (parsing, checking, compiling) on a thread with a stack sized for the nesting
/// limits, whatever thread the caller is on: Swift's concurrency threads have small stacks, and a deep
/// but legal script must get a diagnostic or a result, never a crash.
enum LargeStack {
    static let size = 512 << 20

    /// A script this small is compiled on the caller's thread when that has `roomForSmallInput` left (see
    /// `ScriptCompiler.compile`): its syntax tree is at most a few hundred levels deep, so no walk of it needs
    /// more, and starting a thread (and waiting for it) was a tenth of `auto -e 'show 1'`.
    static let smallInput = 1024
    static let roomForSmallInput = 4 << 20

    /// Whether the calling thread's stack has `bytes` left below this frame; false when that can't be told.
    static func currentThreadHasRoom(_ bytes: Int) -> Bool {
        if gettid() == getpid() {
            // The main thread's stack grows up to its limit (`ulimit -s`), and a run compiles near its top. Asked,
            // pthread_getattr_np reads /proc/self/maps to find it.
            var limit = rlimit()
            guard getrlimit(__rlimit_resource_t(RLIMIT_STACK.rawValue), &limit) == 0 else { return false }
            return limit.rlim_cur == rlim_t.max || limit.rlim_cur >= rlim_t(bytes + (1 << 20))
        }
        var attributes = pthread_attr_t()
        guard pthread_getattr_np(pthread_self(), &attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        var lowest: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &lowest, &size) == 0, let lowest else { return false }
        var marker = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let bottom = UInt(bitPattern: lowest)
        return here > bottom && here - bottom >= UInt(bytes)
    }

    /// The work's result, or `fallback`'s when the thread can't be started (under `ulimit -v`, 512 MB of address
    /// space may not be left). The result is moved through memory of its own rather than an optional: destroying an
    /// optional `Result` made its type's metadata at run time, which checks `Failure: Error` by a scan of every
    /// conformance record of the binary, on every compile.
    static func run<T>(_ work: @escaping () -> T, fallback: () -> T) -> T {
        nonisolated(unsafe) let slot = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { slot.deallocate() }
        guard runOnNewThread({ slot.initialize(to: work()) }) else { return fallback() }
        return slot.move()
    }

    /// Runs `body` on a thread of its own and joins it: joining orders what `body` wrote before what the caller
    /// reads, and gives the stack back at once (a detached thread's 512 MB stayed mapped).
    private static func runOnNewThread(_ body: @escaping () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        guard pthread_attr_setstacksize(&attributes, size) == 0 else { return false }
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let started = pthread_create(&thread, &attributes, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return false
        }
        pthread_join(thread, nil)
        return true
    }

    /// The closure, as the one pointer a thread is started with.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
}
