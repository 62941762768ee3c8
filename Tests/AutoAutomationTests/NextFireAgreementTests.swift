@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Logging
import Testing

/// Issue 31's "done when": what `auto automations list` and `next` say (`Schedules.next`, from the store's cursor)
/// and what the daemon's scheduler fires agree, for every trigger kind, over a simulated day and a half — across
/// Berlin's spring-forward night, with the daemon down for 100 minutes in the middle.
@Suite struct NextFireAgreementTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// 2026-03-28 23:30 in Berlin (CET): the clocks there go from 02:00 to 03:00 at 2026-03-29T01:00Z.
    static let start = Date(timeIntervalSince1970: 1_774_737_000)
    static let end = start.addingTimeInterval(30 * 3_600)
    static let script = """
        automation "poll" every 7 minutes { show 1 }
        automation "two hourly" every 2 hours catch up { show 1 }
        automation "morning" every day at 07:30 { show 1 }
        automation "in the gap" every day at 02:30 { show 1 }
        automation "weekend" every saturday, sunday at 09:15 catch up { show 1 }
        automation "thirds" cron "*/20 * * * *" { show 1 }
        automation "new york" cron "30 2 * * *" in "America/New_York" { show 1 }
        automation "once" at "2026-03-29 14:00" { show 1 }
        automation "files" when file created in "/nonexistent/inbox" { show 1 }
        """

    let store: SQLiteRunStore
    /// The store's folder, with its log, shared memory and lock files beside it.
    let folder: TemporaryFolder
    let automations: [(loaded: LoadedAutomation, schedule: (any FireSchedule)?)]

    init() throws {
        folder = try TemporaryFolder("auto-agree")
        store = try SQLiteRunStore(path: folder("runs.sqlite"))
        let compiled = try ScriptCompiler.compile(SourceFile(name: "s.auto", text: Self.script), registry: try SampleLibrary.registry()).get()
        automations = try LoadedAutomation.all(in: compiled, script: "/s.auto").map { loaded in
            (loaded, try Schedules.schedule(for: loaded.automation.trigger, zone: Self.berlin))
        }
    }

    func scheduler(_ clock: TestClock) -> Scheduler {
        Scheduler(store: store, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
    }

    /// What `list` and `next` say at `now`, for each automation.
    func predictions(at now: Date) throws -> [AutomationKey: NextFire] {
        var predicted: [AutomationKey: NextFire] = [:]
        for (loaded, schedule) in automations {
            predicted[loaded.key] = Schedules.next(of: loaded.automation.trigger, schedule: schedule, cursor: try store.cursor(of: loaded.key), now: now)
        }
        return predicted
    }

    /// `next SCRIPT NAME -n count` at `now`: the first fire, then the schedule's.
    func nextFires(_ count: Int, at now: Date) throws -> [AutomationKey: [Date]] {
        var fires: [AutomationKey: [Date]] = [:]
        for (loaded, schedule) in automations {
            guard let schedule, case .at(var instant) = try predictions(at: now)[loaded.key] else { continue }
            var list = [instant]
            while list.count < count, let next = schedule.nextFire(after: instant), next <= Self.end {
                list.append(next)
                instant = next
            }
            fires[loaded.key] = list.filter { $0 <= Self.end }
        }
        return fires
    }

    func scheduled(_ key: AutomationKey) throws -> [RunRecord] {
        try store.runs(of: key.name, limit: 10_000).filter { $0.automation == key }.reversed()
    }

    /// Moves the clock from fire to fire until `until`: before each, what `list` says must be what the scheduler
    /// waits for, and the fires that come must be exactly those predicted for that instant.
    func fireFromPredictions(_ scheduler: Scheduler, _ clock: TestClock, until: Date) async throws {
        while true {
            let now = clock.now()
            let predicted = try predictions(at: now)
            let waitedFor = Dictionary(uniqueKeysWithValues: await scheduler.nextFires().map { ($0.key, $0.next) })
            for (loaded, _) in automations {
                switch predicted[loaded.key] {
                case .at(let instant): #expect(waitedFor[loaded.key] == instant, "\(loaded.key.name) at \(now)")
                case .never, .onFileEvents: #expect(waitedFor[loaded.key] as Date?? == .some(nil), "\(loaded.key.name) at \(now)")
                case .afterLoad, nil: Issue.record("\(loaded.key.name) has no cursor under a daemon")
                }
            }
            let instants = predicted.values.compactMap { if case .at(let instant) = $0 { instant } else { nil } }
            guard let earliest = instants.min(), earliest <= until else { return }
            let before = try Dictionary(uniqueKeysWithValues: automations.map { ($0.loaded.key, try scheduled($0.loaded.key).count) })
            await clock.advance(to: earliest.timeIntervalSince1970)
            await scheduler.settled()
            for (loaded, _) in automations {
                let runs = try scheduled(loaded.key).dropFirst(before[loaded.key] ?? 0)
                if predicted[loaded.key] == .at(earliest) {
                    #expect(runs.map(\.scheduled) == [earliest] && runs.allSatisfy { $0.outcome == .succeeded },
                            "\(loaded.key.name) fires at \(earliest) as predicted")
                } else {
                    #expect(runs.isEmpty, "\(loaded.key.name) fired at \(earliest), unpredicted")
                }
            }
        }
    }

    @Test func listNextAndTheSchedulerAgreeOverADayAndAHalfForEveryTrigger() async throws {
        let keys = Dictionary(uniqueKeysWithValues: automations.map { ($0.loaded.key.name, $0.loaded.key) })
        let poll = try #require(keys["poll"]), files = try #require(keys["files"])
        // Before any daemon: `every 7 minutes` counts from when one loads it; the others are known already.
        let before = try predictions(at: Self.start)
        #expect(before[poll] == .afterLoad(.seconds(420)))
        #expect(before[files] == .onFileEvents)
        #expect(before[try #require(keys["thirds"])] == .at(Self.start.addingTimeInterval(10 * 60)), "23:40 in Berlin")

        let clock = TestClock(Self.start.timeIntervalSince1970)
        let first = scheduler(clock)
        try await first.start()
        try await first.load(automations.map { ($0.loaded, $0.schedule) })
        await first.settled()
        #expect(try store.cursor(of: poll) == Self.start, "loading starts the cursor, in the store")
        #expect(try predictions(at: Self.start)[poll] == .at(Self.start.addingTimeInterval(420)))
        // What `next -n 500` says now is every fire of the day and a half, skipped ones included.
        let planned = try nextFires(500, at: Self.start)
        #expect(planned[try #require(keys["in the gap"])]?.first == Date(timeIntervalSince1970: 1_774_746_000),
                "02:30 in the gap fires at 03:00 CEST, when the gap ends")

        let down = Self.start.addingTimeInterval(13 * 3_600)
        try await fireFromPredictions(first, clock, until: down)
        // A file fire: `list` still says "on file events", and its last run is this one.
        #expect(try await first.deliver(FileFire(files: ["/nonexistent/inbox/a.pdf"], states: [nil]), to: files))
        await first.settled()
        #expect(try store.lastRun(of: files)?.files == ["/nonexistent/inbox/a.pdf"])
        await first.stop(grace: .seconds(5))

        // Down for 100 minutes: what `list` says meanwhile is what the next daemon records as missed, or catches up.
        var missed: [AutomationKey: [Date]] = [:]
        let up = down.addingTimeInterval(100 * 60)
        var now = down
        while true {
            let due = try predictions(at: now).compactMap { key, next -> (AutomationKey, Date)? in
                if case .at(let instant) = next, instant <= up, instant > now { (key, instant) } else { nil }
            }
            guard let earliest = due.map(\.1).min() else { break }
            for (key, instant) in due where instant == earliest { missed[key, default: []].append(instant) }
            // Nothing records a fire while no daemon runs: the cursor stays, and `list` moves on with the clock.
            now = earliest
        }
        let beforeRestart = try Dictionary(uniqueKeysWithValues: automations.map { ($0.loaded.key, try scheduled($0.loaded.key).count) })
        await clock.set(to: up.timeIntervalSince1970)
        let second = scheduler(clock)
        try await second.start()
        try await second.load(automations.map { ($0.loaded, $0.schedule) })
        await second.settled()
        for (loaded, _) in automations {
            let runs = try scheduled(loaded.key).dropFirst(beforeRestart[loaded.key] ?? 0)
            #expect(runs.map(\.scheduled) == (missed[loaded.key] ?? []), "\(loaded.key.name): the fires missed are those list said")
            let expected: [RunOutcomeKind] = (missed[loaded.key] ?? []).indices.map { index in
                loaded.automation.catchUp && index == (missed[loaded.key]?.count ?? 0) - 1 ? .succeeded : .skipped
            }
            #expect(runs.map(\.outcome) == expected, "\(loaded.key.name)")
            #expect(runs.map(\.caughtUp) == expected.map { $0 == .succeeded }, "\(loaded.key.name): the one caught up is marked")
        }
        let twoHourly = try #require(keys["two hourly"])
        #expect(missed.keys.contains(poll) && missed.keys.contains(twoHourly), "the downtime missed fires")

        try await fireFromPredictions(second, clock, until: Self.end)
        await second.stop(grace: .seconds(5))

        // Every fire recorded, run or skipped, is where `next -n` put it at the start.
        for (loaded, schedule) in automations where schedule != nil {
            let recorded = try scheduled(loaded.key).map(\.scheduled)
            #expect(recorded == planned[loaded.key] ?? [], "\(loaded.key.name)")
        }
        #expect(try scheduled(try #require(keys["once"])).count == 1)
        #expect(try scheduled(poll).count > 200, "a fire every 7 minutes for 30 hours")
    }
}
