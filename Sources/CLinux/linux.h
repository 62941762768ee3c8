// Linux interfaces the Glibc module leaves out: malloc_trim (a long-lived daemon gives freed memory back), timerfd
// (a timer on the wall clock that also tells when the clock
// is set, for the scheduler) and inotify (file events, for reloading scripts and for file triggers).
#ifndef AUTO_CLINUX_H
#define AUTO_CLINUX_H

#include <sys/timerfd.h>
#include <sys/inotify.h>
#include <malloc.h>

#endif
