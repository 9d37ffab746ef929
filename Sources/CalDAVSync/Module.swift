// CalDAV sync (issue 20): discovery, from an address to a user's calendars
// (RFC 6764's /.well-known/caldav, current-user-principal,
// calendar-home-set); the sync state kept in the store's file under its own
// migrations; the engine that maps a collection to a Chime calendar (up by
// conditional PUT and DELETE, down by sync-collection or ctag and ETags, a
// 412 merged against the base); conflict resolution; the runner chime and
// chimed share. Talks HTTP through HTTPDownload's HTTPClient, reads XML
// through WebDAV and iCalendar through ICalendar and CalendarExchange.
// Never imports the scheduler or a command line.
