// ICalendar: iCalendar objects (RFC 5545) as values, read from and written
// to text, and mapped to and from CalendarModel's items. It knows nothing of
// the store: `chime import`/`export`/`subscribe` and CalDAV sync put what it
// reads into CalendarStore and hand it what to write.
//
// Imports: Foundation, Glibc and SystemCalls (the reader reads files and
// pipes in bounded chunks) and CalendarModel only. Never CalendarStore,
// AlarmScheduler or the command line.
