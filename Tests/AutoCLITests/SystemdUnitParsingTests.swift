@testable import AutoCLI
import Foundation
import Testing

/// Unit files, command lines, environment files and specifiers read as systemd reads them, and their mistakes
/// reported at their line.
@Suite struct SystemdUnitParsingTests {
    @Test func sectionsCommentsContinuationsAndResetsReadAsSystemdReadsThem() throws {
        let text = """
            # a comment
            ; another
            [Timer]
            OnCalendar=daily
            OnCalendar = Mon..Fri \\
            # a comment inside the continuation is skipped
              09:00
            Persistent=true

            [Install]
            WantedBy=timers.target
            """
        let file = try SystemdUnitFile(path: "b.timer", text: text)
        #expect(file.entries(in: "Timer").map(\.key) == ["OnCalendar", "OnCalendar", "Persistent"])
        let second = file.entries(in: "Timer")[1]
        #expect(second.value == "Mon..Fri    09:00")
        #expect(second.location == UnitLocation(file: "b.timer", line: 5))
        #expect(file.last("WantedBy", in: "Install")?.value == "timers.target")
        // A continuation the file ends in is joined to nothing.
        #expect(try SystemdUnitFile(path: "e.timer", text: "[Timer]\nOnCalendar=daily \\").last("OnCalendar", in: "Timer")?.value == "daily")
        let reset = try SystemdUnitFile(path: "s.service", text: "[Service]\nExecStart=/bin/a\nExecStart=\nExecStart=/bin/b\n")
        #expect(reset.list("ExecStart", in: "Service").map(\.value) == ["/bin/b"])
    }

    @Test(arguments: [
        ("[Timer]\nOnCalendar daily\n", 2, "is not an assignment"),
        ("OnCalendar=daily\n[Timer]\n", 1, "comes before any section"),
        ("[Timer\nOnCalendar=daily\n", 1, "is not a section header"),
        ("[Timer]\n=daily\n", 2, "has no key"),
    ])
    func aMalformedLineIsAnErrorAtItsLine(_ text: String, _ line: Int, _ message: String) {
        #expect {
            try SystemdUnitFile(path: "t.timer", text: text)
        } throws: { error in
            guard let error = error as? UnitFileError else { return false }
            return error.location.line == line && error.message.contains(message)
        }
    }

    @Test func commandLinesFollowSystemdsQuotingPrefixesAndSeparators() throws {
        let commands = try SystemdCommand.commands(in: #"-/usr/bin/echo "two words" 'it''s' a\x41\s\u00e9 \; ; @/bin/sh sh -c "echo \"hi\"""#)
        #expect(commands.count == 2)
        #expect(commands[0] == SystemdCommand(program: "/usr/bin/echo", arguments: ["two words", "its", "aA é", ";"], ignoresFailure: true))
        #expect(commands[1].program == "/bin/sh")
        #expect(commands[1].argumentZero == "sh")
        #expect(commands[1].arguments == ["-c", #"echo "hi""#])
        let privileged = try SystemdCommand.commands(in: "+:/bin/x $HOME")
        #expect(privileged[0].privilegePrefix == "+")
        #expect(privileged[0].expandedArguments(["HOME": "/h"]).arguments == ["$HOME"])
        for bad in [#"/bin/x "open"#, #"/bin/x \q"#, "-@", "bin/x", "; /bin/x", "$PROGRAM a"] {
            #expect(throws: SystemdQuoting.Failure.self, "\(bad)") { try SystemdCommand.commands(in: bad) }
        }
    }

    @Test func variablesExpandAsTheManualsExamplesSay() throws {
        // systemd.service(5), "Command lines": Environment="ONE=one" 'TWO=two two' and ExecStart=echo $ONE $TWO ${TWO}.
        let environment = ["ONE": "one", "TWO": "two two"]
        let first = try SystemdCommand.commands(in: "/bin/echo $ONE $TWO ${TWO}")[0].expandedArguments(environment)
        #expect(first.arguments == ["one", "two", "two", "two two"])
        // Environment=ONE='one' "TWO='two two' too" THREE=: ${…} keeps the value, $… splits it, quotes respected.
        let quoted = ["ONE": "'one'", "TWO": "'two two' too", "THREE": ""]
        #expect(try SystemdCommand.commands(in: "/bin/echo ${ONE} ${TWO} ${THREE}")[0].expandedArguments(quoted).arguments == ["'one'", "'two two' too", ""])
        #expect(try SystemdCommand.commands(in: "/bin/echo $ONE $TWO $THREE")[0].expandedArguments(quoted).arguments == ["one", "two two", "too"])
        let rest = try SystemdCommand.commands(in: "/bin/echo $$HOME a$ONE ${MISSING}x")[0].expandedArguments(environment)
        #expect(rest.arguments == ["$HOME", "a$ONE", "x"])
        #expect(rest.unset == ["MISSING"])
    }

    @Test func anEnvironmentFileReadsQuotesContinuationsAndComments() throws {
        let text = """
            # comment
            ; comment
            A=plain value
            export B="quoted \\"x\\" \\$HOME"
            C='single $HOME'
            D=one \\
            two

            """
        let pairs = try EnvironmentFileReader.assignments(text)
        #expect(pairs.map(\.0) == ["A", "B", "C", "D"])
        #expect(pairs.map(\.1) == ["plain value", #"quoted "x" $HOME"#, "single $HOME", "one two"])
        #expect {
            try EnvironmentFileReader.assignments("A=1\nnot an assignment\n")
        } throws: { ($0 as? EnvironmentFileReader.Failure)?.line == 2 }
    }

    @Test func specifiersResolveForTheUserAndLeaveUnknownOnesWithTheirName() {
        let specifiers = UnitSpecifiers(unitName: "sync@photos-2024.service", userUnit: true,
                                        environment: ["HOME": "/home/ann", "USER": "ann", "XDG_RUNTIME_DIR": "/run/user/1000"])
        let resolved = specifiers.resolve("%n %N %p %i %I %u %h %t %C %E 100%% %b")
        #expect(resolved.text == "sync@photos-2024.service sync@photos-2024 sync photos-2024 photos/2024 ann /home/ann /run/user/1000 "
                + "/home/ann/.cache /home/ann/.config 100% %b")
        #expect(resolved.unknown == ["%b"])
        let system = UnitSpecifiers(unitName: "backup.service", userUnit: false, environment: ["HOME": "/root"])
        #expect(system.resolve("%t %S %C %L %E").text == "/run /var/lib /var/cache /var/log /etc")
    }
}
