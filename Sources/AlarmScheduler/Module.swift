// AlarmScheduler: when each alarm rings and that it rings once. The
// planner (the coming firings of every alarm, in order, with their
// reasons), the standing plan between wakes, the daemon (timer, watches,
// delivery, control socket, location) on a `DaemonClock` it is given (the
// wall clock, or tests' `ManualClock`), the `Notifier` protocol, and the
// ledger: this machine's memory of what it showed, in the store's file
// under migrations of its own, never exported or synced.
//
// Imports: DaemonControl (the control socket's requests and replies),
// CalendarModel, RecurrenceEngine, CalendarStore, HolidayCalendars,
// Geofencing, SQLiteDatabase (the ledger's tables), SystemCalls, CTimerFD.
// Never DesktopNotifications (it implements `Notifier`, not the other way
// round) nor a command-line module.
