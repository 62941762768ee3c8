import Foundation

// Workload 4: start a process, run `show 1`, exit. Wall time of posix_spawn to waitpid, output to /dev/null.

@Sendable func startWorkload(_ options: Options, _ anchors: Anchors, _ notes: Notes) async throws -> [ResultRow] {
    // The release `auto` binary sits next to this one in .build/release.
    let auto = autoBinary

    /// One untimed start (to warm the page cache), then the median of `options.starts`.
    func starts(_ executable: String?, _ arguments: [String], _ program: String) -> Timing {
        guard let executable, FileManager.default.isExecutableFile(atPath: executable) else { return .notInstalled(program) }
        guard spawnAndWait(executable, arguments) != nil else { return .failed("\(program) exited with an error") }
        var samples: [Double] = []
        for _ in 0..<options.starts {
            guard let elapsed = spawnAndWait(executable, arguments) else { return .failed("\(program) exited with an error") }
            samples.append(elapsed)
        }
        return .milliseconds(median(samples))
    }

    let engine = starts(auto, ["-e", "show 1"], "auto (build it with swift build -c release --product auto)")
    let swift = starts(startFloorBinary, [], "start-floor (build it with swift build -c release --static-swift-stdlib --product start-floor)")
    let lua = starts(anchors.lua, ["-e", "print(1)"], "lua5.4")
    let python = starts(anchors.python3, ["-c", "print(1)"], "python3")
    let floor = starts("/bin/true", [], "/bin/true")
    notes.add("start: median wall time of \(options.starts) runs each, from posix_spawn to waitpid, output to /dev/null, "
        + "after one untimed run; `auto -e 'show 1'` (the release build), `lua5.4 -e 'print(1)'`, `python3 -c 'print(1)'` "
        + "(python3 resolved past any pyenv shim), and `start-floor`, a Swift program that imports Foundation and prints "
        + "one line, built and linked as `auto` is (Benchmarks/StartFloor): issue 35 asks for `auto` within 0.3 ms of it. "
        + "Starting /bin/true, the floor of any process here, takes \(floor.text).")
    return [ResultRow(workload: "start, run show 1, exit", engine: engine,
                      anchors: [("Swift + Foundation, static", swift), ("Lua 5.4 (lua5.4 -e)", lua), ("Python 3 (python3 -c)", python)],
                      goal: .atMost(2, "≤ 2 ms (issue 35)"))]
}
