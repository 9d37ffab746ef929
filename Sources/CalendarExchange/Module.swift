// CalendarExchange: iCalendar text into the store and out of it — `chime
// import` and `export`, and the refresh of subscribed calendars that `chime
// subscribe`/`refresh` and chimed share — and holiday-cn's files, which
// `chime holidays update` and chimed's look for a missing year share. It joins ICalendar (text ↔ items,
// no store), CalendarStore (upsert by UID, export query, subscriptions) and
// HTTPDownload (bounded, conditional GETs).
//
// Imports: Foundation and those three (with CalendarModel and HolidayCalendars). Never the
// command line, AlarmScheduler or DesktopNotifications: chimed calls the
// refresh, it does not call chimed.
