import AutoIntents
import Foundation
import Yams

/// `parse yaml (read text "config.yaml")`: the value a YAML document holds, as `parseJson` reads JSON: mappings
/// become records (keys in the order written), sequences lists, whole numbers Ints, other numbers exact Decimals,
/// `true`/`false` Bools, `null` and `~` nil, everything else texts.
struct ParseYAML: ImmediateIntent {
    static let title = "Parse yaml"
    static let description = IntentDescription(
        "The value a YAML document holds: mappings as records in the order written, sequences as lists, numbers, booleans, nil and texts.",
        category: "Data", searchKeywords: ["yaml", "yml", "config", "read"], resultName: "data")
    static let parameterSummary: ParameterSummary? = "Parse {text} as YAML"
    @Parameter(title: "YAML text", question: "Which YAML text?") var text: String

    /// Values made from one document at most: aliases can make a small text stand for an enormous value.
    static let maxValues = 1_000_000
    /// Mappings and sequences inside each other at most.
    static let maxDepth = 1_000

    func performNow(_ context: IntentContext) throws -> IntentResult<AnyValue> {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw IntentError("the text is not YAML: \(Self.describe(error))")
        }
        guard let node else { return .result(value: AnyValue(.null)) }
        var made = 0
        return .result(value: AnyValue(try Self.value(of: node, depth: 0, made: &made)))
    }

    static func value(of node: Node, depth: Int, made: inout Int) throws -> Value {
        made += 1
        guard made <= maxValues else { throw IntentError("the YAML stands for more than \(maxValues) values (aliases repeat them); it is not read") }
        guard depth <= maxDepth else { throw IntentError("the YAML nests deeper than \(maxDepth) levels; it is not read") }
        switch node {
        case .scalar(let scalar):
            // The tag the resolver gave the scalar: a quoted "123" stays a text.
            switch "\(node.tag)" {
            case "tag:yaml.org,2002:null": return .null
            case "tag:yaml.org,2002:bool": return node.bool.map(Value.bool) ?? .text(scalar.string)
            case "tag:yaml.org,2002:int": return node.int.map(Value.int) ?? .text(scalar.string)
            case "tag:yaml.org,2002:float": return Decimal(string: scalar.string).map(Value.decimal) ?? .text(scalar.string)
            default: return .text(scalar.string)
            }
        case .mapping(let mapping):
            var keys: [String] = [], values: [Value] = []
            for (key, value) in mapping {
                let name = key.string ?? "\(key)"
                let converted = try self.value(of: value, depth: depth + 1, made: &made)
                if let index = keys.firstIndex(of: name) { values[index] = converted } else {
                    keys.append(name)
                    values.append(converted)
                }
            }
            return .record(Record(keys: keys, values: values))
        case .sequence(let sequence):
            return .list(try sequence.map { try self.value(of: $0, depth: depth + 1, made: &made) })
        case .alias:
            throw IntentError("the YAML has an alias that names no anchor")
        }
    }

    static func describe(_ error: YamlError) -> String {
        "\(error)".split(separator: "\n").first.map(String.init) ?? "it can't be read"
    }
}
