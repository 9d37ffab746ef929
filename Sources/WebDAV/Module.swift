// WebDAV (RFC 4918) with CalDAV (RFC 4791) and WebDAV sync (RFC 6578), as
// XML only: the request bodies a CalDAV client sends (PROPFIND,
// calendar-query, calendar-multiget, sync-collection) and the reader of the
// multistatus answers. Owns no transport and no store: CalDAVSync sends the
// bodies with HTTPDownload's client and reads the answers here. Imports
// Foundation and FoundationXML (XMLParser, on libxml2) only; never a Chime
// module.
