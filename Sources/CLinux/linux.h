// Linux interfaces the Glibc module leaves out: timerfd (a timer on the wall clock that also tells when the clock
// is set, for the scheduler) and inotify (file events, for reloading scripts and for file triggers).
#ifndef AUTO_CLINUX_H
#define AUTO_CLINUX_H

#include <sys/timerfd.h>
#include <sys/inotify.h>

#endif
