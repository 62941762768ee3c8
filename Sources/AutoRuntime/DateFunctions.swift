import AutoIntents
import Foundation

/// The built-in functions on dates beyond `date(t)` and `format(d, pattern)`:
/// `parseDate(t, pattern)` and `parseDate(t, pattern, zone)` read a date written any way a Unicode date pattern can
/// say (`"d MMM yyyy HH:mm"`), in the machine's zone or the IANA zone named; `difference(a, b, unit)` is how many
/// whole units (`seconds` … `years`) go from `a` to `b`, by the calendar in the machine's zone (negative when `b`
/// comes first).
enum DateFunctions {
    static let units: [String: Calendar.Component] = [
        "second": .second, "minute": .minute, "hour": .hour, "day": .day, "week": .weekOfYear, "month": .month, "year": .year,
    ]

    static func call(_ function: BuiltinFunction, _ arguments: [Value]) throws(EvaluationError) -> Value {
        switch function {
        case .parseDate:
            guard let text = try TextFunctions.text(arguments[0], "parseDate") else { return .null }
            guard let pattern = try TextFunctions.text(arguments[1], "parseDate's pattern"), !pattern.isEmpty else {
                throw EvaluationError("parseDate needs a pattern such as \"d MMM yyyy\"")
            }
            let zone = arguments.count > 2 ? try self.zone(arguments[2], "parseDate") : Calendars.local.timeZone
            guard let date = try DateFormatting.parse(text, pattern: pattern, in: zone) else {
                throw EvaluationError("'\(ValueFormatter.escapingControlCharacters(text))' is not a date written as '\(pattern)'")
            }
            guard DateRange.contains(date) else { throw EvaluationError("'\(text)' is outside \(DateRange.description)") }
            return .date(date)
        case .difference:
            guard case .date(let from) = arguments[0], case .date(let to) = arguments[1] else {
                if arguments[0].isNull || arguments[1].isNull { return .null }
                throw EvaluationError("difference needs two dates, not \(arguments[0].type) and \(arguments[1].type)")
            }
            guard let name = try TextFunctions.text(arguments[2], "difference's unit"), let unit = unit(named: name) else {
                throw EvaluationError("difference's unit is one of seconds, minutes, hours, days, weeks, months, years")
            }
            let parts = Calendars.local.dateComponents([unit], from: from, to: to)
            return .int(parts.value(for: unit) ?? 0)
        default:
            throw EvaluationError("internal error: \(function.rawValue) is not a date function")
        }
    }

    /// `days` or `day`, any case.
    static func unit(named name: String) -> Calendar.Component? {
        let lowered = name.lowercased().trimmingCharacters(in: .whitespaces)
        return units[lowered] ?? (lowered.hasSuffix("s") ? units[String(lowered.dropLast())] : nil)
    }

    /// An IANA time zone (`Europe/Paris`, `UTC`) from the system's tz database.
    static func zone(_ value: Value, _ function: String) throws(EvaluationError) -> TimeZone {
        guard case .text(let name) = value else { throw EvaluationError("\(function)'s zone is a text such as \"Europe/Paris\", not \(value.type)") }
        guard let zone = TimeZone(identifier: name) else {
            throw EvaluationError("'\(name)' is not a time zone; write one of the tz database, such as \"Europe/Paris\" or \"UTC\"")
        }
        return zone
    }
}
