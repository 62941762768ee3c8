import Foundation

/// `format(number, pattern)`: a number written with a pattern in the style of Unicode number patterns, as
/// spreadsheets take them — `0.00` (two places), `#,##0` (thousands grouped), `0.0#` (one or two places), `000`
/// (at least three digits), with text around the digits kept (`$#,##0.00`, `0.0 %`). `.` for the point and `,`
/// between thousands whatever the machine's locale, so output is the same everywhere — unless a locale is named:
/// `format(x, "#,##0.00", "de_DE")` writes the point and the groups as German does (`1.302,49`).
enum NumberFormatting {
    static let maxPlaces = 15

    /// The point and the thousands separator: the pattern's own, or a named locale's.
    struct Separators {
        var point = "."
        var group = ","
        static let pattern = Separators()

        /// A locale's, from its identifier (`de_DE`, `fr`, `en_IN`); an identifier Foundation doesn't know is an error.
        static func locale(_ identifier: String) throws(EvaluationError) -> Separators {
            let known = Locale.availableIdentifiers.contains(identifier)
                || Locale.availableIdentifiers.contains(identifier.replacingOccurrences(of: "-", with: "_"))
            guard known else { throw EvaluationError("'\(identifier)' is not a locale; write one such as \"de_DE\", \"fr_FR\" or \"en_US\"") }
            let locale = Locale(identifier: identifier)
            return Separators(point: locale.decimalSeparator ?? ".", group: locale.groupingSeparator ?? ",")
        }
    }

    static func format(_ number: Decimal, pattern: String, separators: Separators = .pattern) throws(EvaluationError) -> String {
        let digitCharacters: Set<Character> = ["#", "0", ",", "."]
        guard let start = pattern.firstIndex(where: { $0 == "0" || $0 == "#" }) else {
            throw EvaluationError("'\(pattern)' is not a number pattern: it needs 0 or # for the digits, e.g. \"0.00\" or \"#,##0\"")
        }
        // The digits part runs from the first 0 or # through the characters that can belong to it.
        var from = start
        while from > pattern.startIndex, digitCharacters.contains(pattern[pattern.index(before: from)]) { from = pattern.index(before: from) }
        var to = start
        while to < pattern.endIndex, digitCharacters.contains(pattern[to]) { to = pattern.index(after: to) }
        let (prefix, digits, suffix) = (pattern[..<from], pattern[from..<to], pattern[to...])
        let halves = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { throw EvaluationError("'\(pattern)' has more than one '.'") }
        let integerPattern = halves[0]
        let fractionPattern = halves.count == 2 ? halves[1] : ""
        let minimumPlaces = fractionPattern.filter { $0 == "0" }.count
        let places = minimumPlaces + fractionPattern.filter { $0 == "#" }.count
        guard places <= maxPlaces else { throw EvaluationError("'\(pattern)' asks for \(places) places after the point; at most \(maxPlaces)") }
        let minimumDigits = integerPattern.filter { $0 == "0" }.count

        let rounded = try DecimalArithmetic.round(number, places: places)
        let plain = ValueFormatter.decimal(rounded)
        let isNegative = plain.hasPrefix("-")
        let unsigned = isNegative ? plain.dropFirst() : plain[...]
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0])
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        while fraction.count > minimumPlaces, fraction.last == "0" { fraction.removeLast() }
        while fraction.count < minimumPlaces { fraction.append("0") }
        if whole.count < minimumDigits { whole = String(repeating: "0", count: minimumDigits - whole.count) + whole }
        // `#.##` writes 0.5 as .5, as spreadsheets do; a pattern with a 0 before the point keeps the 0.
        if minimumDigits == 0, whole == "0", !fraction.isEmpty { whole = "" }
        if integerPattern.contains(",") { whole = grouped(whole, separator: separators.group) }
        let isZero = rounded == 0
        return (isNegative && !isZero ? "-" : "") + prefix + whole + (fraction.isEmpty ? "" : separators.point + fraction) + suffix
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ digits: String, separator: String) -> String {
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result += separator }
            result.append(digit)
        }
        return result
    }
}
