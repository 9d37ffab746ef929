// CalendarModel: the value types every other module shares (identifiers,
// civil dates and wall-clock times, zones read from zoneinfo, events,
// reminders, alarms, recurrence and workday rules with their RFC 5545 text).
//
// Imports: Foundation and Synchronization only. Never another Chime
// module: it sits at the bottom, so that the engine, the store, the
// scheduler and the command line all speak it, and so that it can be
// published as a library of its own.
