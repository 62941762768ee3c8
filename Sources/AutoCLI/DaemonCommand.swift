import AutoTerminal
import ArgumentParser
import AutoAutomation
import Foundation
import Logging

/// `auto daemon SCRIPT|DIR…`: fires the automations of those scripts on time, one line of log per run start and end
/// on standard error, until SIGTERM or SIGINT.
struct DaemonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon", abstract: "Run the automations of scripts (a folder: its .auto files) on their schedules.",
        discussion: """
            Each fire runs once, unattended: a question fails the run, as does a confirmation unless the automation says \
            'confirm automatically'. What a run shows or logs is a line of the daemon's log (standard error), with \
            the run's automation and id. A script that changes is reloaded; an edit that is broken or can't be read \
            (yet) keeps the previous version. \
            SIGTERM or SIGINT stops taking fires and gives the runs going --grace to end.
            """)

    @Argument(help: "Scripts, or folders whose .auto files are scripts.")
    var paths: [String]

    @OptionGroup var store: StoreOption

    @Option(help: "How long runs going may take to end when the daemon stops (e.g. 10s, 2m).")
    var grace: String = "10s"

    @Option(help: "Runs kept per automation.")
    var keep: Int = 1_000

    @Option(name: .customLong("keep-days"), help: "Days successful runs are kept; failures are kept three times as long.")
    var keepDays: Int = 30

    @Option(help: ArgumentHelp("Serve Prometheus metrics (fires, runs by outcome, fire lag, claim time, runs going) at http://ADDRESS/metrics; a port alone is on 127.0.0.1, and port 0 takes a free one, which the log says.",
                               valueName: "HOST:PORT"))
    var metrics: String?

    @Option(help: ArgumentHelp("On a shared store (PostgreSQL): this daemon's name in logs and 'auto automations status'; the host's name by default.",
                               valueName: "name"))
    var node: String?

    @Option(help: ArgumentHelp("On a shared store: how long this daemon's lease lasts. A daemon that dies is taken over this long after its last heartbeat.",
                               valueName: "duration"))
    var lease: String = "10s"

    @OptionGroup(title: "Capabilities") var capabilities: CapabilityOptions

    func validate() throws {
        guard let lease = DurationOption.parse(lease), lease >= .milliseconds(500), lease <= .seconds(3_600) else {
            throw ValidationError("--lease takes a duration from 500ms to 1h, such as 10s")
        }
        if let metrics, MetricsServer.parse(metrics) == nil {
            throw ValidationError("--metrics takes HOST:PORT (127.0.0.1:9464) or a port, not '\(metrics)'")
        }
        guard DurationOption.parse(grace) != nil else { throw ValidationError("--grace takes a duration such as 10s, 500ms or 2m") }
        guard keep > 0, keepDays > 0 else { throw ValidationError("--keep and --keep-days are above zero") }
    }

    func run() async throws {
        LoggingSystem.bootstrap(StreamLogHandler.standardError)
        var logger = Logger(label: "auto.daemon")
        logger.logLevel = .info
        let host = AutoCommandLine.host
        let days = Duration.seconds(keepDays * 86_400)
        let grants = try capabilities.grants()
        var options = Daemon.Options(paths: paths, store: store.location, grace: DurationOption.parse(grace) ?? .seconds(10),
                                     retention: Retention(runsPerAutomation: keep, age: days, failureAge: days * 3), grants: grants)
        options.nodeName = node
        options.version = host.version
        options.cluster = NodeMembership.Timing(lease: DurationOption.parse(lease) ?? .seconds(10))
        var server: MetricsServer?
        if let metrics, let (address, port) = MetricsServer.parse(metrics) {
            do {
                let started = try await MetricsServer(host: address, port: port)
                options.metrics = started.metrics
                logger.info("serving metrics", metadata: ["address": "http://\(started.boundAddress)/metrics"])
                server = started
            } catch {
                Console.standard.writeError("error: \(error)\n")
                throw CommandExit(code: 1)
            }
        }
        do {
            try await Daemon(options: options, compile: { host.compile($0, grants: grants) }, logger: logger).run()
        } catch {
            await server?.close()
            Console.standard.writeError("error: \(error)\n")
            throw CommandExit(code: 1)
        }
        await server?.close()
        throw CommandExit(code: ExitCode.success)
    }
}

/// `--store PATH|URL`, shared by the daemon and `auto automations`.
struct StoreOption: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The run store: a SQLite file, or a PostgreSQL database that several daemons share.",
        discussion: "A path, or postgres://user:password@host:5432/database. Without it, $AUTO_STORE; without that, "
            + "$XDG_STATE_HOME/auto/runs.sqlite.",
        valueName: "path|url"))
    var text: String?

    var location: RunStoreLocation { RunStoreLocation(text) }
}

/// `10s`, `500ms`, `2m`, `1h`, or a number of seconds.
enum DurationOption {
    static func parse(_ text: String) -> Duration? {
        let units: [(String, Int64)] = [("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000)]
        for (suffix, milliseconds) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)), number >= 0, number < 1e9 else { return nil }
            return .milliseconds(Int64(number * Double(milliseconds)))
        }
        return Double(text).flatMap { $0 >= 0 && $0 < 1e9 ? .milliseconds(Int64($0 * 1000)) : nil }
    }
}
