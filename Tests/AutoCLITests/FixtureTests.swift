import AutoTestSupport
import Testing

/// Runs every golden script of Tests/Fixtures and compares what it did with its inline expectations.
@Suite struct FixtureTests {
    static let fixtures = Fixture.all(under: Fixture.repositoryRoot + "/Tests/Fixtures")

    @Test func fixturesExist() {
        #expect(Self.fixtures.count >= 10, "expected the golden fixtures under Tests/Fixtures")
    }

    @Test(arguments: fixtures)
    func fixture(_ fixture: Fixture) async {
        let outcome = await ScriptHarness.run(fixture.text, name: fixture.path, host: ScriptHarness.sampleHost,
                                              answers: fixture.answers, choices: fixture.choices, confirmations: fixture.confirmations,
                                              arguments: fixture.arguments)
        let warnings = outcome.diagnostics.filter { $0.severity == .warning }
        let errors = outcome.diagnostics.filter { $0.severity == .error }
        #expect(warnings.count == fixture.warnings.count,
                "\(fixture.path): expected \(fixture.warnings.count) warnings, got:\n\(warnings.map(\.description).joined(separator: "\n"))")
        for expected in fixture.warnings {
            #expect(warnings.contains { $0.location.line == expected.line && $0.location.column == expected.column && $0.message.contains(expected.message) },
                    "\(fixture.path): no warning at \(expected.line):\(expected.column) containing '\(expected.message)'")
        }
        if !fixture.errors.isEmpty {
            let found = errors.map { d in "\(d.location.line):\(d.location.column) \(d.message)" }
            #expect(outcome.exitCode == 2, "\(fixture.path): expected compile errors, exit code \(outcome.exitCode)")
            #expect(errors.count == fixture.errors.count,
                    "\(fixture.path): expected \(fixture.errors.count) errors, got:\n\(found.joined(separator: "\n"))")
            for expected in fixture.errors {
                let match = errors.contains { d in
                    d.location.line == expected.line && d.location.column == expected.column && d.message.contains(expected.message)
                }
                #expect(match, "\(fixture.path): no error at \(expected.line):\(expected.column) containing '\(expected.message)'; got:\n\(found.joined(separator: "\n"))")
            }
            for expected in fixture.hints {
                let hint = outcome.diagnostics.first { $0.location.line == expected.line && $0.location.column == expected.column }?.hint
                #expect(hint?.contains(expected.message) == true,
                        "\(fixture.path): the hint at \(expected.line):\(expected.column) should contain '\(expected.message)', got \(hint ?? "no hint")")
            }
            return
        }
        #expect(errors.isEmpty, "\(fixture.path): unexpected errors:\n\(outcome.standardError)")
        if let exitCode = fixture.exitCode {
            #expect(outcome.exitCode == exitCode, "\(fixture.path): exit code \(outcome.exitCode): \(outcome.standardError)")
        } else if fixture.runtimeError != nil {
            #expect(outcome.exitCode == 1, "\(fixture.path): expected a runtime error, exit code \(outcome.exitCode)")
        } else {
            #expect(outcome.exitCode == 0, "\(fixture.path): exit code \(outcome.exitCode): \(outcome.standardError)")
        }
        if let runtimeError = fixture.runtimeError {
            #expect(outcome.standardError.contains(runtimeError),
                    "\(fixture.path): runtime error should contain '\(runtimeError)', got: \(outcome.standardError)")
        }
        #expect(outcome.output == fixture.output, "\(fixture.path): output differs")
    }
}
