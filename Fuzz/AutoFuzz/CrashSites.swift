import Foundation

/// Where in the binary's own code a crash happened, read from the stack trace the Swift runtime prints
/// after a fatal error (`4  auto  0x… <unavailable> + 3083902`) and symbolised with `addr2line` and
/// `swift-demangle` when they are on the PATH.
///
/// One message ("Double value cannot be converted to Int64…") comes from many places — a size times a
/// number, a duration shown in words, `round` — and each is a bug of its own: the site is what tells
/// root causes apart. Each offset is symbolised once per campaign.
public final class CrashSites: @unchecked Sendable {
    let binary: String
    private let lock = NSLock()
    private var cache: [String: String] = [:]
    private let addr2line: String?
    private let demangler: String?

    public init(binary: String) {
        self.binary = binary
        addr2line = Self.tool("addr2line")
        demangler = Self.tool("swift-demangle")
    }

    static func tool(_ name: String) -> String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The first frame of the binary itself in a stack trace: `Operations.arithmetic(_:_:_:) (Operations.swift:39)`.
    public func site(in standardError: String) -> String? {
        let module = URL(fileURLWithPath: binary).lastPathComponent
        for line in standardError.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 5, Int(fields[0]) != nil, fields[1] == module, let plus = fields.lastIndex(of: "+") else { continue }
            let symbol = fields[3..<plus].joined(separator: " ")
            if symbol != "<unavailable>" { return demangle(symbol) }
            guard plus + 1 < fields.count, let offset = UInt64(fields[plus + 1]) else { continue }
            return symbolise(offset)
        }
        return nil
    }

    func symbolise(_ offset: UInt64) -> String {
        let key = String(offset)
        lock.lock()
        if let known = cache[key] { lock.unlock(); return known }
        lock.unlock()
        var name = "\(URL(fileURLWithPath: binary).lastPathComponent)+\(offset)"
        // A return address: the call is the instruction before it.
        if let addr2line, let output = Self.output(addr2line, ["-f", "-e", binary, "0x" + String(offset - 1, radix: 16)]) {
            let lines = output.split(separator: "\n").map(String.init)
            if lines.count >= 2, lines[0] != "??" {
                let file = URL(fileURLWithPath: lines[1]).lastPathComponent
                name = demangle(lines[0]) + " (\(file))"
            }
        }
        lock.lock()
        cache[key] = name
        lock.unlock()
        return name
    }

    func demangle(_ symbol: String) -> String {
        guard let demangler, let output = Self.output(demangler, ["--compact", "--simplified", symbol]) else { return symbol }
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? symbol : text
    }

    static func output(_ tool: String, _ arguments: [String]) -> String? {
        let request = ProcessRunner.Request(executable: tool, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                                            input: .empty, output: .pipe, hardDeadline: 30)
        let result = ProcessRunner.run(request)
        guard result.termination == .exited(0) else { return nil }
        return result.standardOutputText
    }
}
