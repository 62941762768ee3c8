@testable import AutoIntents
import Testing

/// Registration finds `@Parameter` and `@Dependency` properties by their struct's type descriptor and reads a
/// parameter's declaration from the property's first word: these hold the layout that relies on.
@Suite struct StoredPropertiesTests {
    @Test func aParametersDeclarationIsItsFirstWord() throws {
        for type in [Parameter<Int>.self, Parameter<String?>.self, Parameter<[Double]>.self] as [Any.Type] {
            let first = try #require(StoredProperties.of(type).first)
            #expect(first.name == "declaration" && first.offset == 0, "\(type): \(first.name) at \(first.offset)")
        }
    }

    @Test func everySpecialisationOfAGenericStructIsRecognised() throws {
        struct Mixed {
            var count = Parameter<Int>()
            var name = Parameter<String?>()
            var list: [Int] = []
            var number = 3
            var optional: Int? = nil
            var dependency = Dependency<String>()
        }
        let fields = StoredProperties.of(Mixed.self)
        #expect(fields.filter { $0.isSpecialisation(of: Parameter<Int>.self) }.map(\.name) == ["count", "name"])
        #expect(fields.filter { $0.isSpecialisation(of: Dependency<Int>.self) }.map(\.name) == ["dependency"])
    }
}
