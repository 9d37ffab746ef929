// WebDAV (RFC 4918) with CalDAV (RFC 4791) and WebDAV sync (RFC 6578), as
// XML only: the request bodies a CalDAV client sends (PROPFIND,
// calendar-query, calendar-multiget, sync-collection) and the reader of the
// multistatus answers. Owns no transport and no store: CalDAVSync sends the
// bodies with HTTPDownload's client and reads the answers here. Imports
// Foundation and libxml2 (CLibXML2, its SAX2 parser) only; never a Chime
// module.
