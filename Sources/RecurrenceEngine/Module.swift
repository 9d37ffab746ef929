// RecurrenceEngine: expanding and seeking recurrences (`Recurrence`), and
// the compiled plans that series starting at one time of day share.
//
// Imports: CalendarModel and Foundation only. Never the store, the
// scheduler or anything with I/O: it is pure computation on values, a
// library of its own, tested against RFC 5545 and Foundation.
