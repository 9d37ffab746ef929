// CommandLineInterface: the `chime` commands, as a library the tests drive
// in process; `Sources/chime` only calls it.
//
// Imports: CommandLineSupport (re-exported) and anything below it (model,
// engine, store, scheduler, holidays, geofencing, SystemCalls, CCurl for
// `chime holidays update`). Never
// DesktopNotifications: `chime` must not load libnotify.
