// DaemonControl: the control socket that `chimed` listens on and `chime`
// talks to, both sides: `ControlRequest` and `ControlReply` (one JSON object
// a line), `NextFiring` (the `next` answer, also `chime next --json`), the
// listening `ControlSocket` and `DaemonClient`. What the daemon does with a
// request is AlarmScheduler's; this module only speaks the protocol, so the
// client and the socket fuzz target need nothing of the scheduler.
//
// Imports: CalendarModel, JSONValues (requests are text from outside),
// SystemCalls. Never AlarmScheduler, CalendarStore or a command-line module.
