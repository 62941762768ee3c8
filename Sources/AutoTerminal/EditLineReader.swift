import AutoLanguage
import CEditLine
import Foundation

/// Lines from a terminal through libedit: emacs bindings (Ctrl-A/E/K/W, Alt-B/F), Up/Down and Ctrl-R through
/// the history, a redraw when the window changes size. Ctrl-C while editing abandons the line (the entry, when it
/// goes on over several lines) and gives a fresh prompt; Ctrl-D on an empty line ends the session.
///
/// Keys are read here, not by libedit (`readCharacter`): waiting for a key and for a window change at once lets the
/// redraw happen on the editing thread, between keys. libedit's own SIGWINCH handler redraws in signal context on
/// whichever thread takes the signal, and crashed the REPL when that was not the one drawing.
package final class EditLineReader: LineReader {
    private let editor: OpaquePointer
    private let handle: OpaquePointer
    /// Where entries are saved; nil once it failed (said once) or when there is none.
    private var file: HistoryFile?
    private let warn: (String) -> Void
    private var prompt: UnsafeMutablePointer<CChar>?
    /// Set by the Ctrl-C key while `el_gets` reads.
    fileprivate var interrupted = false
    package private(set) var history: [String] = []

    /// What Tab offers for the line and the cursor (a byte offset).
    private let completer: (String, Int) -> CompletionResult
    private let windowChanges = WindowChanges()
    /// A byte read after an invalid UTF-8 sequence, which starts the next character.
    private var pendingByte: UInt8?

    /// Why libedit can't be used here (it is not installed), loading it the first time; nil when it can.
    package static var unavailableReason: String? { auto_editline_error().map { String(cString: $0) } }

    /// nil when libedit can't start on this terminal, or is missing (`unavailableReason`); the caller then reads
    /// plain lines.
    package init?(program: String, historyFile: HistoryFile?, completer: @escaping (String, Int) -> CompletionResult,
          warn: @escaping (String) -> Void) {
        Self.useUTF8Characters()
        guard let editor = auto_el_init(program), let handle = auto_history_init() else { return nil }
        self.editor = editor
        self.handle = handle
        self.warn = warn
        self.completer = completer
        auto_history_set_size(handle, Int32(HistoryFile.limit))
        auto_el_set_emacs(editor)
        auto_el_set_history(editor, handle)
        auto_el_set_signal(editor, 0)
        auto_el_set_clientdata(editor, Unmanaged.passUnretained(self).toOpaque())
        auto_el_set_getc(editor) { editor, character in
            guard let editor, let character, let data = auto_el_clientdata(editor) else { return -1 }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().readCharacter(into: character)
        }
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

    /// libedit writes the line's characters through the C library's locale, in which, unset, only ASCII can be
    /// written: everything else would vanish from the line. The REPL reads and writes UTF-8 whatever the locale.
    private static func useUTF8Characters() {
        _ = setlocale(LC_CTYPE, "")
        if let codeset = nl_langinfo(nl_item(CODESET)), String(cString: codeset) == "UTF-8" { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    deinit {
        auto_el_end(editor)
        auto_history_end(handle)
        free(prompt)
    }

    package func readLine(prompt text: String) -> String? {
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

    /// The next key's character for libedit: 1 when one is read, 0 at the end of input, -1 on an error. A window
    /// change while waiting redraws the line for the new width. Input is UTF-8; an invalid sequence is U+FFFD.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        guard let lead = pendingByte.take() ?? nextByte() else { return 0 }
        let length = switch lead {
        case 0..<0x80: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
        var bytes = [lead]
        while bytes.count < length {
            guard let next = nextByte() else { break }
            guard next & 0xC0 == 0x80 else {
                pendingByte = next
                break
            }
            bytes.append(next)
        }
        let scalar = bytes.count == length ? String(decoding: bytes, as: UTF8.self).unicodeScalars.first : nil
        character.pointee = wchar_t(bitPattern: scalar?.value ?? 0xFFFD)
        return 1
    }

    /// A byte from the terminal, waiting for it; nil at the end of input or on an error.
    private func nextByte() -> UInt8? {
        while true {
            var watched = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: windowChanges.descriptor, events: Int16(POLLIN), revents: 0)]
            if poll(&watched, 2, -1) < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if watched[1].revents & Int16(POLLIN) != 0 {
                windowChanges.drain()
                redrawForNewWidth()
                continue
            }
            guard watched[0].revents != 0 else { continue }
            var byte: UInt8 = 0
            let count = read(0, &byte, 1)
            if count == 1 { return byte }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return nil
        }
    }

    /// The width the line was last drawn for.
    private var width = StandardStream.output.terminalColumns ?? 80

    /// Draws the prompt and the line again after the window changed size: back up to the row the prompt is on (the
    /// rows the text before the cursor took at the old width), clear from there down, draw for the new width.
    private func redrawForNewWidth() {
        let old = width
        width = StandardStream.output.terminalColumns ?? 80
        var rowsUp = 0
        if let line = auto_el_line(editor)?.pointee, let buffer = line.buffer, let cursor = line.cursor {
            let typed = String(decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
            rowsUp = (promptWidth + typed.count) / max(1, old)
        }
        FileHandle.standardOutput.write(Data(((rowsUp > 0 ? "\u{1B}[\(rowsUp)A" : "") + "\r\u{1B}[J").utf8))
        auto_el_resize(editor)
        auto_el_refresh(editor)
    }

    /// The prompt's width on the screen: its text without the escapes between `\u{1}` marks.
    private var promptWidth: Int {
        guard let prompt else { return 0 }
        return String(cString: prompt).split(separator: "\u{1}", omittingEmptySubsequences: false)
            .enumerated().filter { $0.offset % 2 == 0 }.map(\.element.count).reduce(0, +)
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

    package func remember(_ entry: String) {
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

/// SIGWINCH (and SIGCONT, after which the screen may need drawing again) as a byte on a pipe the editor polls
/// beside the terminal. Unchecked: the descriptors and the sources are set once, in `init`.
private final class WindowChanges: @unchecked Sendable {
    private var pipe: [Int32] = [-1, -1]
    private var sources: [any DispatchSourceSignal] = []

    package init() {
        guard Glibc.pipe(&pipe) == 0 else { return }
        for descriptor in pipe {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        let writer = pipe[1]
        for number in [SIGWINCH, SIGCONT] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                var byte: UInt8 = 1
                _ = write(writer, &byte, 1)  // a full pipe already says the window changed
            }
            source.resume()
            sources.append(source)
        }
    }

    /// What the editor polls; -1 (never ready) when no pipe could be made.
    package var descriptor: Int32 { pipe[0] }

    package func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(pipe[0], &bytes, bytes.count) > 0 {}
    }

    deinit {
        for source in sources { source.cancel() }
        for descriptor in pipe where descriptor >= 0 { close(descriptor) }
    }
}
