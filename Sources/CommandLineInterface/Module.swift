// CommandLineInterface: the `chime` commands, as a library the tests drive
// in process; `Sources/chime` only calls it.
//
// Imports: anything below it (model, engine, store, scheduler, holidays,
// geofencing, CCurl for `chime holidays update`). Never
// DesktopNotifications: `chime` must not load libnotify.
