@testable import AutoAutomation
import AutoLanguage
import AutoTestSupport
import Foundation
import Testing

/// Cron: parsing with errors that point into the expression, expressions that never fire, and next fires compared
/// for two thousand random expressions in zones with daylight-saving changes (and one without) against an oracle
/// that walks real time minute by minute and applies docs/LANGUAGE.md §9 itself.
@Suite struct CronTests {
    @Test func namesRangesStepsAndListsParse() throws {
        let expression = try CronExpression(parsing: "*/15 9-17 1,15 jan-mar mon-fri")
        #expect(expression.minutes == [0, 15, 30, 45] && expression.hours == CronField(9...17))
        #expect(expression.daysOfMonth == [1, 15] && expression.months == [1, 2, 3] && expression.daysOfWeek == [1, 2, 3, 4, 5])
        #expect(try CronExpression(parsing: "0 0 * * 7").daysOfWeek == [0], "7 is Sunday too")
        #expect(try CronExpression(parsing: "5/20 * * * *").minutes == [5, 25, 45])
        #expect(try CronExpression(parsing: "@weekly") == CronExpression(parsing: "0 0 * * 0"))
        #expect(try CronExpression(parsing: "@hourly").wildcard)
        #expect(try CronExpression(parsing: "0 */2 * * *").wildcard && CronExpression(parsing: "*/5 3 * * *").wildcard,
                "a minute or hour field that starts with * makes a wildcard job, as cron's MIN_STAR and HR_STAR")
        #expect(try !CronExpression(parsing: "0 0-23 * * *").wildcard && !CronExpression(parsing: "@daily").wildcard)
        #expect(try CronExpression(parsing: "0 9 * * fri-sun").daysOfWeek == [0, 5, 6], "a range to Sunday's 0 ends on its 7")
    }

    @Test func mistakesPointAtTheirPart() {
        func error(_ text: String) -> CronExpression.ParseError? {
            do { _ = try CronExpression(parsing: text); return nil } catch { return error }
        }
        #expect(error("61 * * * *") == .init(message: "minute 61 is out of range 0–59", offset: 0, length: 2))
        #expect(error("0 9 * * mon-xyz")?.message.contains("'xyz' is not a day of week") == true)
        #expect(error("0 9 * * mon-xyz")?.offset == 8)
        #expect(error("0 9-25 * * *") == .init(message: "hour 25 is out of range 0–23", offset: 2, length: 4))
        #expect(error("0 9 * *")?.message.contains("five fields") == true)
        #expect(error("*/0 * * * *")?.message.contains("step") == true)
        #expect(error("0 17-9 * * *")?.message.contains("runs backwards") == true)
        #expect(error("@sometimes")?.message.contains("not a cron name") == true)
        #expect(error("0 0 1,,2 * *")?.offset == 6, "the empty item between the commas")
        #expect(error("+5 * * * *")?.message.contains("'+5' is not a minute") == true, "digits only, as cron reads a number")
        #expect(error("*/+5 * * * *")?.message.contains("step") == true)
    }

    @Test func expressionsThatNeverFireAreKnown() throws {
        #expect(try !CronExpression(parsing: "0 0 31 2 *").canFire)
        #expect(try !CronExpression(parsing: "0 0 30 2 *").canFire)
        #expect(try !CronExpression(parsing: "0 0 31 4,6,9,11 *").canFire)
        #expect(try CronExpression(parsing: "0 0 29 2 *").canFire, "a leap day comes")
        #expect(try CronExpression(parsing: "0 0 31 2 mon").canFire, "either day field may match")
        let leap = CronSchedule(try CronExpression(parsing: "0 12 29 2 *"), timeZone: try #require(TimeZone(identifier: "UTC")))
        #expect(leap.nextFire(after: Date(timeIntervalSince1970: 1_767_225_600)) == Date(timeIntervalSince1970: 1_835_438_400), "2028-02-29 12:00")
    }

    // MARK: The oracle

    /// Offsets of a zone, piecewise: its changes through the years tested, so the oracle needn't ask per minute.
    struct Offsets {
        let changes: [(at: Double, offset: Int)]
        init(_ zone: TimeZone, from: Date, to: Date) {
            var changes = [(at: -Double.infinity, offset: zone.secondsFromGMT(for: from))]
            var cursor = from
            while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < to {
                changes.append((next.timeIntervalSince1970, zone.secondsFromGMT(for: next)))
                cursor = next
            }
            self.changes = changes
        }
        func offset(at t: Double) -> Int {
            var index = changes.count - 1
            while index > 0, changes[index].at > t { index -= 1 }
            return changes[index].offset
        }
    }

    /// What the rules say fires in (start, end]: for each minute of real time, the wall minutes the clock shows or,
    /// for a fixed-time expression, skipped on the way to it; a wall minute shown a second time fires again only for
    /// a wildcard one (the minute or hour field starts with `*`).
    func oracle(_ expression: CronExpression, _ offsets: Offsets, from start: Double, to end: Double) -> [Double] {
        var dayMatches: [Int: Bool] = [:]
        func matches(_ wall: Int) -> Bool {
            let day = wall >= 0 ? wall / 86_400 : (wall - 86_399) / 86_400, second = wall - day * 86_400
            guard expression.minutes.contains(second / 60 % 60), expression.hours.contains(second / 3_600) else { return false }
            if let known = dayMatches[day] { return known }
            let (year, month, date) = LocalTime.civilDate(ofDay: day)
            let known = expression.matches(year: year, month: month, day: date, weekday: LocalTime.isoWeekday(of: day) % 7)
            dayMatches[day] = known
            return known
        }
        var fires: [Double] = []
        var t = (start / 60).rounded(.down) * 60 + 60
        var previousWall = Int(t - 60) + offsets.offset(at: t - 60)
        while t <= end {
            let wall = Int(t) + offsets.offset(at: t)
            var fire = false
            if wall > previousWall + 60, !expression.wildcard {
                // The clock skipped wall minutes on the way here: each that matches fires now, once.
                var skipped = previousWall + 60
                while skipped < wall, !fire {
                    fire = matches(skipped)
                    skipped += 60
                }
            }
            if matches(wall) {
                // Shown before, within the last hours? Then this is its second showing.
                // (Only after the clock went back in the last hours can it be; the scan is for those minutes.)
                let wentBack = offsets.changes.contains { $0.at > t - 3 * 3_600 && $0.at <= t && $0.offset < offsets.offset(at: $0.at - 1) }
                let shownBefore = wentBack && stride(from: t - 60, through: t - 3 * 3_600, by: -60).contains { Int($0) + offsets.offset(at: $0) == wall }
                if !shownBefore || expression.wildcard { fire = true }
            }
            if fire { fires.append(t) }
            previousWall = wall
            t += 60
        }
        return fires
    }

    /// A random expression, with hours near the changes (0–3) often, names and every form now and then.
    static func randomExpression(_ random: inout SeededRandom) -> String {
        func item(_ range: ClosedRange<Int>, names: [String] = [], nearChanges: Bool = false) -> String {
            func number() -> String {
                if nearChanges, random.next(4) < 3 { return "\(random.next(4))" }
                let value = range.lowerBound + random.next(range.count)
                return !names.isEmpty && random.next(3) == 0 ? names[(value - range.lowerBound) % names.count] : "\(value)"
            }
            switch random.next(8) {
            case 0: return "*"
            case 1: return "*/\(1 + random.next(min(12, range.count)))"
            case 2:
                let low = range.lowerBound + random.next(range.count), high = low + random.next(range.upperBound - low + 1)
                return "\(low)-\(high)"
            case 3:
                let low = range.lowerBound + random.next(range.count), high = low + random.next(range.upperBound - low + 1)
                return "\(low)-\(high)/\(1 + random.next(5))"
            case 4: return number() + "," + number()
            default: return number()
            }
        }
        return [item(0...59), item(0...23, nearChanges: true), item(1...31), item(1...12, names: ["jan"]), item(0...6, names: ["sun", "mon", "tue", "wed", "thu", "fri", "sat"])]
            .joined(separator: " ")
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Tokyo"])
    func randomExpressionsMatchTheOracle(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let yearStart = Date(timeIntervalSince1970: 1_767_225_600), yearEnd = Date(timeIntervalSince1970: 1_830_297_600)  // 2026–2027
        let offsets = Offsets(zone, from: yearStart.addingTimeInterval(-86_400 * 30), to: yearEnd)
        var changes = offsets.changes.dropFirst().map(\.at)
        if changes.isEmpty { changes = [yearStart.timeIntervalSince1970 + 40 * 86_400] }  // Tokyo: any days
        var random = SeededRandom(seed: UInt64(name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) }))
        var failures = 0
        for _ in 0..<500 {
            let text = Self.randomExpression(&random)
            let expression = try CronExpression(parsing: text)
            // Two days around a change (or any two days), starting at a random minute before it.
            let change = changes[random.next(changes.count)]
            let start = change - Double(random.next(36 * 60)) * 60 - 30
            let end = start + 2 * 86_400
            let schedule = CronSchedule(expression, timeZone: zone)
            var actual: [Double] = []
            var after = Date(timeIntervalSince1970: start)
            while let next = schedule.nextFire(after: after), next.timeIntervalSince1970 <= end {
                actual.append(next.timeIntervalSince1970)
                after = next
            }
            let expected = oracle(expression, offsets, from: start, to: end)
            if actual != expected {
                failures += 1
                if failures <= 3 {
                    Issue.record("\(name) '\(text)' from \(Date(timeIntervalSince1970: start)): got \(actual.prefix(6).map { Date(timeIntervalSince1970: $0) }), expected \(expected.prefix(6).map { Date(timeIntervalSince1970: $0) })")
                }
            }
        }
        #expect(failures == 0)
    }
}
