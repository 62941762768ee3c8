import AutoLanguage
import CEditLine
import Foundation

/// Lines from a terminal through libedit: emacs bindings (Ctrl-A/E/K/W, Alt-B/F), Up/Down and Ctrl-R through
/// the history, a redraw when the window changes size. Ctrl-C while editing abandons the line (the entry, when it
/// goes on over several lines) and gives a fresh prompt; Ctrl-D on an empty line ends the session.
final class EditLineReader: LineReader {
    private let editor: OpaquePointer
    private let handle: OpaquePointer
    /// Where entries are saved; nil once it failed (said once) or when there is none.
    private var file: HistoryFile?
    private let warn: (String) -> Void
    private var prompt: UnsafeMutablePointer<CChar>?
    /// Set by the Ctrl-C key while `el_gets` reads.
    fileprivate var interrupted = false
    private(set) var history: [String] = []

    /// What Tab offers for the line and the cursor (a byte offset).
    private let completer: (String, Int) -> CompletionResult

    /// nil when libedit can't start on this terminal; the caller then reads plain lines.
    init?(program: String, historyFile: HistoryFile?, completer: @escaping (String, Int) -> CompletionResult,
          warn: @escaping (String) -> Void) {
        guard let editor = auto_el_init(program), let handle = auto_history_init() else { return nil }
        self.editor = editor
        self.handle = handle
        self.warn = warn
        self.completer = completer
        auto_history_set_size(handle, Int32(HistoryFile.limit))
        auto_el_set_emacs(editor)
        auto_el_set_history(editor, handle)
        auto_el_set_signal(editor, 1)
        auto_el_set_clientdata(editor, Unmanaged.passUnretained(self).toOpaque())
        auto_el_set_prompt(editor) { editor in
            guard let editor, let data = auto_el_clientdata(editor) else { return nil }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().prompt
        }
        auto_el_set_no_isig(editor)
        auto_el_add_function(editor, "auto-interrupt", "Abandon the line") { editor, _ in
            if let editor, let data = auto_el_clientdata(editor) {
                Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().interrupted = true
            }
            // The line stays on the screen, marked, and the next prompt starts below it.
            FileHandle.standardOutput.write(Data("^C\n".utf8))
            return UInt8(CC_NEWLINE)
        }
        auto_el_bind(editor, "^C", "auto-interrupt")
        auto_el_add_function(editor, "auto-complete", "Complete the word at the cursor") { editor, _ in
            guard let editor, let data = auto_el_clientdata(editor) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().complete()
        }
        auto_el_bind(editor, "^I", "auto-complete")
        // Reverse search through the history as bash and zsh have it (libedit's emacs map redraws on Ctrl-R).
        auto_el_bind(editor, "^R", "em-inc-search-prev")
        auto_el_source(editor)
        // A history that can't be read gives one warning, and the session goes on without the old entries.
        if let historyFile {
            do {
                for entry in try historyFile.load() { remember(entry) }
                file = historyFile
            } catch {
                warn("history: \(error.message); this session's entries are not kept")
            }
        }
    }

    deinit {
        auto_el_end(editor)
        auto_history_end(handle)
        free(prompt)
    }

    func readLine(prompt text: String) -> String? {
        free(prompt)
        prompt = strdup(text)
        interrupted = false
        var count: Int32 = 0
        guard let line = auto_el_gets(editor, &count), count > 0 else { return nil }
        if interrupted { return "" }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Tab: one candidate replaces the word; several put in what they share, or are listed under the line.
    private func complete() -> UInt8 {
        guard let line = auto_el_line(editor)?.pointee, let buffer = line.buffer, let cursor = line.cursor, let end = line.lastchar else {
            return UInt8(CC_ERROR)
        }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: end - buffer)
        let text = String(decoding: bytes, as: UTF8.self)
        let offset = cursor - buffer
        let result = completer(text, offset)
        guard !result.candidates.isEmpty else { return UInt8(CC_REFRESH_BEEP) }
        let typed = String(decoding: bytes[result.range.lowerBound..<min(offset, bytes.count)], as: UTF8.self)
        var replacement = result.candidates.count == 1 ? result.candidates[0].text : result.commonPrefix
        if result.candidates.count == 1, result.candidates[0].kind == .intent { replacement += " " }
        if replacement.count > typed.count || (result.candidates.count == 1 && replacement != typed) {
            auto_el_delete(editor, Int32(typed.count))
            _ = auto_el_insert(editor, replacement)
            return UInt8(CC_REFRESH)
        }
        // Nothing more to insert: list them, each with its type or summary, then the prompt and line again.
        // A value is listed without the closing quote it brings.
        let shown = result.candidates.map { $0.kind == .value && $0.text.hasSuffix("\"") ? String($0.text.dropLast()) : $0.text }
        let width = shown.map(\.count).max() ?? 0
        var listing = "\n"
        for (candidate, text) in zip(result.candidates, shown).prefix(100) {
            listing += text.padding(toLength: width + 2, withPad: " ", startingAt: 0) + candidate.detail + "\n"
        }
        if result.candidates.count > 100 { listing += "… and \(result.candidates.count - 100) more\n" }
        FileHandle.standardOutput.write(Data(listing.utf8))
        return UInt8(CC_REDISPLAY)
    }

    func remember(_ entry: String) {
        // No two equal entries in a row, as bash's `ignoredups`.
        if history.last == entry { return }
        history.append(entry)
        if history.count > HistoryFile.limit { history.removeFirst(history.count - HistoryFile.limit) }
        auto_history_enter(handle, entry)
        guard let file else { return }
        do {
            try file.append(entry)
        } catch {
            warn("history: \(error.message); entries are no longer saved")
            self.file = nil
        }
    }
}
