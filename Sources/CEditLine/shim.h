// The parts of libedit (Debian's libedit-dev) the REPL uses, as plain C functions: `el_set`, `el_get` and
// `history` are variadic, which Swift can't call, and `stdin`/`stdout`/`stderr` are C globals Swift 6's strict
// concurrency refuses to read. Native histedit API only, not the readline emulation and its global state.
//
// libedit is loaded when the REPL starts (dlopen), not linked: linked, it and the three libraries it needs
// (libtinfo, libbsd, libmd) were mapped and relocated on every start of every command, a quarter of a millisecond
// of `auto -e 'show 1'`. Without it the REPL reads plain lines (`auto_el_init` gives NULL, `auto_editline_error`
// says why).
#ifndef AUTO_CEDITLINE_SHIM_H
#define AUTO_CEDITLINE_SHIM_H

#include <dlfcn.h>
#include <histedit.h>
#include <pthread.h>
#include <stdio.h>

struct auto_editline {
    const char *error;
    __typeof__(&el_init) el_init;
    __typeof__(&el_end) el_end;
    __typeof__(&el_set) el_set;
    __typeof__(&el_get) el_get;
    __typeof__(&el_source) el_source;
    __typeof__(&el_gets) el_gets;
    __typeof__(&el_line) el_line;
    __typeof__(&el_insertstr) el_insertstr;
    __typeof__(&el_deletestr) el_deletestr;
    __typeof__(&el_cursor) el_cursor;
    __typeof__(&el_resize) el_resize;
    __typeof__(&history_init) history_init;
    __typeof__(&history_end) history_end;
    __typeof__(&history) history;
};

/// The table, filled by `auto_editline_load_once`. Statics inside functions: Swift emits a header's inline functions
/// with their local statics, but not a header's static variables.
static inline struct auto_editline *auto_editline_storage(void) {
    static struct auto_editline functions;
    return &functions;
}

static inline void auto_editline_load_once(void) {
    struct auto_editline *f = auto_editline_storage();
    // The names Debian and Ubuntu (2), Fedora (0) and a development package give the library.
    const char *names[] = { "libedit.so.2", "libedit.so.0", "libedit.so" };
    void *library = NULL;
    for (unsigned i = 0; i < sizeof names / sizeof names[0] && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        f->error = "libedit could not be loaded (libedit.so.2: install libedit2)";
        return;
    }
#define AUTO_EDITLINE_FIND(name) \
    if ((f->name = (__typeof__(f->name))dlsym(library, #name)) == NULL) { f->error = "libedit lacks " #name; return; }
    AUTO_EDITLINE_FIND(el_init) AUTO_EDITLINE_FIND(el_end) AUTO_EDITLINE_FIND(el_set) AUTO_EDITLINE_FIND(el_get)
    AUTO_EDITLINE_FIND(el_source) AUTO_EDITLINE_FIND(el_gets) AUTO_EDITLINE_FIND(el_line) AUTO_EDITLINE_FIND(el_insertstr)
    AUTO_EDITLINE_FIND(el_deletestr) AUTO_EDITLINE_FIND(el_cursor) AUTO_EDITLINE_FIND(el_resize) AUTO_EDITLINE_FIND(history_init)
    AUTO_EDITLINE_FIND(history_end) AUTO_EDITLINE_FIND(history)
#undef AUTO_EDITLINE_FIND
}

/// libedit's functions, loaded the first time.
static inline struct auto_editline *auto_editline(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, auto_editline_load_once);
    return auto_editline_storage();
}

/// Why libedit can't be used (it is missing, or lacks a function); NULL when it can.
static inline const char *auto_editline_error(void) { return auto_editline()->error; }

#define AUTO_EL (auto_editline())

static inline EditLine *auto_el_init(const char *program) {
    if (auto_editline_error() != NULL) return NULL;
    return AUTO_EL->el_init(program, stdin, stdout, stderr);
}
static inline void auto_el_end(EditLine *el) { AUTO_EL->el_end(el); }

/// The prompt comes from `prompt`; '\1' brackets escape sequences (colours) so that they take no width.
static inline void auto_el_set_prompt(EditLine *el, char *(*prompt)(EditLine *)) { AUTO_EL->el_set(el, EL_PROMPT_ESC, prompt, '\1'); }
static inline void auto_el_set_emacs(EditLine *el) { AUTO_EL->el_set(el, EL_EDITOR, "emacs"); }
static inline void auto_el_set_history(EditLine *el, History *h) { AUTO_EL->el_set(el, EL_HIST, AUTO_EL->history, h); }
static inline void auto_el_set_clientdata(EditLine *el, void *data) { AUTO_EL->el_set(el, EL_CLIENTDATA, data); }
static inline void *auto_el_clientdata(EditLine *el) {
    void *data = NULL;
    AUTO_EL->el_get(el, EL_CLIENTDATA, &data);
    return data;
}
/// Off: libedit's own handlers (SIGWINCH, SIGCONT, …) run in signal context on whichever thread takes the signal,
/// and redraw there while the editing thread may be drawing too; the REPL watches those signals itself.
static inline void auto_el_set_signal(EditLine *el, int on) { AUTO_EL->el_set(el, EL_SIGNAL, on); }
/// Characters come from `getc` rather than libedit's own read, so that the REPL can wait for a key and for a window
/// change at once, and redraw on the editing thread.
static inline void auto_el_set_getc(EditLine *el, el_rfunc_t getc) { AUTO_EL->el_set(el, EL_GETCFN, getc); }
/// Draws the prompt and the line again, from scratch.
static inline void auto_el_refresh(EditLine *el) { AUTO_EL->el_set(el, EL_REFRESH); }
/// While editing, Ctrl-C is a key (bound by the REPL) rather than SIGINT.
static inline void auto_el_set_no_isig(EditLine *el) { AUTO_EL->el_set(el, EL_SETTY, "-d", "-isig", NULL); }
static inline void auto_el_add_function(EditLine *el, const char *name, const char *help,
                                        unsigned char (*function)(EditLine *, int)) {
    AUTO_EL->el_set(el, EL_ADDFN, name, help, function);
}
static inline void auto_el_bind(EditLine *el, const char *key, const char *function) { AUTO_EL->el_set(el, EL_BIND, key, function, NULL); }
/// Reads `~/.editrc`-style settings from the file libedit looks for; a missing file is fine.
static inline void auto_el_source(EditLine *el) { AUTO_EL->el_source(el, NULL); }
static inline const char *auto_el_gets(EditLine *el, int *count) { return AUTO_EL->el_gets(el, count); }
static inline const LineInfo *auto_el_line(EditLine *el) { return AUTO_EL->el_line(el); }
static inline int auto_el_insert(EditLine *el, const char *text) { return AUTO_EL->el_insertstr(el, text); }
static inline void auto_el_delete(EditLine *el, int count) { AUTO_EL->el_deletestr(el, count); }
/// Moves the cursor by `count` characters (left when negative), kept within the line; the offset it ends at.
static inline int auto_el_move_cursor(EditLine *el, int count) { return AUTO_EL->el_cursor(el, count); }
/// Takes the terminal's new size.
static inline void auto_el_resize(EditLine *el) { AUTO_EL->el_resize(el); }

static inline History *auto_history_init(void) { return AUTO_EL->history_init(); }
static inline void auto_history_end(History *h) { AUTO_EL->history_end(h); }
static inline void auto_history_set_size(History *h, int size) {
    HistEvent event;
    AUTO_EL->history(h, &event, H_SETSIZE, size);
}
static inline void auto_history_enter(History *h, const char *line) {
    HistEvent event;
    AUTO_EL->history(h, &event, H_ENTER, line);
}

#endif
