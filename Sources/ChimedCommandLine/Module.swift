// ChimedCommandLine: `chimed`'s command line: its options, the store and
// notifier it opens, and the daemon it runs.
//
// Imports: CommandLineSupport, AlarmScheduler, CalendarStore, CalendarModel,
// DesktopNotifications.
// Never CommandLineInterface: chimed needs none of chime's commands, nor
// their start-up cost.
