import AutoTestSupport
import Foundation
import Testing

/// Every command that the `--help` of `auto` and `library`, their manual pages and the docs name exists (issue 31,
/// item 11). The manual pages are argument-parser's `generate-manual` output of the same help (scripts/install):
/// generating them here would build the plugin's tool, too slow for a test, so what is tested is their source,
/// the help's text, and that the root command's description survives the page's reflowing.
@Suite struct DocumentedCommandTests {
    static let products = ["auto", "library"]

    static func run(_ product: String, _ arguments: [String]) async throws -> BinaryRunner.Result {
        // The Library's database and every store go to a folder of the test's own, should a command open one.
        let home = try TemporaryFolder("documented-commands")
        defer { withExtendedLifetime(home) {} }
        return try await BinaryRunner.runAwaiting(arguments, executable: BinaryRunner.productsFolder.appendingPathComponent(product).path,
                                                  environment: ["HOME": home.path, "XDG_DATA_HOME": home.path, "XDG_STATE_HOME": home.path],
                                                  directory: home.path)
    }

    /// The names a help text lists under SUBCOMMANDS: each entry's first word, on a line indented by two spaces
    /// (an abstract that wraps goes on under it, indented further).
    static func subcommands(inHelp help: String) -> [String] {
        guard let section = help.range(of: "\nSUBCOMMANDS:\n") else { return [] }
        var names: [String] = []
        for line in help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard line.hasPrefix("  "), line.dropFirst(2).first != " ", let name = line.split(separator: " ").first else { continue }
            names.append(String(name))
        }
        return names
    }

    /// Every command of `product` below the root, as the words that name it (`["automations", "next"]`), found by
    /// walking the SUBCOMMANDS of each `--help`; each help must exit 0.
    static func commandTree(of product: String) async throws -> [[String]] {
        var found: [[String]] = []
        var toVisit: [[String]] = [[]]
        while let path = toVisit.popLast() {
            let help = try await run(product, path + ["--help"])
            #expect(help.exitCode == 0, "\(([product] + path).joined(separator: " ")) --help exited with \(help.exitCode): \(help.standardError)")
            for name in subcommands(inHelp: help.standardOutput) where name != "help" {
                found.append(path + [name])
                toVisit.append(path + [name])
            }
        }
        return found
    }

    /// The commands a line names: after `auto` or `library` (or `swift run` either) at the start of the line or of a
    /// command joined by `|`, `&&` or `;`, the words of lower-case letters that follow, up to the first other word
    /// (a file, an option, a value). `automations list|next` names both.
    static func namedCommands(in line: String) -> [(product: String, words: [[String]])] {
        var named: [(String, [[String]])] = []
        // A `|` between words of a command (`list|next`) gives alternatives; with spaces around it, it joins commands.
        let segments = line.replacingOccurrences(of: "&&", with: ";").replacingOccurrences(of: " | ", with: ";")
        for segment in segments.split(separator: ";") {
            var words = segment.split(separator: " ").map(String.init)[...]
            if words.first == "$" { words = words.dropFirst() }
            if words.starts(with: ["swift", "run"]) { words = words.dropFirst(2) }
            guard let product = words.first, products.contains(product) else { continue }
            var path: [[String]] = []
            for word in words.dropFirst() {
                let alternatives = word.split(separator: "|").map(String.init)
                guard !alternatives.isEmpty, alternatives.allSatisfy({ $0.allSatisfy { $0.isLowercase && $0.isASCII } }) else { break }
                path.append(alternatives)
            }
            named.append((product, path))
        }
        return named
    }

    /// Whether the words name a command of the tree, or words the command takes: the first word must be a command;
    /// each next one a command under it while the command has some (`intents describe`), and anything after that.
    static func exists(_ words: [[String]], in tree: [[String]]) -> Bool {
        var path: [String] = []
        for alternatives in words {
            let hasSubcommands = tree.contains { $0.count == path.count + 1 && Array($0.prefix(path.count)) == path }
            guard hasSubcommands else { return true }
            // A command whose default subcommand takes words (`intents` lists a script's) may be followed by one.
            guard alternatives.allSatisfy({ tree.contains(path + [$0]) }) else { return !path.isEmpty && alternatives.count == 1 }
            path.append(alternatives[0])
        }
        return true
    }

    @Test(arguments: products)
    func everyListedSubcommandRuns(_ product: String) async throws {
        let tree = try await Self.commandTree(of: product)
        #expect(tree.filter { $0.count == 1 }.count >= 8, "\(product) --help lists \(tree)")
        #expect(tree.contains(["automations", "next"]) && tree.contains(["intents", "describe"]), "\(tree)")
        for path in tree {
            let help = try await Self.run(product, ["help"] + path)
            #expect(help.exitCode == 0, "\(product) help \(path.joined(separator: " ")) exited with \(help.exitCode): \(help.standardError)")
            #expect(help.standardOutput.contains("USAGE: \(([product] + path).joined(separator: " "))"), "\(help.standardOutput)")
        }
    }

    /// The examples of the root `--help` (the manual page's description) name commands that exist.
    @Test(arguments: products)
    func theHelpsExamplesNameRealCommands(_ product: String) async throws {
        let tree = try await Self.commandTree(of: product)
        let help = try await Self.run(product, ["--help"]).standardOutput
        let overview = help.components(separatedBy: "\nUSAGE:")[0]
        let named = overview.split(separator: "\n").flatMap { Self.namedCommands(in: String($0)) }.filter { $0.product == product }
        #expect(named.filter { !$0.words.isEmpty }.count >= 8, "\(product) --help shows few commands:\n\(overview)")
        for command in named {
            let exists = Self.exists(command.words, in: tree)
            #expect(exists, "\(product) --help names '\(command.words.map { $0.joined(separator: "|") })', which \(product) doesn't have")
        }
        // `say` runs a script's shortcut with `auto`, which has no App Shortcuts of its own: its help says so.
        if product == "auto" {
            let says = overview.split(separator: "\n").filter { $0.contains("auto say") }
            #expect(!says.isEmpty && says.allSatisfy { $0.contains("-f ") || $0.contains("--file") }, "\(overview)")
            #expect(!overview.contains("auto shortcuts"), "\(overview)")
        }
    }

    /// Every `auto …` and `library …` command of the docs' shell blocks and inline code names commands that exist.
    @Test func theDocsNameRealCommands() async throws {
        var trees: [String: [[String]]] = [:]
        for product in Self.products { trees[product] = try await Self.commandTree(of: product) }
        var checked = 0
        for file in DocBlock.files {
            let markdown = try String(contentsOfFile: Fixture.repositoryRoot + "/" + file, encoding: .utf8)
            let shellLines = DocBlock.blocks(in: markdown, file: file).blocks.filter { $0.language == "sh" }.flatMap { block in
                block.text.split(separator: "\n").enumerated().map { ("\(file):\(block.line + $0.offset + 1)", String($0.element)) }
            }
            let inlineCode = markdown.split(separator: "\n").enumerated().flatMap { number, line in
                line.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
                    .map { ("\(file):\(number + 1)", String($0.element)) }
            }
            for (place, line) in shellLines + inlineCode {
                for command in Self.namedCommands(in: line) where !command.words.isEmpty {
                    checked += 1
                    let exists = Self.exists(command.words, in: trees[command.product] ?? [])
                    #expect(exists, "\(place): `\(line)` names a command \(command.product) doesn't have")
                }
            }
        }
        #expect(checked >= 30, "only \(checked) commands named in the docs")
    }

    @Test func commandsAreFoundInLines() {
        let tree = [["run"], ["intents"], ["intents", "list"], ["intents", "describe"], ["automations"], ["automations", "next"]]
        let named = Self.namedCommands(in: "$ swift run auto intents describe show | dot && library automations next --cron x")
        #expect(named.map(\.product) == ["auto", "library"])
        #expect(named.map(\.words) == [[["intents"], ["describe"], ["show"]], [["automations"], ["next"]]])
        #expect(Self.exists([["intents"], ["describe"], ["show"]], in: tree))
        #expect(Self.exists([["intents"]], in: tree))
        #expect(!Self.exists([["history"]], in: tree))
        #expect(!Self.exists([["automations"], ["next", "history"]], in: tree))
        #expect(Self.namedCommands(in: "auto script.auto a b").map(\.words) == [[]])
    }

    /// argument-parser's `generate-manual` writes the root command's discussion into the page's DESCRIPTION as
    /// text lines, which man fills into one paragraph unless a line starts with a space, and it drops every
    /// character that is not ASCII. So each line of it starts with a space (or is empty), is ASCII, and fits the 80
    /// columns of `--help` and of man, which indents it by 5, without wrapping.
    @Test(arguments: products)
    func theDescriptionReadsAsLinesInTheManualPage(_ product: String) async throws {
        let dump = try await Self.run(product, ["--experimental-dump-help"])
        #expect(dump.exitCode == 0, "\(dump.standardError)")
        let json = try JSONSerialization.jsonObject(with: Data(dump.standardOutput.utf8)) as? [String: Any]
        let discussion = try #require((json?["command"] as? [String: Any])?["discussion"] as? String, "\(dump.standardOutput.prefix(300))")
        let lines = discussion.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count >= 10)
        for line in lines {
            #expect(line.isEmpty || line.hasPrefix(" "), "filled into the line above it in the manual page: '\(line)'")
            let isASCII = line.allSatisfy { $0.isASCII }
            #expect(isASCII, "the manual page would drop its other characters: '\(line)'")
            #expect(line.count <= 72, "wraps in man at 80 columns: '\(line)'")
        }
    }
}
