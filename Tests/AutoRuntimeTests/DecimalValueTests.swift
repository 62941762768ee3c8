import AutoIntents
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

/// A host that takes and returns numbers as Decimal and Double.
struct PriceTotal: AppIntent {
    static let title = "Price total"
    @Parameter var price: Decimal
    @Parameter(default: 1) var quantity: Int
    @Parameter(default: 0, range: 0...0.3) var discount: Double

    func perform(_ context: IntentContext) async throws -> IntentResult<Decimal> {
        .result(value: price * Decimal(quantity))
    }
}

struct HalfOf: AppIntent {
    static let title = "Half of"
    @Parameter var number: Double
    func perform(_ context: IntentContext) async throws -> IntentResult<Double> { .result(value: number / 2) }
}

struct OddValues: AppIntent {
    static let title = "Odd values"
    func perform(_ context: IntentContext) async throws -> IntentResult<AnyValue> {
        .result(value: AnyValue(.list([.decimal(.nan), .decimal(Decimal(string: "1e-100") ?? 0), .duration(Duration(attoseconds: .min))])))
    }
}

@Suite struct DecimalValueTests {
    static let registry: Registry = {
        var registry = Registry.standard
        try? registry.register(PriceTotal.self)
        try? registry.register(HalfOf.self)
        try? registry.register(OddValues.self)
        return registry
    }()

    @Test func aValueIsNoLargerThanBefore() {
        // Boxing the Decimal keeps every value, an Int in a loop included, as small to copy as with a Double.
        #expect(MemoryLayout<Value>.size <= 17)
        #expect(MemoryLayout<Value>.stride <= 24)
    }

    @Test func hostsTakeAndReturnDecimalsExactly() async {
        let outcome = await EngineHarness.run("show price total 19.99 quantity: 3\nshow price total 0.1 discount: 0.3", registry: Self.registry)
        #expect(outcome.output == ["59.97", "0.1"])
        #expect(outcome.exitCode == 0)
    }

    @Test func aDoubleParameterStillWorksAndReadsAsItsShortestForm() async {
        let outcome = await EngineHarness.run("show half of 0.3\nshow half of 3", registry: Self.registry)
        #expect(outcome.output == ["0.15", "1.5"])
    }

    @Test func aRangeOfDoublesBoundsDecimalsExactly() async {
        let outcome = await EngineHarness.run("set d = 0.3 + 0.0000000000000000000001\nshow price total 1 discount: d", registry: Self.registry)
        #expect(outcome.exitCode == 1)
        #expect(outcome.standardError.contains("'discount' of 'price total' must be between 0.0 and 0.3"))
    }

    @Test func conversions() {
        #expect(Int(autoValue: .decimal(Decimal(string: "2.0") ?? 0)) == 2)
        #expect(Int(autoValue: .decimal(Decimal(string: "2.5") ?? 0)) == nil)
        #expect(Int(autoValue: .decimal(Decimal(string: "9223372036854775808") ?? 0)) == nil)
        #expect(Double(autoValue: .decimal(Decimal(string: "0.1") ?? 0)) == 0.1)
        #expect(Double.infinity.autoValue.isNull)
        #expect(Double.nan.autoValue.isNull)
        #expect(ValueFormatter.inline((0.1 as Double).autoValue) == "0.1")
        #expect(ValueFormatter.inline(1e20.autoValue) == "100000000000000000000.0")
        #expect(Decimal.nan.autoValue.isNull)
        #expect(Decimal(string: "1e40")?.autoValue.isNull == true)
        #expect(Duration(attoseconds: .max).autoValue.isNull)
        #expect(Duration.seconds(90).autoValue.isScalar(.duration))
    }

    /// Values a host built by hand may be outside the language's range: they are refused or rounded, never
    /// passed on to Foundation operations that would trap.
    @Test func valuesMadeOutsideTheEngineNeverTrap() async {
        let outcome = await EngineHarness.run("""
            set v = odd values
            show v
            show v.duration
            """, registry: Self.registry)
        #expect(outcome.exitCode == 2 || outcome.exitCode == 1)
        let tiny = Value.decimal(Decimal(string: "1e-100") ?? 0)
        #expect((try? Operations.arithmetic(.multiply, tiny, tiny)).map(ValueFormatter.inline) == "0.0")
        #expect(throws: EvaluationError.self) { try Operations.arithmetic(.add, .decimal(.nan), .int(1)) }
        let huge = Value.duration(Duration(attoseconds: .min))
        #expect(throws: EvaluationError.self) { try Operations.arithmetic(.divide, huge, .int(-1)) }
        #expect(throws: EvaluationError.self) { try Operations.arithmetic(.add, huge, huge) }
        #expect(throws: EvaluationError.self) { try Operations.arithmetic(.add, .date(Date()), huge) }
        #expect(!ValueFormatter.inline(huge).isEmpty)
        #expect(ValueFormatter.json(.decimal(.nan)) == "null")
    }

    /// Every pair of some extreme decimals through every operator: an error or a value in range, never a trap.
    @Test func extremeDecimalsNeverTrap() {
        let texts = ["0", "1", "-1", "0.1", "99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
                     "0.00000000000000000000000000000000000001", "-0.00000000000000000000000000000000000001",
                     "1.2345678901234567890123456789012345678", "9223372036854775807", "3"]
        let values = texts.compactMap { Decimal(string: $0) }.map(Value.decimal) + [.int(.max), .int(.min), .int(0)]
        #expect(values.count == texts.count + 3)
        for a in values {
            for b in values {
                for op in [ArithmeticOperator.add, .subtract, .multiply, .divide, .remainder] {
                    guard let result = try? Operations.arithmetic(op, a, b), case .decimal(let d) = result else { continue }
                    #expect(DecimalDomain.normalized(d) == d, "\(ValueFormatter.inline(a)) \(op.rawValue) \(ValueFormatter.inline(b))")
                }
            }
        }
    }

    /// The fast readings of a Decimal (through its 64-bit significand) agree with the slow ones (through its text).
    @Test func fastReadingsAgreeWithTheText() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<2_000 {
            let digits = String((0..<(1 + next(24))).map { _ in Character(String(next(10))) })
            let point = next(digits.count + 1)
            let text = (next(2) == 0 ? "-" : "") + digits.prefix(point) + (point < digits.count ? "." + digits.dropFirst(point) : "")
            guard let value = Decimal(string: text.hasPrefix(".") || text.hasPrefix("-.") ? text.replacingOccurrences(of: ".", with: "0.") : text) else { continue }
            let shown = ValueFormatter.decimal(value)
            #expect(Decimal(string: shown) == value, "\(text) shows as \(shown)")
            #expect(shown.contains("."), "\(shown)")
            #expect(!shown.hasSuffix("0") || shown.hasSuffix(".0"), "\(shown)")
            #expect(DecimalDomain.double(value) == Double(value.description), "\(text)")
            let whole = value.description.contains(".") ? nil : Int(value.description)
            #expect(DecimalDomain.int(value) == whole, "\(text)")
        }
        #expect(ValueFormatter.decimal(Decimal(string: "1e30") ?? 0) == "1000000000000000000000000000000.0")
        #expect(ValueFormatter.decimal(Decimal(string: "-0.05") ?? 0) == "-0.05")
        #expect(DecimalDomain.int(Decimal(string: "-9223372036854775808") ?? 0) == .min)
        #expect(DecimalDomain.int(Decimal(string: "9223372036854775808") ?? 0) == nil)
    }

    @Test func jsonIsAlwaysValid() async throws {
        let outcome = await EngineHarness.run("{a: 0.1 + 0.2, b: 10 / 3, c: 2.0, d: 90 seconds, e: 1 second / 3, f: -0.5, g: [1 KB]}",
                                              registry: Self.registry, json: true)
        let text = outcome.output.joined(separator: "\n")
        #expect(text == #"{"a":0.3,"b":3.3333333333333333333333333333333333333,"c":2.0,"d":90,"e":0.333333333333333333,"f":-0.5,"g":[1000]}"#)
        #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil)

        let host = await EngineHarness.run("odd values", registry: Self.registry, json: true)
        let hostText = host.output.joined(separator: "\n")
        #expect(hostText.hasPrefix("[null,0.000"))
        #expect((try? JSONSerialization.jsonObject(with: Data(hostText.utf8))) != nil)
    }
}
