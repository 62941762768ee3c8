import AutoIntents
import Foundation

/// A value as a dictionary key for `group by`, `count by` and `distinct`: two keys are the same when `==` says
/// their values are equal (`2` and `2.0`, two lists of equal items, the same entity), with one exception: an
/// enum case and a text naming it compare equal in a condition, but a group's key keeps one type, so they are
/// two keys. The hash looks only at what equal values share.
struct GroupKey: Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    static func == (a: GroupKey, b: GroupKey) -> Bool {
        switch (a.value, b.value) {
        case (.enumCase, .text), (.text, .enumCase): return false
        default: return Operations.equal(a.value, b.value)
        }
    }

    func hash(into hasher: inout Hasher) { Self.hash(value, into: &hasher) }

    static func hash(_ value: Value, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0)
        case .bool(let flag): hasher.combine(flag)
        // An Int and a Decimal of the same value are equal: both hash their value rounded to a whole number,
        // which equal values share whatever the Decimal's representation (2.0 as 20 × 10⁻¹).
        case .int(let number): hasher.combine(number)
        case .decimal(let number):
            let whole = try? DecimalArithmetic.roundedInt(number)
            hasher.combine(whole ?? Int.max)
        case .text(let text): hasher.combine(text)
        case .date(let date): hasher.combine(date)
        case .duration(let duration): hasher.combine(duration)
        case .period(let period): hasher.combine(period)
        case .size(let size): hasher.combine(size)
        case .file(let file): hasher.combine(file)
        case .list(let items):
            hasher.combine(items.count)
            for item in items { hash(item, into: &hasher) }
        case .record(let record):
            hasher.combine(record.keys)
            for field in record.values { hash(field, into: &hasher) }
        case .entity(let entity):
            hasher.combine(ObjectIdentifier(entity.type))
            hasher.combine(entity.id)
        case .enumCase(let enumCase):
            hasher.combine(ObjectIdentifier(enumCase.type))
            hasher.combine(enumCase.index)
        }
    }
}
