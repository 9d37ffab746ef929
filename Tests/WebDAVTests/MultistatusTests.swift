import Foundation
import Testing
import WebDAV

@Suite("Multistatus replies read")
struct MultistatusTests {
    private func read(_ xml: String, _ url: String = "http://webdav.example.com/home/newspaper/") throws -> Multistatus {
        try Multistatus.read(Array(xml.utf8), requestURL: url)
    }

    private func fixture(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures"), "the fixture \(name).xml is missing")
        return [UInt8](try Data(contentsOf: url))
    }

    private func failure(_ xml: String, limits: MultistatusLimits = MultistatusLimits()) -> WebDAVError? {
        do {
            _ = try Multistatus.read(Array(xml.utf8), requestURL: "http://127.0.0.1/cal/", limits: limits)
            Issue.record("read without complaint: \(xml.prefix(200))")
            return nil
        } catch {
            return error
        }
    }

    @Test("RFC 6578 §6.1's initial sync: members with ETags, a property not found, and the new token")
    func initialSync() throws {
        let reply = try read("""
            <?xml version="1.0" encoding="utf-8" ?>
            <D:multistatus xmlns:D="DAV:">
              <D:response>
                <D:href>http://webdav.example.com/home/newspaper/entries/174.xml</D:href>
                <D:propstat>
                  <D:prop>
                    <D:getetag>"00001-abcd1"</D:getetag>
                    <R:bigbox xmlns:R="urn:ns.example.com:boxschema">
                      <R:BoxType>Box type A</R:BoxType>
                    </R:bigbox>
                  </D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
              </D:response>
              <D:response>
                <D:href>http://webdav.example.com/home/newspaper/entries/178.xml</D:href>
                <D:propstat>
                  <D:prop>
                    <D:getetag>"00003-abcd1"</D:getetag>
                  </D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
                <D:propstat>
                  <D:prop>
                    <R:bigbox xmlns:R="urn:ns.example.com:boxschema"/>
                  </D:prop>
                  <D:status>HTTP/1.1 404 Not Found</D:status>
                </D:propstat>
              </D:response>
              <D:sync-token>http://example.com/ns/sync/1234</D:sync-token>
            </D:multistatus>
            """)
        #expect(reply.syncToken == "http://example.com/ns/sync/1234")
        #expect(!reply.isTruncated)
        #expect(reply.responses.map(\.url) == ["http://webdav.example.com/home/newspaper/entries/174.xml",
                                               "http://webdav.example.com/home/newspaper/entries/178.xml"])
        #expect(reply.responses.map(\.entityTag) == ["\"00001-abcd1\"", "\"00003-abcd1\""])
        let box = DAVName("urn:ns.example.com:boxschema", "bigbox")
        #expect(reply.responses[0].property(box)?.child(DAVName("urn:ns.example.com:boxschema", "BoxType"))?.text == "Box type A")
        #expect(reply.responses[1].property(box) == nil)
        #expect(reply.responses[1].status(of: box) == 404)
        #expect(reply.responses[1].status == nil)
    }

    @Test("RFC 6578 §6.2–6.3: a removed member is a response with 404, and a 507 for the collection marks the result truncated")
    func removalAndTruncation() throws {
        let reply = try read("""
            <?xml version="1.0" encoding="utf-8" ?>
            <D:multistatus xmlns:D="DAV:">
              <D:response>
                <D:href>http://webdav.example.com/home/newspaper/entries/162.xml</D:href>
                <D:status>HTTP/1.1 404 Not Found</D:status>
              </D:response>
              <D:response>
                <D:href>http://webdav.example.com/home/newspaper/</D:href>
                <D:status>HTTP/1.1 507 Insufficient Storage</D:status>
                <D:error><D:number-of-matches-within-limits/></D:error>
              </D:response>
              <D:sync-token>http://example.com/ns/sync/1233</D:sync-token>
            </D:multistatus>
            """)
        #expect(reply.isTruncated)
        #expect(reply.responses.count == 1)
        #expect(reply.responses[0].status == 404)
        #expect(reply.responses[0].path == "/home/newspaper/entries/162.xml")
        #expect(reply.syncToken == "http://example.com/ns/sync/1233")
    }

    @Test("RFC 4791 §7.9.1's multiget: calendar data exactly as sent, and a missing resource's 404")
    func multiget() throws {
        let reply = try read("""
            <?xml version="1.0" encoding="utf-8" ?>
            <D:multistatus xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
              <D:response>
                <D:href>http://cal.example.com/bernard/calendar/abcd1.ics</D:href>
                <D:propstat>
                  <D:prop>
                    <D:getetag>"fffff-abcd1"</D:getetag>
                    <C:calendar-data>BEGIN:VCALENDAR
            VERSION:2.0
            BEGIN:VEVENT
            UID:abcd1
            SUMMARY:Bread &amp; butter
            END:VEVENT
            END:VCALENDAR
            </C:calendar-data>
                  </D:prop>
                  <D:status>HTTP/1.1 200 OK</D:status>
                </D:propstat>
              </D:response>
              <D:response>
                <D:href>http://cal.example.com/bernard/calendar/mtg1.ics</D:href>
                <D:status>HTTP/1.1 404 Not Found</D:status>
              </D:response>
            </D:multistatus>
            """, "http://cal.example.com/bernard/calendar/")
        #expect(reply.responses[0].calendarData == "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:abcd1\nSUMMARY:Bread & butter\nEND:VEVENT\nEND:VCALENDAR\n")
        #expect(reply.responses[1].status == 404)
        #expect(reply.responses[1].calendarData == nil)
    }

    @Test("control characters XML cannot hold, as a careless server copies them from an item, read as U+FFFD, so the rest of the reply still reads")
    func controlCharactersAreMended() throws {
        let reply = try read("<multistatus xmlns=\"DAV:\" xmlns:C=\"urn:ietf:params:xml:ns:caldav\"><response><href>/c/a\u{1}.ics</href><propstat><prop>"
                             + "<C:calendar-data>BEGIN:VCALENDAR\r\nSUMMARY:bell\u{7}\u{0}here\ttab\r\nEND:VCALENDAR\r\n</C:calendar-data></prop>"
                             + "<status>HTTP/1.1 200 OK</status></propstat></response>"
                             + "<response><href>/c/b.ics</href><propstat><prop><getetag>\"b\"</getetag></prop><status>HTTP/1.1 200 OK</status></propstat></response>"
                             + "</multistatus>", "http://127.0.0.1/c/")
        #expect(reply.responses.map(\.path) == ["/c/a\u{FFFD}.ics", "/c/b.ics"])
        // XML reads each CRLF as LF (XML 1.0 §2.11).
        #expect(reply.responses.first?.calendarData == "BEGIN:VCALENDAR\nSUMMARY:bell\u{FFFD}\u{FFFD}here\ttab\nEND:VCALENDAR\n")
        #expect(reply.responses.last?.entityTag == "\"b\"")
    }

    @Test("calendar data in CDATA is taken as it is")
    func cdata() throws {
        let reply = try read(#"<multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/c/a.ics</href><propstat><prop><C:calendar-data><![CDATA[BEGIN:VCALENDAR\#r\#nSUMMARY:a<b>&c\#r\#nEND:VCALENDAR\#r\#n]]></C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"#)
        #expect(reply.responses[0].calendarData == "BEGIN:VCALENDAR\r\nSUMMARY:a<b>&c\r\nEND:VCALENDAR\r\n")
    }

    @Test("hrefs resolve against the request's address: absolute paths, full URLs and relative ones; paths are percent-decoded")
    func hrefs() throws {
        let reply = try read(#"<d:multistatus xmlns:d="DAV:"><d:response><d:href> /cal/todo-1%40phone.ics </d:href><d:status>HTTP/1.1 200 OK</d:status></d:response><d:response><d:href>https://other.example/x/Caf%C3%A9.ics</d:href><d:status>HTTP/1.1 200 OK</d:status></d:response><d:response><d:href>b%20c.ics</d:href><d:status>HTTP/1.1 200 OK</d:status></d:response></d:multistatus>"#,
                             "https://dav.example:8443/cal/?x=1")
        #expect(reply.responses.map(\.href) == ["/cal/todo-1%40phone.ics", "https://other.example/x/Caf%C3%A9.ics", "b%20c.ics"])
        #expect(reply.responses.map(\.url) == ["https://dav.example:8443/cal/todo-1%40phone.ics", "https://other.example/x/Caf%C3%A9.ics",
                                               "https://dav.example:8443/cal/b%20c.ics"])
        #expect(reply.responses.map(\.path) == ["/cal/todo-1@phone.ics", "/x/Café.ics", "/cal/b c.ics"])
        #expect(DAVHref.decodedPath("/bad%ZZ%C3") == "/bad%ZZ%C3")
        #expect(DAVHref.decodedPath("https://h.example:8443/a%20b/c.ics?x=1#y") == "/a b/c.ics")
        #expect(DAVHref.decodedPath("https://h.example") == "")
        #expect(DAVHref.decodedPath("https://h.example?q") == "")
        #expect(DAVHref.decodedPath("/p%2Fq#f") == "/p/q")
        #expect(DAVHref.decodedPath("mailto:ann@example.com") == "mailto:ann@example.com")
    }

    @Test("Radicale's discovery replies: the principal, its home (the principal itself), and the calendar the phone made")
    func radicaleDiscovery() throws {
        let base = "http://127.0.0.1:35232"
        let root = try Multistatus.read(try fixture("radicale-root"), requestURL: base + "/")
        #expect(root.responses[0].currentUserPrincipal == base + "/ann/")
        #expect(root.responses[0].status(of: .calendarHomeSet) == 404)
        let principal = try Multistatus.read(try fixture("radicale-principal"), requestURL: base + "/ann/")
        #expect(principal.responses[0].calendarHomeSet == [base + "/ann/"])
        #expect(principal.responses[0].resourceTypes == [.principal, .collection])
        let home = try Multistatus.read(try fixture("radicale-home"), requestURL: base + "/ann/")
        let calendars = home.responses.filter(\.isCalendar)
        #expect(calendars.count == 1)
        let calendar = try #require(calendars.first)
        #expect(calendar.displayName == "Tasks & more")
        #expect(calendar.supportedComponents == ["VEVENT", "VTODO"])
        #expect(calendar.collectionTag == "\"699ddb73a7cd756ec40e7b45e32ff851d254d692495a3484b751398f62957f37\"")
        #expect(calendar.syncToken == "http://radicale.org/ns/sync/bfcd1e26511f95ea8ce1bb8f25cdbfbd5146c0b4628efc0bdcd1da536a39a632")
        #expect(calendar.canWriteContent == true)
        #expect(calendar.privileges?.contains(.calDAV("read-free-busy")) == true)
        #expect(!home.responses[0].isCalendar && home.responses[0].isCollection)
    }

    @Test("Xandikos's discovery replies: prefixes ns0…, the home apart from the principal, a VTODO-only calendar")
    func xandikosDiscovery() throws {
        let base = "http://127.0.0.1:35233"
        let root = try Multistatus.read(try fixture("xandikos-root"), requestURL: base + "/")
        #expect(root.responses[0].currentUserPrincipal == base + "/user/")
        #expect(root.responses[0].resourceTypes.isEmpty)
        let principal = try Multistatus.read(try fixture("xandikos-principal"), requestURL: base + "/user/")
        #expect(principal.responses[0].calendarHomeSet == [base + "/user/calendars/"])
        let home = try Multistatus.read(try fixture("xandikos-home"), requestURL: base + "/user/calendars/")
        let calendar = try #require(home.responses.first { $0.isCalendar })
        #expect(calendar.displayName == "Tasks & more")
        #expect(calendar.supportedComponents == ["VTODO"])
        #expect(calendar.syncToken == "29da0b8e47b63649bf01ffca95fe24df6bf1ab3e")
        #expect(calendar.privileges == [.dav("all")])
        #expect(calendar.canWriteContent == true)
    }

    @Test("sync-collection replies from both servers: Radicale gives the data and the token first, Xandikos the token last and no data")
    func syncReplies() throws {
        let radicale = try Multistatus.read(try fixture("radicale-sync"), requestURL: "http://127.0.0.1:35232/ann/54f14f55-45e7-4a98-a3a5-03af5eaab613/")
        #expect(radicale.syncToken == "http://radicale.org/ns/sync/bfcd1e26511f95ea8ce1bb8f25cdbfbd5146c0b4628efc0bdcd1da536a39a632")
        #expect(radicale.responses.map(\.path) == ["/ann/54f14f55-45e7-4a98-a3a5-03af5eaab613/todo-1@phone.ics"])
        #expect(radicale.responses[0].calendarData?.contains("TRIGGER;RELATED=END:-PT15M\n") == true)
        let xandikos = try Multistatus.read(try fixture("xandikos-sync"), requestURL: "http://127.0.0.1:35233/user/calendars/16916f04-1040-4752-8c85-25955366c699/")
        #expect(xandikos.syncToken == "29da0b8e47b63649bf01ffca95fe24df6bf1ab3e")
        #expect(xandikos.responses.map(\.path) == ["/user/calendars/16916f04-1040-4752-8c85-25955366c699/todo-1@phone.ics"])
        #expect(xandikos.responses[0].entityTag == "\"b60d7f9d84b5dd8090e0e63ada810dc464d07a17\"")
        #expect(xandikos.responses[0].calendarData == nil)
        #expect(xandikos.responses[0].status(of: .calendarData) == 404)
    }

    @Test("multiget replies from both servers: the resource with its data, the missing one as 404, in either order")
    func multigetReplies() throws {
        for (name, base) in [("radicale-multiget", "http://127.0.0.1:35232/ann/54f14f55-45e7-4a98-a3a5-03af5eaab613/"),
                             ("xandikos-multiget", "http://127.0.0.1:35233/user/calendars/16916f04-1040-4752-8c85-25955366c699/")] {
            let reply = try Multistatus.read(try fixture(name), requestURL: base)
            let found = try #require(reply.responses.first { $0.path.hasSuffix("/todo-1@phone.ics") }, "\(name)")
            #expect(found.calendarData?.hasPrefix("BEGIN:VCALENDAR\nVERSION:2.0\n") == true)
            #expect(found.entityTag?.hasPrefix("\"") == true)
            #expect(reply.responses.first { $0.path.hasSuffix("/missing.ics") }?.status == 404, "\(name)")
        }
    }

    @Test("a reply that is not XML, not a multistatus, or broken inside is refused with the line and column")
    func refusals() throws {
        let broken = try #require(failure("<multistatus xmlns=\"DAV:\">\n<response><href>/a</href>\n<status>HTTP/1.1 200 OK</status></respons></multistatus>"))
        #expect(broken.code == .malformed)
        #expect(broken.line == 3)
        #expect(broken.description.contains("line 3"))
        let root = try #require(failure("<error xmlns=\"DAV:\"><valid-sync-token/></error>"))
        #expect(root.code == .notMultistatus)
        #expect(root.description.contains("{DAV:}error"))
        let noNamespace = try #require(failure("<multistatus><response><href>/a</href></response></multistatus>"))
        #expect(noNamespace.code == .notMultistatus)
        let noHref = try #require(failure("<multistatus xmlns=\"DAV:\">\n\n<response><status>HTTP/1.1 200 OK</status></response></multistatus>"))
        #expect(noHref.code == .notMultistatus)
        #expect(noHref.line == 3)
        let status = try #require(failure("<multistatus xmlns=\"DAV:\"><response><href>/a</href><status>OK</status></response></multistatus>"))
        #expect(status.code == .notMultistatus)
        #expect(status.description.contains("'OK' is not an HTTP status line"))
        #expect(failure("")?.code == .malformed)
    }

    @Test("character references and the predefined entities are replaced in text and attributes, CDATA is text, and a prefix names its namespace")
    func textAsLibxml2GivesIt() throws {
        let xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/a&amp;b.ics</d:href>
            <d:propstat><d:prop><cal:supported-calendar-component-set><cal:comp name="V&#69;VENT"/><cal:comp name='VTODO'/></cal:supported-calendar-component-set>
            <cal:calendar-data><![CDATA[BEGIN:VCALENDAR<&>]]>&#13;&#10;END:VCALENDAR&lt;</cal:calendar-data></d:prop>
            <d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
            """
        let reply = try Multistatus.read(Array(xml.utf8), requestURL: "http://127.0.0.1/cal/")
        let response = try #require(reply.responses.first)
        #expect(response.path == "/cal/a&b.ics")
        #expect(response.supportedComponents == ["VEVENT", "VTODO"])
        #expect(response.calendarData == "BEGIN:VCALENDAR<&>\r\nEND:VCALENDAR<")
    }

    @Test("a reply libxml2 finds ill-formed names libxml2's error code and where it stopped; a thousand of them read alike")
    func libxml2Errors() throws {
        // A mismatched end tag is libxml2's XML_ERR_TAG_NAME_MISMATCH (76).
        let mismatched = "<multistatus xmlns=\"DAV:\">\n<response></responses></multistatus>"
        let error = try #require(failure(mismatched))
        #expect(error.code == .malformed)
        #expect(error.description.contains("(libxml2 error 76)"), "\(error)")
        #expect(error.line == 2)
        // The parser keeps nothing between replies: the same answer every time.
        for _ in 0..<1_000 { #expect(failure(mismatched)?.description == error.description) }
    }

    @Test("entity declarations are refused, so that a small reply cannot expand into a huge one")
    func entities() throws {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <multistatus xmlns="DAV:"><response><href>&b;</href><status>HTTP/1.1 200 OK</status></response></multistatus>
            """
        #expect(failure(laughs)?.code == .malformed)
        let external = #"<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><multistatus xmlns="DAV:"><response><href>&x;</href></response></multistatus>"#
        #expect(failure(external)?.code == .malformed)
    }

    @Test("size, depth and element count are bounded")
    func bounds() throws {
        let small = MultistatusLimits(maximumSize: 100, maximumDepth: 48, maximumElements: 1000)
        let long = "<multistatus xmlns=\"DAV:\">" + String(repeating: "<response><href>/a</href><status>HTTP/1.1 200 OK</status></response>", count: 20) + "</multistatus>"
        #expect(failure(long, limits: small)?.code == .tooLarge)
        let deep = "<multistatus xmlns=\"DAV:\"><response><href>/a</href><propstat><prop>" + String(repeating: "<x>", count: 100) + String(repeating: "</x>", count: 100)
            + "</prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>"
        let depthError = try #require(failure(deep))
        #expect(depthError.code == .tooLarge)
        #expect(depthError.description.contains("48 deep"))
        #expect(failure(long, limits: MultistatusLimits(maximumElements: 30))?.code == .tooLarge)
        #expect(try Multistatus.read(Array(long.utf8), requestURL: "http://127.0.0.1/").responses.count == 20)
    }

    @Test("a reply that is not UTF-8 is refused with its place before it is parsed (FoundationXML's XMLParser, used before libxml2, trapped on such a name; found by the webdav fuzz target)")
    func notUTF8() throws {
        var bytes = Array("<multistatus xmlns=\"DAV:\">\n<respo".utf8)
        bytes += [0xFF, 0xFF]
        bytes += Array("nse><href>/a</href></response></multistatus>".utf8)
        do {
            _ = try Multistatus.read(bytes, requestURL: "http://127.0.0.1/")
            Issue.record("read a reply that is not UTF-8")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.line == 2 && error.column == 7)
        }
        // Overlong, surrogate and truncated sequences are not UTF-8 either; four-byte ones are.
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]] {
            #expect(throws: WebDAVError.self) { try Multistatus.read(Array("<multistatus xmlns=\"DAV:\">".utf8) + bad + Array("</multistatus>".utf8), requestURL: "http://127.0.0.1/") }
        }
        let emoji = try Multistatus.read(Array("<multistatus xmlns=\"DAV:\"><response><href>/😀</href><status>HTTP/1.1 200 OK</status></response></multistatus>".utf8),
                                         requestURL: "http://127.0.0.1/")
        #expect(emoji.responses.map(\.path) == ["/😀"])
    }

    @Test("a processing instruction other than the XML declaration is refused with its place (FoundationXML's XMLParser, used before libxml2, crashed on one with no data; found by the webdav fuzz target)")
    func processingInstructions() throws {
        let error = try #require(failure("<?xml0ve?>\r<multistatus xmlns=\"DAV:\"/>"))
        #expect(error.code == .malformed)
        #expect(error.line == 1 && error.column == 1)
        #expect(failure("<multistatus xmlns=\"DAV:\">\n<?php x?></multistatus>")?.line == 2)
        let declared = try Multistatus.read(Array("\u{FEFF}<?xml version=\"1.0\"?><multistatus xmlns=\"DAV:\"/>".utf8), requestURL: "http://127.0.0.1/")
        #expect(declared.responses.isEmpty)
    }

    @Test("a response with several hrefs beside one status is one response per href (RFC 4918 §14.24)")
    func severalHrefs() throws {
        let reply = try read(#"<multistatus xmlns="DAV:"><response><href>/a</href><href>/b</href><status>HTTP/1.1 404 Not Found</status></response></multistatus>"#)
        #expect(reply.responses.map(\.path) == ["/a", "/b"])
        #expect(reply.responses.map(\.status) == [404, 404])
    }
}
