import Testing
import WebDAV

@Suite("WebDAV and CalDAV request bodies")
struct RequestBodyTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("a PROPFIND names each property in its namespace, each namespace declared once on the root")
    func propfind() {
        let body = text(DAVRequestBody.propfind([.displayName, .collectionTag, .supportedCalendarComponentSet, DAVName("urn:example:x", "colour")]))
        #expect(body == #"<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:" xmlns:CS="http://calendarserver.org/ns/" xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:N3="urn:example:x"><D:prop><D:displayname/><CS:getctag/><C:supported-calendar-component-set/><N3:colour/></D:prop></D:propfind>"#)
    }

    @Test("a calendar-query filters by component and, when given, a time range (RFC 4791 §7.8)")
    func calendarQuery() {
        let body = text(DAVRequestBody.calendarQuery(component: "VTODO", properties: [.entityTag], start: "20261201T000000Z", end: "20270101T000000Z"))
        #expect(body == #"<?xml version="1.0" encoding="utf-8"?><C:calendar-query xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><D:getetag/></D:prop><C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VTODO"><C:time-range end="20270101T000000Z" start="20261201T000000Z"/></C:comp-filter></C:comp-filter></C:filter></C:calendar-query>"#)
        let open = text(DAVRequestBody.calendarQuery(component: "VEVENT", properties: [.entityTag]))
        #expect(!open.contains("time-range"))
    }

    @Test("a calendar-multiget lists the hrefs as given, XML-escaped (RFC 4791 §7.9)")
    func calendarMultiget() {
        let body = text(DAVRequestBody.calendarMultiget(["/cal/a%40b.ics", "/cal/x&y<z>.ics"], properties: [.entityTag, .calendarData]))
        #expect(body == #"<?xml version="1.0" encoding="utf-8"?><C:calendar-multiget xmlns:C="urn:ietf:params:xml:ns:caldav" xmlns:D="DAV:"><D:prop><D:getetag/><C:calendar-data/></D:prop><D:href>/cal/a%40b.ics</D:href><D:href>/cal/x&amp;y&lt;z&gt;.ics</D:href></C:calendar-multiget>"#)
    }

    @Test("a sync-collection sends the token (empty for the first sync), level 1 and a limit when given (RFC 6578 §3.2)")
    func syncCollection() {
        let first = text(DAVRequestBody.syncCollection(token: nil, properties: [.entityTag]))
        #expect(first == #"<?xml version="1.0" encoding="utf-8"?><D:sync-collection xmlns:D="DAV:"><D:sync-token/><D:sync-level>1</D:sync-level><D:prop><D:getetag/></D:prop></D:sync-collection>"#)
        let next = text(DAVRequestBody.syncCollection(token: "http://example.com/ns/sync/1234?a=1&b='2'", properties: [.entityTag], limit: 100))
        #expect(next.contains("<D:sync-token>http://example.com/ns/sync/1234?a=1&amp;b=&apos;2&apos;</D:sync-token>"))
        #expect(next.contains("<D:limit><D:nresults>100</D:nresults></D:limit>"))
    }

    @Test("a body reads back through the multistatus reader's XML parser with its text intact")
    func escapingRoundTrip() throws {
        // A multiget body is not a multistatus, so the reader names its root: proof it parsed.
        let body = DAVRequestBody.calendarMultiget(["/a&b\"c'<d>\u{1}e"], properties: [.entityTag])
        #expect(String(decoding: body, as: UTF8.self).contains("/a&amp;b&quot;c&apos;&lt;d&gt;\u{FFFD}e"))
        do {
            _ = try Multistatus.read(body, requestURL: "http://127.0.0.1/")
            Issue.record("a multiget body read as a multistatus")
        } catch {
            #expect(error.code == .notMultistatus)
            #expect(error.description.contains("{urn:ietf:params:xml:ns:caldav}calendar-multiget"))
        }
    }
}
