@testable import AutoTerminal
import AutoCLI
import AutoFuzz
import AutoLanguage
import Foundation
import Testing

/// The generator's promises: a program is a function of (seed, index); the typed programs type-check with
/// the real checker (the point of tracking types); and together they use every construct they claim to.
@Suite struct GeneratorTests {
    static func typed(seed: UInt64, count: Int) -> [String] {
        (0..<count).map { index in
            var generator = ProgramGenerator(random: FuzzRandom(seed: seed, index: index), mayRunAway: false)
            return generator.typedProgram().text
        }
    }

    @Test func programsAreReproducibleFromSeedAndIndex() {
        for index in 0..<60 {
            let a = ProgramGenerator.program(seed: 42, index: index, mayRunAway: index % 2 == 0)
            let b = ProgramGenerator.program(seed: 42, index: index, mayRunAway: index % 2 == 0)
            #expect(a.bytes == b.bytes && a.origin == b.origin)
            #expect(RunConfiguration.draw(seed: 42, index: index, program: a) == RunConfiguration.draw(seed: 42, index: index, program: b))
        }
        let other = (0..<20).map { ProgramGenerator.program(seed: 43, index: $0, mayRunAway: false).bytes }
        let first = (0..<20).map { ProgramGenerator.program(seed: 42, index: $0, mayRunAway: false).bytes }
        #expect(other != first, "another seed gives other programs")
    }

    @Test func mutantsAreReproducibleFromSeedAndIndex() {
        let corpus = FixtureMutator.Corpus.load(under: FuzzCommandLine.repositoryRoot + "/Tests/Fixtures")
        #expect(corpus.files.count > 10)
        let mutator = FixtureMutator(corpus: corpus)
        for index in 0..<60 {
            let a = mutator.program(seed: 9, index: index), b = mutator.program(seed: 9, index: index)
            #expect(a?.bytes == b?.bytes && a?.origin == b?.origin)
        }
    }

    @Test func mostTypedProgramsTypeCheck() {
        let programs = Self.typed(seed: 2024, count: 300)
        let host = ScriptHost()
        var failures: [String] = []
        for (index, text) in programs.enumerated() {
            if case .failure(let failure) = host.compile(SourceFile(name: "typed-\(index).auto", text: text)) {
                failures.append("program \(index): " + (failure.diagnostics.first.map { "\($0.location.line):\($0.location.column) \($0.message)" } ?? ""))
            }
        }
        // Some are meant to fail: extreme literals (a size over 2^63 bytes), a negative constant limit.
        let listed = failures.prefix(20).joined(separator: "\n")
        #expect(failures.count * 100 <= programs.count * 15, "\(failures.count) of \(programs.count) don't compile:\n\(listed)")
    }

    @Test func programsUseEveryConstruct() {
        let text = Self.typed(seed: 7, count: 400).joined(separator: "\n")
        let constructs = [
            " + ", " - ", " * ", " / ", " % ", "(-", " == ", " != ", " < ", " <= ", " > ", " >= ", " and ", " or ", "(not ",
            " contains ", " starts with ", " ends with ", " in ", " between ", "\\(", "count(", "first(", "last(", "sum(", "min(",
            "max(", "join(", "text(", "number(", "date(", "split(", "trim(", "padLeft(", ")[", "| each ", "| distinct)", " | count by ", " | group by ", "average(", "parseJson(json(", "round(", "abs(", "now", "today", "filter where", "sort by", " desc", " ignoring case",
            "| limit", "if ", "} else if ", "} else {", "for ", "repeat ", " times {", "while ", "{ break }", "{ continue }", "try {", "otherwise {", " otherwise ", "show error", "set ", " -> ", "it", "shortcut \"",
            "return ", "stop", "average ", "clamp ", "plural ", "percent ", "numbers from ", "repeat text ", "shout", "days from ",
            "days until ", ".year", ".weekday", ".monthName", ".startOf", " month", " year", "format(", ".minutes", "nil", "true", "seconds", "KB", "args", ": Int", "= ", "Text?",
            "[", "{", "9223372036854775807",
        ]
        let missing = constructs.filter { !text.contains($0) }
        #expect(missing.isEmpty, "never generated: \(missing)")
    }

    @Test func brokenAndExtremeProgramsAreGeneratedToo() {
        let origins = (0..<400).map { ProgramGenerator.program(seed: 5, index: $0, mayRunAway: true).origin }
        for family in ["typed", "extreme", "ill-typed", "broken"] {
            #expect(origins.contains { $0.hasPrefix(family) }, "no \(family) program")
        }
    }
}
