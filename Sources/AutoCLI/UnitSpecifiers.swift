import Foundation

/// systemd.unit(5)'s `%` specifiers, resolved once, when the timer is migrated: the automation runs on the same
/// machine for the same user, so `%h` and `%t` are what they were for the timer.
struct UnitSpecifiers {
    /// Every specifier resolved here; any other is left as written, with a warning.
    let values: [Character: String]

    /// `unitName` is the file's name (`backup.service`, `sync@photos.service`); `userUnit` says whether it ran in the
    /// per-user manager (whose folders are the user's) or the system's.
    init(unitName: String, userUnit: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let withoutSuffix = unitName.lastIndex(of: ".").map { String(unitName[..<$0]) } ?? unitName
        let prefix = withoutSuffix.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? withoutSuffix
        let instance = withoutSuffix.contains("@") ? String(withoutSuffix[withoutSuffix.index(after: withoutSuffix.firstIndex(of: "@") ?? withoutSuffix.startIndex)...]) : ""
        let home = environment["HOME"] ?? NSHomeDirectory()
        let user = environment["USER"] ?? environment["LOGNAME"] ?? NSUserName()
        let uid = String(getuid())
        let runtime = environment["XDG_RUNTIME_DIR"] ?? "/run/user/\(uid)"
        var values: [Character: String] = [
            "%": "%", "n": unitName, "N": withoutSuffix, "p": prefix, "P": Self.unescaped(prefix), "i": instance, "I": Self.unescaped(instance),
            "u": user, "U": uid, "h": home, "s": environment["SHELL"] ?? "/bin/sh",
            "T": environment["TMPDIR"] ?? "/tmp", "V": environment["TMPDIR"] ?? "/var/tmp",
            "H": ProcessInfo.processInfo.hostName,
        ]
        if userUnit {
            values["t"] = runtime
            values["S"] = environment["XDG_STATE_HOME"] ?? home + "/.local/state"
            values["C"] = environment["XDG_CACHE_HOME"] ?? home + "/.cache"
            values["E"] = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
            values["L"] = (environment["XDG_STATE_HOME"] ?? home + "/.local/state") + "/log"
        } else {
            (values["t"], values["S"], values["C"], values["E"], values["L"]) = ("/run", "/var/lib", "/var/cache", "/etc", "/var/log")
        }
        self.values = values
    }

    /// systemd's unit-name escaping undone: `-` is `/`, `\x2d` a byte.
    static func unescaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(text).utf8[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "-") {
                bytes.append(UInt8(ascii: "/"))
            } else if byte == UInt8(ascii: "\\"), rest.first == UInt8(ascii: "x"), rest.count >= 3,
                      let value = UInt8(String(decoding: rest.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text with each known specifier replaced, and the specifiers it doesn't know (left as written).
    func resolve(_ text: String) -> (text: String, unknown: [String]) {
        var result = "", unknown: [String] = []
        var characters = text[...]
        while let percent = characters.firstIndex(of: "%") {
            result += characters[..<percent]
            characters = characters[percent...].dropFirst()
            guard let letter = characters.first else {
                unknown.append("%")
                result += "%"
                break
            }
            characters = characters.dropFirst()
            if let value = values[letter] {
                result += value
            } else {
                unknown.append("%\(letter)")
                result += "%\(letter)"
            }
        }
        return (result + characters, unknown)
    }
}
