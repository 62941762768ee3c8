import AutoIntents

/// The units of durations and sizes, by the names scripts write (`90 seconds`, `10 KB`): the one list that
/// the parser, the checker, the properties of a duration (`d.minutes`) and the formatter read.
package enum Units {
    package struct DurationUnit: Sendable {
        package let singular: String
        package let plural: String
        /// The unit's length, exactly.
        package let attoseconds: Int128
    }

    package struct SizeUnit: Sendable {
        package let name: String
        package let bytes: Int64
    }

    static let second: Int128 = 1_000_000_000_000_000_000

    /// Smallest first.
    package static let durations: [DurationUnit] = [
        DurationUnit(singular: "millisecond", plural: "milliseconds", attoseconds: second / 1000),
        DurationUnit(singular: "second", plural: "seconds", attoseconds: second),
        DurationUnit(singular: "minute", plural: "minutes", attoseconds: 60 * second),
        DurationUnit(singular: "hour", plural: "hours", attoseconds: 3600 * second),
        DurationUnit(singular: "day", plural: "days", attoseconds: 86_400 * second),
        DurationUnit(singular: "week", plural: "weeks", attoseconds: 604_800 * second),
    ]

    /// Calendar units: a whole number of them is a `CalendarPeriod` of months.
    package static let periods: [(singular: String, plural: String, months: Int)] = [("month", "months", 1), ("year", "years", 12)]

    package static func period(named name: String) -> (singular: String, plural: String, months: Int)? {
        periods.first { $0.singular == name || $0.plural == name }
    }

    /// Decimal units, as `ls --si` and file managers count (1 KB = 1000 bytes), and binary ones (1 KiB = 1024).
    package static let sizes: [SizeUnit] = [
        SizeUnit(name: "byte", bytes: 1), SizeUnit(name: "bytes", bytes: 1),
        SizeUnit(name: "KB", bytes: 1_000), SizeUnit(name: "MB", bytes: 1_000_000),
        SizeUnit(name: "GB", bytes: 1_000_000_000), SizeUnit(name: "TB", bytes: 1_000_000_000_000),
        SizeUnit(name: "KiB", bytes: 1 << 10), SizeUnit(name: "MiB", bytes: 1 << 20),
        SizeUnit(name: "GiB", bytes: 1 << 30), SizeUnit(name: "TiB", bytes: 1 << 40),
    ]

    /// The units a size is shown in, smallest first: each is 1000 of the one before.
    package static let sizeDisplay = ["bytes", "KB", "MB", "GB", "TB"]

    /// `90 seconds`, `1 second`: either form of the name.
    package static func duration(named name: String) -> DurationUnit? {
        durations.first { $0.singular == name || $0.plural == name }
    }

    package static func size(named name: String) -> SizeUnit? {
        sizes.first { $0.name == name }
    }

    /// Whether `name` is a unit, so that `3 seconds` is one quantity ("times" is not, so `3 times` isn't).
    package static func isUnit(_ name: String) -> Bool {
        duration(named: name) != nil || size(named: name) != nil || period(named: name) != nil
    }

    /// `d.minutes`: a duration's length in a unit, by the unit's plural name.
    package static func durationProperty(named name: String) -> DurationUnit? {
        durations.first { $0.plural == name }
    }

    /// The properties of a Duration, for hints.
    package static var durationPropertyNames: [String] { durations.map(\.plural) }
}
