import AutoAutomation
import AutoTestSupport
import Foundation
import Testing

/// `auto daemon --metrics`: the real daemon serves its fires and runs, by automation and outcome, to a Prometheus
/// scrape on 127.0.0.1; a bad address is refused before it starts.
@Suite(.serialized) final class DaemonMetricsTests {
    let folder: TemporaryFolder
    var store: String { folder("runs.sqlite") }
    var script: String { folder("jobs.auto") }

    init() throws {
        folder = try TemporaryFolder("auto-metrics")
    }

    /// One HTTP/1.1 request to 127.0.0.1:`port`, read to the end (the server closes after `Connection: close`).
    static func get(_ path: String, port: Int) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return nil }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        guard write(fd, request, request.count) == request.count else { return nil }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            response += buffer[..<count]
        }
        return String(decoding: response, as: UTF8.self)
    }

    /// The value of a sample line `name{labels} value`, when the scrape has it.
    static func sample(_ line: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(line + " ") }.flatMap { Double($0.dropFirst(line.count + 1)) }
    }

    @Test func fireAndRunCountsReachAScrape() async throws {
        try """
            automation "tick" every 1 second { show 1 }
            automation "boom" every 1 second { fail "no paper" }
            """.write(toFile: script, atomically: true, encoding: .utf8)
        let process = try ChildProcess(BinaryRunner.binary, ["daemon", script, "--store", store, "--grace", "5s", "--metrics", "0"])
        #expect(process.waitForError { $0.contains("daemon started") }, "\(process.standardError)")
        let log = process.standardError
        let port = try #require(log.range(of: #"http://127\.0\.0\.1:[0-9]+/metrics"#, options: .regularExpression)
            .flatMap { Int(log[$0].dropFirst("http://127.0.0.1:".count).dropLast("/metrics".count)) }, "\(log)")
        var scrape = ""
        await DaemonTestSupport.waitUntil("a success and a failure counted", of: process, timeout: .seconds(60), detail: { "\n\(scrape)" }) {
            scrape = Self.get("/metrics", port: port) ?? ""
            return (Self.sample(#"auto_runs_total{automation="tick",outcome="succeeded"}"#, in: scrape) ?? 0) >= 1
                && (Self.sample(#"auto_runs_total{automation="boom",outcome="failed"}"#, in: scrape) ?? 0) >= 1
        }
        #expect(scrape.hasPrefix("HTTP/1.1 200 OK\r\n") && scrape.contains("Content-Type: text/plain; version=0.0.4"), "\(scrape)")
        #expect((Self.sample(#"auto_fires_total{automation="tick",kind="scheduled"}"#, in: scrape) ?? 0) >= 1, "\(scrape)")
        for histogram in ["auto_fire_lag_seconds", "auto_claim_seconds", "auto_run_seconds"] {
            #expect(scrape.contains("# TYPE \(histogram) histogram") && (Self.sample("\(histogram)_count", in: scrape) ?? 0) >= 1, "\(scrape)")
        }
        #expect(scrape.contains("# TYPE auto_runs_running gauge"), "\(scrape)")
        // The counts are the store's: as many runs of 'tick' succeeded as the scrape said, or more since.
        let stored = DaemonTestSupport.runs(in: store, of: "tick").filter { $0.outcome == .succeeded }.count
        #expect(Double(stored) >= Self.sample(#"auto_runs_total{automation="tick",outcome="succeeded"}"#, in: scrape) ?? .infinity)
        #expect(Self.get("/other", port: port)?.hasPrefix("HTTP/1.1 404") == true)
        process.signal(SIGTERM)
        #expect(process.waitForExit(timeout: .seconds(60)) == 0, "\(process.standardError)")
        #expect(Self.get("/metrics", port: port) == nil, "the port is closed once the daemon stops")
    }

    @Test func anAddressThatCantBeServedIsRefused() throws {
        try "automation \"tick\" every 1 hour { show 1 }\n".write(toFile: script, atomically: true, encoding: .utf8)
        let malformed = try BinaryRunner.run(["daemon", script, "--store", store, "--metrics", "localhost:http"])
        #expect(malformed.exitCode == 64 || malformed.exitCode == 2, "\(malformed.exitCode)")
        #expect(malformed.standardError.contains("--metrics takes HOST:PORT (127.0.0.1:9464) or a port, not 'localhost:http'"), "\(malformed.standardError)")
        // A port another program holds: the daemon says so and does not start.
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(holder, $0, length) == 0 && listen(holder, 1) == 0 && getsockname(holder, $0, &length) == 0 }
        }
        try #require(bound)
        let taken = try BinaryRunner.run(["daemon", script, "--store", store, "--metrics", "127.0.0.1:\(UInt16(bigEndian: address.sin_port))"])
        #expect(taken.exitCode == 1)
        #expect(taken.standardError.contains("can't serve metrics on 127.0.0.1:"), "\(taken.standardError)")
    }
}
