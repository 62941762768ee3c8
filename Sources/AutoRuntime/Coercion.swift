import AutoIntents
import Foundation

/// Where the language converts a value to the type it is used as, and checks what a parameter allows. One owner
/// for the checker (constants, before the run) and the runtime (every other value, before `perform`).
package enum Coercion {
    /// `value` as a value of `type` where the language converts: an Int where a Decimal is expected, a text that
    /// names an enum case, a text as a file path. Any other value is returned as it is; whether it fits is the
    /// caller's check. A text that names no case of the enum is an error listing the cases.
    package static func converted(_ value: Value, to type: ValueType) throws(EvaluationError) -> Value {
        switch (type, value) {
        case (.decimal, .int(let i)):
            return .decimal(Decimal(i))
        case (.enumeration(let enumeration), .text(let text)):
            guard let index = enumeration.caseIndex(named: text) else { throw notACase(text, of: enumeration) }
            return .enumCase(EnumCaseValue(type: enumeration, index: index))
        case (.file, .text(let path)):
            return .file(FileRef(path: path))
        default:
            return value
        }
    }

    package static func notACase(_ text: String, of enumeration: AnyEnumType) -> EvaluationError {
        EvaluationError("'\(text)' is not a \(enumeration.typeName); choose one of: \(caseNames(of: enumeration))")
    }

    /// "Want to Read, Currently Reading, Read": the cases as people read them.
    package static func caseNames(of enumeration: AnyEnumType) -> String {
        enumeration.cases.map(\.displayName).joined(separator: ", ")
    }

    /// A value of exactly its parameter's scalar type, with no range to check: `argument` would return it as is.
    @inline(__always)
    static func isReady(_ value: Value, for parameter: ParameterInfo) -> Bool {
        guard let kind = parameter.takesAsIs else { return false }
        return value.isScalar(kind)
    }

    /// An argument brought to its parameter's type, with its range checked; anything else is a type error naming
    /// the parameter.
    static func argument(_ value: Value, for parameter: ParameterInfo, of intent: IntentDescriptor) throws(EvaluationError) -> Value {
        if isReady(value, for: parameter) { return value }
        if value.isNull {
            guard parameter.isRequired, parameter.type != .any else { return value }
            throw EvaluationError("'\(intent.name)' needs a value for '\(parameter.name)', got nil")
        }
        let result = try converted(value, to: parameter.type)
        guard result.type.isAssignable(to: parameter.type) else {
            throw EvaluationError("'\(intent.name)' expects \(parameter.type) for '\(parameter.name)', got \(value.type)")
        }
        if let problem = rangeProblem(result, for: parameter) {
            throw EvaluationError("'\(parameter.name)' of '\(intent.name)' must be \(problem), got \(ValueFormatter.inline(result))")
        }
        return result
    }

    /// What a value outside its parameter's range must be ("between 1 and 5"); nil when it is inside or has none.
    package static func rangeProblem(_ value: Value, for parameter: ParameterInfo) -> String? {
        guard let range = parameter.range, contains(range, value) == false else { return nil }
        return describe(range)
    }

    /// Whether `value` is within the range, both ends included; nil for a value of another type, which is a type
    /// error rather than one out of range.
    static func contains(_ range: ParameterRange, _ value: Value) -> Bool? {
        guard let low = Operations.order(range.lowerBound, value), let high = Operations.order(value, range.upperBound) else { return nil }
        return low != .orderedDescending && high != .orderedDescending
    }

    /// "between 1 and 5", in the parameter's own type: whole numbers for an Int.
    package static func describe(_ range: ParameterRange) -> String {
        "between \(ValueFormatter.inline(range.lowerBound)) and \(ValueFormatter.inline(range.upperBound))"
    }
}
