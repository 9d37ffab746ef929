// CalDAV sync (issue 20): for now discovery, from an address to a user's
// calendars (RFC 6764's /.well-known/caldav, current-user-principal,
// calendar-home-set). Talks HTTP through HTTPDownload's HTTPClient and reads
// XML through WebDAV. Never imports the store, the scheduler or a command
// line: the sync engine that maps calendars to the store comes on top.
