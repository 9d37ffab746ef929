// <sys/timerfd.h>, which Glibc's Swift module does not export: the daemon
// learns that the wall clock was set through a CLOCK_REALTIME timerfd armed
// with TFD_TIMER_CANCEL_ON_SET (libdispatch never asks for that).
#include <sys/timerfd.h>
#include <time.h>

// TFD_TIMER_CANCEL_ON_SET is defined from an enum-less macro chain some
// Swift importers miss; spell it out.
static inline int chime_timerfd_cancel_on_set(void) { return TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET; }
