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

    /// nil when libedit can't start on this terminal; the caller then reads plain lines.
    init?(program: String, historyFile: HistoryFile?, warn: @escaping (String) -> Void) {
        guard let editor = auto_el_init(program), let handle = auto_history_init() else { return nil }
        self.editor = editor
        self.handle = handle
        self.warn = warn
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
            return UInt8(CC_NEWLINE)
        }
        auto_el_bind(editor, "^C", "auto-interrupt")
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
