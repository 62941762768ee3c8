@testable import AutoAutomation
import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// Log lines, kept for a test to read.
final class CapturedLog: Sendable {
    let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(log: self) }
    }

    struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String, file: String, function: String, line: UInt) {
            let fields = (metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            log.lines.withLock { $0.append("\(level) \(message) \(fields)") }
        }
    }
}

/// `log line "…"`: as the standard library's `log` writes its line.
struct LogLine: ImmediateIntent {
    static let title = "Log line"
    @Parameter(title: "Message") var message: String
    func performNow(_ context: IntentContext) throws -> IntentResult<NoValue> {
        context.interaction.log(message)
        return .result()
    }
}

/// One fire run unattended and recorded: once only, `it` the scheduled instant, questions and unconfirmed
/// destructive intents failing the run with a reason, the timeout, and a log line at each end.
@Suite struct FireRunnerTests {
    let store: SQLiteRunStore
    /// The store's folder, with its log, shared memory and lock files beside it.
    let folder: TemporaryFolder
    let log = CapturedLog()

    init() throws {
        folder = try TemporaryFolder("auto-fires")
        store = try SQLiteRunStore(path: folder("runs.sqlite"))
    }

    func loaded(_ text: String) throws -> [LoadedAutomation] {
        let compiled = try ScriptCompiler.compile(SourceFile(name: "fires.auto", text: text), registry: SampleLibrary.registry()).get()
        return LoadedAutomation.all(in: compiled, script: "/scripts/fires.auto")
    }

    func fire(_ loaded: LoadedAutomation, at seconds: Double) -> Fire {
        Fire(automation: loaded.key, trigger: loaded.automation.trigger.description, scheduled: Date(timeIntervalSince1970: seconds))
    }

    /// What a run shows or logs (`log`, through `Interaction.log`) is a line of the daemon's log, with the run's
    /// automation and id, not a bare line on standard error. (The real `log` intent under the real daemon:
    /// AutomationsCommandTests.)
    @Test func logAndShowAreLinesOfTheDaemonsLogWithTheRun() async throws {
        var registry = try SampleLibrary.registry()
        try registry.register(LogLine.self)
        let compiled = try ScriptCompiler.compile(SourceFile(name: "fires.auto", text: """
            automation "tick" every hour { show "shown"
              log line "two\\nlines" }
            """), registry: registry).get()
        let automation = try #require(LoadedAutomation.all(in: compiled, script: "/scripts/fires.auto").first)
        let record = try #require(try await FireRunner(store: store, logger: log.logger).run(automation, fire(automation, at: 3_600)))
        #expect(record.outcome == .succeeded, "\(record.message ?? "")")
        let lines = log.lines.withLock { $0 }
        #expect(lines.contains("info shown automation=tick run=\(record.id)"), "\(lines)")
        #expect(lines.contains("notice two\n    lines automation=tick run=\(record.id)"), "\(lines)")
    }

    @Test func aFireRunsOnceWithItAsTheScheduledInstantAndIsRecorded() async throws {
        let automation = try #require(try loaded("automation \"hour\" every hour { add numbers a: it.year b: 1 }").first)
        let runner = FireRunner(store: store, logger: log.logger)
        let scheduled = try #require(DateParsing.parse("2030-06-01 09:00")).timeIntervalSince1970
        let record = try #require(try await runner.run(automation, fire(automation, at: scheduled)))
        #expect(record.outcome == .succeeded && record.automation.name == "hour" && record.trigger == "every 1 hour")
        #expect(try store.steps(of: record.id).map(\.result) == ["2031"])
        #expect(try await runner.run(automation, fire(automation, at: scheduled)) == nil, "a fire never runs twice")
        let lines = log.lines.withLock { $0 }
        #expect(lines.count == 2 && lines[0].hasPrefix("info run started") && lines[1].hasPrefix("info run succeeded"), "\(lines)")
        #expect(lines[1].contains("run=\(record.id)") && lines[1].contains("automation=hour"))
    }

    @Test func aQuestionFailsTheRunSayingNobodyIsThere() async throws {
        let automation = try #require(try loaded("automation \"ask\" every hour { open book }").first)
        let record = try #require(try await FireRunner(store: store, logger: log.logger).run(automation, fire(automation, at: 60)))
        #expect(record.outcome == .failed)
        #expect(record.message?.contains("nobody can answer 'Which book?'") == true, "\(String(describing: record.message))")
        #expect(record.location == "fires.auto:1:31", "where the question was")
        #expect(log.lines.withLock { $0 }.last?.hasPrefix("warning run failed") == true)
    }

    @Test func aDestructiveIntentNeedsConfirmAutomatically() async throws {
        let automations = try loaded("""
            automation "careful" every hour { delete book "Emma" }
            automation "trusting" every hour confirm automatically { delete book "Emma" }
            """)
        let runner = FireRunner(store: store, logger: log.logger)
        let careful = try #require(try await runner.run(automations[0], fire(automations[0], at: 60)))
        #expect(careful.outcome == .failed && careful.message?.contains("confirm automatically") == true, "\(String(describing: careful.message))")
        let trusting = try #require(try await runner.run(automations[1], fire(automations[1], at: 60)))
        #expect(trusting.outcome == .succeeded, "\(String(describing: trusting.message))")
        #expect(log.lines.withLock { $0 }.contains { $0.contains("Deleted Emma") }, "a dialog goes to the log")
    }

    @Test func theTimeoutStopsARun() async throws {
        let automation = try #require(try loaded("automation \"slow\" every hour timeout 100 milliseconds { repeat 1000000000 times { set n = 1 } }").first)
        let record = try #require(try await FireRunner(store: store, logger: log.logger).run(automation, fire(automation, at: 60)))
        #expect(record.outcome == .failed && record.message?.contains("time limit") == true, "\(String(describing: record.message))")
    }
}
