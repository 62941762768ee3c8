// Linux interfaces the Glibc module leaves out: malloc_trim (a long-lived daemon gives freed memory back), timerfd
// (a timer on the wall clock that also tells when the clock is set, for the scheduler), inotify (file events, for
// reloading scripts and for file triggers, and an eventfd to wake their reading thread), open-file-description locks (the run store's lock file), a thread's
// stack (whether a small compile fits on the caller's), statx (a file's birth time) and posix_spawn's closefrom.
#ifndef AUTO_CLINUX_H
#define AUTO_CLINUX_H

#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <sys/eventfd.h>
#include <malloc.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/types.h>
#include <linux/stat.h>
#include <spawn.h>

// Glibc declares these only under _GNU_SOURCE, which the Glibc module is built without; the values are the kernel's
// (include/uapi/asm-generic/fcntl.h), the same on every architecture.
// The attributes of a running thread, its stack's place and size among them (a GNU extension).
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);
// This thread's id, the process's id on its main thread.
extern pid_t gettid(void);
// A spawned program gets no descriptor from `from` on (glibc 2.34): one that outlives its spawner's other children
// must not keep their pipes open.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
// A file's status with the fields the file system has, its birth time among them.
extern int statx(int directory, const char *path, int flags, unsigned int mask, struct statx *status);

#ifndef F_OFD_SETLK
#define F_OFD_SETLK 37
#endif
#ifndef F_OFD_SETLKW
#define F_OFD_SETLKW 38
#endif

#endif
