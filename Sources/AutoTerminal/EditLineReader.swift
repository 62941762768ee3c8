import AutoLanguage
import CEditLine
import Foundation

/// Lines from a terminal through libedit: emacs bindings (Ctrl-A/E/K/W, Alt-B/F), Up/Down through the history,
/// Ctrl-R searching it (`ReverseSearch`), a redraw when the window changes size. Ctrl-C while editing abandons the
/// line (the entry, when it goes on over several lines) and gives a fresh prompt, also on an empty line, where the
/// first time it says how to leave; Ctrl-D on an empty line ends the session.
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
    /// The prompt libedit draws: the REPL's, or the search's while Ctrl-R searches.
    private var prompt: UnsafeMutablePointer<CChar>?
    /// The REPL's prompt for the line being read.
    private var linePrompt = ""
    /// Set by the Ctrl-C key while `el_gets` reads.
    private var interrupted = false
    /// Whether the session was told, at a Ctrl-C on an empty line, that Ctrl-D leaves: once is enough.
    private var toldHowToLeave = false
    /// Ctrl-R's search while it goes on: the keys go to it, not to libedit (see `readCharacter`).
    private var search: ReverseSearch?
    /// Keys read but not yet given to libedit: the one that ended a search, which then does what it does.
    private var pendingCharacters: [wchar_t] = []
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
            guard let editor, let data = auto_el_clientdata(editor) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().interrupt()
        }
        auto_el_bind(editor, "^C", "auto-interrupt")
        auto_el_add_function(editor, "auto-complete", "Complete the word at the cursor") { editor, _ in
            guard let editor, let data = auto_el_clientdata(editor) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().complete()
        }
        auto_el_bind(editor, "^I", "auto-complete")
        // Reverse search through the history as bash and zsh have it (libedit's emacs map redraws on Ctrl-R).
        auto_el_add_function(editor, "auto-search", "Search back through the history") { editor, _ in
            guard let editor, let data = auto_el_clientdata(editor) else { return UInt8(CC_ERROR) }
            return Unmanaged<EditLineReader>.fromOpaque(data).takeUnretainedValue().showSearch()
        }
        auto_el_bind(editor, "^R", "auto-search")
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
        linePrompt = text
        show(prompt: text)
        interrupted = false
        search = nil
        var count: Int32 = 0
        let line = auto_el_gets(editor, &count)
        // Before the end of input: libedit gives no line for an empty one, whatever ended it.
        if interrupted { return "" }
        guard let line, count > 0 else { return nil }
        var text = String(cString: line)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    private func show(prompt text: String) {
        free(prompt)
        prompt = strdup(text)
    }

    /// Ctrl-C while editing: the line is abandoned. The line stays on the screen, marked, and the next prompt starts
    /// below it; on an empty line, the first time, a word on how to leave, since Ctrl-C ends other programs.
    private func interrupt() -> UInt8 {
        interrupted = true
        var said = "^C\n"
        if let line = auto_el_line(editor)?.pointee, line.buffer == line.lastchar, !toldHowToLeave {
            said += "(Ctrl-D on an empty line leaves, as :quit does)\n"
            toldHowToLeave = true
        }
        FileHandle.standardOutput.write(Data(said.utf8))
        return UInt8(CC_NEWLINE)
    }

    /// Ctrl-R, and every key while the search goes on (`readCharacter` hands them to the search, then gives libedit
    /// a Ctrl-R so that it draws what the search shows): the search's prompt and the entry found, or, once the search
    /// is over, the REPL's prompt and the line it left.
    private func showSearch() -> UInt8 {
        if search == nil { search = ReverseSearch(entries: history, original: currentLine) }
        guard let search else { return UInt8(CC_ERROR) }
        replaceLine(with: search.text, cursor: search.cursor)
        if search.isDone {
            self.search = nil
            show(prompt: linePrompt)
        } else {
            show(prompt: search.prompt)
        }
        return UInt8(CC_REFRESH)
    }

    private var currentLine: String {
        guard let line = auto_el_line(editor)?.pointee, let buffer = line.buffer, let end = line.lastchar else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: buffer, count: end - buffer), as: UTF8.self)
    }

    /// The line becomes `text`, with the cursor `cursor` characters into it; libedit counts Unicode scalars.
    private func replaceLine(with text: String, cursor: Int) {
        let old = Int32(currentLine.unicodeScalars.count)
        _ = auto_el_move_cursor(editor, old)
        auto_el_delete(editor, old)
        if !text.isEmpty { _ = auto_el_insert(editor, text) }
        _ = auto_el_move_cursor(editor, Int32(cursor - text.unicodeScalars.count))
    }

    /// The next key's character for libedit: 1 when one is read, 0 at the end of input, -1 on an error. While Ctrl-R
    /// searches, the keys go to the search, and libedit is given Ctrl-R to draw it; a key that ends the search is
    /// given to libedit after that. A window change while waiting redraws the line for the new width.
    private func readCharacter(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if !pendingCharacters.isEmpty {
            character.pointee = pendingCharacters.removeFirst()
            return 1
        }
        let read = readKey(into: character)
        guard read == 1, var search else { return read }
        switch character.pointee {
        case Self.controlR: search.older()
        case 0x7F, 0x08: search.erase()
        case 0x07: search.cancel()  // Ctrl-G
        case let key where key >= 0x20: search.type(Character(Unicode.Scalar(UInt32(key)) ?? "\u{FFFD}"))
        default:
            search.accept()
            pendingCharacters.append(character.pointee)
        }
        self.search = search
        character.pointee = Self.controlR
        return 1
    }

    private static let controlR: wchar_t = 0x12

    /// A key's character as typed: input is UTF-8; an invalid sequence is U+FFFD.
    private func readKey(into character: UnsafeMutablePointer<wchar_t>) -> Int32 {
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
