// The parts of libedit (Debian's libedit-dev) the REPL uses, as plain C functions: `el_set`, `el_get` and
// `history` are variadic, which Swift can't call, and `stdin`/`stdout`/`stderr` are C globals Swift 6's strict
// concurrency refuses to read. Native histedit API only, not the readline emulation and its global state.
#ifndef AUTO_CEDITLINE_SHIM_H
#define AUTO_CEDITLINE_SHIM_H

#include <histedit.h>
#include <stdio.h>

static inline EditLine *auto_el_init(const char *program) { return el_init(program, stdin, stdout, stderr); }
static inline void auto_el_end(EditLine *el) { el_end(el); }

/// The prompt comes from `prompt`; '\1' brackets escape sequences (colours) so that they take no width.
static inline void auto_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) { el_set(el, EL_PROMPT_ESC, prompt, '\1'); }
static inline void auto_el_set_emacs(EditLine *el) { el_set(el, EL_EDITOR, "emacs"); }
static inline void auto_el_set_history(EditLine *el, History *h) { el_set(el, EL_HIST, history, h); }
static inline void auto_el_set_clientdata(EditLine *el, void *data) { el_set(el, EL_CLIENTDATA, data); }
static inline void *auto_el_clientdata(EditLine *el) {
    void *data = NULL;
    el_get(el, EL_CLIENTDATA, &data);
    return data;
}
/// Off: libedit's own handlers (SIGWINCH, SIGCONT, …) run in signal context on whichever thread takes the signal,
/// and redraw there while the editing thread may be drawing too; the REPL watches those signals itself.
static inline void auto_el_set_signal(EditLine *el, int on) { el_set(el, EL_SIGNAL, on); }
/// Characters come from `getc` rather than libedit's own read, so that the REPL can wait for a key and for a window
/// change at once, and redraw on the editing thread.
static inline void auto_el_set_getc(EditLine *el, el_rfunc_t getc) { el_set(el, EL_GETCFN, getc); }
/// Draws the prompt and the line again, from scratch.
static inline void auto_el_refresh(EditLine *el) { el_set(el, EL_REFRESH); }
/// While editing, Ctrl-C is a key (bound by the REPL) rather than SIGINT.
static inline void auto_el_set_no_isig(EditLine *el) { el_set(el, EL_SETTY, "-d", "-isig", NULL); }
static inline void auto_el_add_function(EditLine *el, const char *name, const char *help,
                                        unsigned char (*function)(EditLine *, int)) {
    el_set(el, EL_ADDFN, name, help, function);
}
static inline void auto_el_bind(EditLine *el, const char *key, const char *function) { el_set(el, EL_BIND, key, function, NULL); }
/// Reads `~/.editrc`-style settings from the file libedit looks for; a missing file is fine.
static inline void auto_el_source(EditLine *el) { el_source(el, NULL); }
static inline const char *auto_el_gets(EditLine *el, int *count) { return el_gets(el, count); }
static inline const LineInfo *auto_el_line(EditLine *el) { return el_line(el); }
static inline int auto_el_insert(EditLine *el, const char *text) { return el_insertstr(el, text); }
static inline void auto_el_delete(EditLine *el, int count) { el_deletestr(el, count); }

static inline History *auto_history_init(void) { return history_init(); }
static inline void auto_history_end(History *h) { history_end(h); }
static inline void auto_history_set_size(History *h, int size) {
    HistEvent event;
    history(h, &event, H_SETSIZE, size);
}
static inline void auto_history_enter(History *h, const char *line) {
    HistEvent event;
    history(h, &event, H_ENTER, line);
}

#endif
