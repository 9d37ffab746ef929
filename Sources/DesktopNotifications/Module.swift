// DesktopNotifications: `DesktopNotifier`, the scheduler's `Notifier` on
// libnotify, with a GLib main loop on a thread of its own.
//
// Imports: CLibnotify, AlarmScheduler, CalendarModel, RecurrenceEngine.
// Never CalendarStore (it shows what the daemon hands it and reports the
// answers back) nor a command-line module; only chimed links it.
