// HolidayCalendars: which days are workdays and why (`WorkdayCalendar`),
// holiday years read from Chime's compact format, holiday-cn JSON and
// ICS, and the bundled data compiled in from share/holidays.
//
// Imports: CalendarModel, JSONValues (holiday-cn JSON), SystemCalls and
// Foundation only. Never the store, the
// scheduler or the command line: it parses and answers, and whoever holds
// the data (the store, a file, the network) hands it in.
