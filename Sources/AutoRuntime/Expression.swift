import AutoIntents

/// A resolved, pure expression: names are slots, properties are indices, operators are chosen. Actions
/// never appear inside one; the compiler hoists them into graph nodes that run before it.
public indirect enum Expr: Sendable {
    case constant(Value)
    /// A variable of the current frame.
    case local(Int)
    /// The result of the previous statement.
    case it
    case list([Expr])
    case record(keys: [String], values: [Expr])
    case interpolation([InterpolationPart])
    case property(Expr, PropertyAccess)
    case negate(Expr)
    case not(Expr)
    case arithmetic(ArithmeticOperator, Expr, Expr)
    case compare(Comparator, Expr, Expr)
    case between(Expr, Expr, Expr)
    case and(Expr, Expr)
    case or(Expr, Expr)
    case function(BuiltinFunction, [Expr])
}

public enum InterpolationPart: Sendable {
    case literal(String)
    case value(Expr)
}

public enum ArithmeticOperator: String, Sendable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

public enum Comparator: String, Sendable {
    case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    case contains, startsWith = "starts with", endsWith = "ends with", isIn = "in"
}

/// How a `.name` is read, decided by the checker from the type on its left.
public indirect enum PropertyAccess: Sendable, CustomStringConvertible {
    /// An entity property by index in its type's property list.
    case entity(AnyEntityType, Int)
    case datePart(DatePart)
    case file(FileProperty)
    /// By name at run time, for values whose type the checker could not know (records, `Any`).
    case dynamic(String)
    /// Applied to every element of a list: `books.title`.
    case each(PropertyAccess)

    public var description: String {
        switch self {
        case .entity(let type, let index): return type.properties[index].name
        case .datePart(let part): return part.rawValue
        case .file(let property): return property.rawValue
        case .dynamic(let name): return name
        case .each(let inner): return inner.description
        }
    }
}

public enum DatePart: String, Sendable, CaseIterable {
    case year, month, day, hour, minute, second, weekday
}

public enum FileProperty: String, Sendable, CaseIterable {
    case name, path, `extension`, size, modified, exists
}

/// The built-in functions of LANGUAGE.md §5, plus `now` and `today`.
public enum BuiltinFunction: String, Sendable, CaseIterable {
    case count, first, last, sum, min, max, join, text, number, date, round, abs
    case now, today
}
