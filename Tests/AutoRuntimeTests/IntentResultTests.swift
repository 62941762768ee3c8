import AutoIntents
import AutoLanguage
import AutoRuntime
import AutoTestSupport
import Foundation
import Testing

// What an intent hands back: results the engine can't hold, and optional results.

/// `a / b` as a Double: 0 / 0 is NaN, 1 / 0 infinity, 1e30 / 1e-10 is 1e40, none of them a Decimal.
struct Ratio: ImmediateIntent {
    static let title = "Ratio"
    @Parameter var a: Double
    @Parameter var over: Double
    func performNow(_ context: IntentContext) throws -> IntentResult<Double> { .result(value: a / over) }
}

/// `Ratio` awaiting: a result is checked the same on either path.
struct RatioLater: AppIntent {
    static let title = "Ratio later"
    @Parameter var a: Double
    @Parameter var over: Double
    func perform(_ context: IntentContext) async throws -> IntentResult<Double> { .result(value: a / over) }
}

/// Nothing without a dividend, else `a / b`: an optional result.
struct RatioIfAny: AppIntent {
    static let title = "Ratio if any"
    @Parameter var a: Double?
    @Parameter var over: Double
    func perform(_ context: IntentContext) async throws -> IntentResult<Double?> { .result(value: a.map { $0 / over }) }
}

/// Every element divided: a list with one NaN in it.
struct Ratios: AppIntent {
    static let title = "Ratios"
    @Parameter var values: [Double]
    @Parameter var over: Double
    func perform(_ context: IntentContext) async throws -> IntentResult<[Double]> { .result(value: values.map { $0 / over }) }
}

/// 10^n as a Decimal: out of the language's range from n = 38.
struct PowerOfTen: AppIntent {
    static let title = "Power of ten"
    @Parameter var n: Int
    func perform(_ context: IntentContext) async throws -> IntentResult<Decimal> { .result(value: Decimal(sign: .plus, exponent: n, significand: 1)) }
}

/// `days` days as a Duration: out of the language's range from about 10^14 days.
struct SpanOfDays: ImmediateIntent {
    static let title = "Span of days"
    @Parameter var days: Int
    func performNow(_ context: IntentContext) throws -> IntentResult<Duration> { .result(value: .seconds(days) * 86_400) }
}

/// The place of a text in a list, or nothing: an optional Int result, immediate.
struct PlaceOf: ImmediateIntent {
    static let title = "Place of"
    @Parameter var text: String
    @Parameter var among: [String]
    func performNow(_ context: IntentContext) throws -> IntentResult<Int?> { .result(value: among.firstIndex(of: text)) }
}

@Suite struct IntentResultTests {
    static let registry = Registry.standard(adding: [Ratio.self, RatioLater.self, RatioIfAny.self, Ratios.self, PowerOfTen.self,
                                                     SpanOfDays.self, PlaceOf.self])

    static let decimalRange = "is not a number a script can hold: \(DecimalDomain.rangeDescription)"

    func error(of script: String) async -> String {
        let outcome = await EngineHarness.run(script, name: "r.auto", registry: Self.registry)
        #expect(outcome.exitCode == 1, "\(script): \(outcome.output)")
        return outcome.standardError
    }

    /// NaN, infinity and 1e40 used to become nil without a word.
    @Test func aDoubleWithNoDecimalIsAnErrorNamingTheIntent() async {
        // A constant call site, a call whose arguments change, and an awaiting intent: the three ways a result comes.
        for call in ["ratio 0 over: 0", "set z = 0\nratio 0 over: z", "ratio later 0 over: 0"] {
            let intent = call.contains("later") ? "ratio later" : "ratio"
            let line = call.contains("set") ? 2 : 1
            #expect(await error(of: call).contains("r.auto:\(line):1: error: \(intent): the result nan \(Self.decimalRange)"))
        }
        #expect(await error(of: "ratio 1 over: 0").contains("error: ratio: the result inf \(Self.decimalRange)"))
        #expect(await error(of: "ratio -1 over: 0").contains("error: ratio: the result -inf \(Self.decimalRange)"))
        let huge = await error(of: "ratio 10000000000000000000.0 over: 0.000000000000000000001")
        #expect(huge.contains("error: ratio: the result 1") && huge.contains(Self.decimalRange), "1e40: \(huge)")
        #expect(await error(of: "ratios [1, 0, 2] over: 0").contains("error: ratios: the result inf \(Self.decimalRange)"))
        let fine = await EngineHarness.run("show ratio 1 over: 4\nshow ratios [1, 2] over: 4", registry: Self.registry)
        #expect(fine.output == ["0.25", "[0.25, 0.5]"], "\(fine.standardError)")
    }

    @Test func aDecimalOrDurationOutOfRangeIsAnErrorNamingTheIntent() async {
        #expect(await error(of: "power of ten 40").contains("error: power of ten: the result 1\(String(repeating: "0", count: 40)) \(Self.decimalRange)"))
        let long = await error(of: "span of days 1000000000000000")
        #expect(long.contains("error: span of days: the result ") && long.contains("is out of range: \(DurationDomain.rangeDescription)"), "\(long)")
        let fine = await EngineHarness.run("show power of ten 2\nshow (span of days 2) == 2 days", registry: Self.registry)
        #expect(fine.output == ["100.0", "true"], "\(fine.standardError)")
    }

    @Test func anOptionalResultIsAValueOrNil() async {
        let outcome = await EngineHarness.run("""
            show place of "b" among: ["a", "b"]
            show (place of "z" among: ["a", "b"]) == nil
            set r = ratio if any 1 over: 4
            show r * 2
            show ratio if any over: 4
            """, registry: Self.registry)
        #expect(outcome.exitCode == 0, "\(outcome.standardError)")
        #expect(outcome.output == ["1", "true", "0.5", "nil"])
        let place = Self.registry.intent(named: "place of")
        #expect(place?.outputType == .int, "a result that may be nil has the type of its value, as an optional property has")
        // A value that is there and can't be held is still an error, not the nil an optional could give.
        #expect(await error(of: "ratio if any 0 over: 0").contains("error: ratio if any: the result nan \(Self.decimalRange)"))
    }
}
