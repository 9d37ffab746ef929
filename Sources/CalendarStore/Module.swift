// CalendarStore: EventKit's store on one SQLite file: calendars, events,
// reminders and their alarms, spans of recurring series, batching,
// range queries, holiday data and a change counter other processes watch.
// It holds what a person wrote, which is what may be exported or synced;
// what one machine showed (deliveries, snoozes, geofence states) is the
// scheduler's ledger, not the store's.
//
// Imports: SQLiteDatabase, CalendarModel, RecurrenceEngine, HolidayCalendars.
// Never AlarmScheduler, DesktopNotifications or a command-line module.
