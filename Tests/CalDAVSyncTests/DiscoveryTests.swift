import CalDAVSync
import HTTPDownload
import TestSupport
import Testing
import WebDAV

@Suite("Discovery against Radicale and Xandikos")
struct DiscoveryTests {
    private func credentials(_ server: CalDAVServer) -> HTTPCredentials? {
        server.user.map { HTTPCredentials(user: $0, password: server.password ?? "") }
    }

    @Test("from the server's root, discovery finds the calendar the phone made, with its name, components, tags and privileges",
          arguments: CalDAVServer.Kind.allCases)
    func findsThePhonesCalendar(kind: CalDAVServer.Kind) throws {
        let server = try CalDAVServer(kind)
        let made = try server.makeCalendar("Tasks & more", components: ["VTODO"])
        let account = try CalendarDiscovery(credentials: credentials(server), timeLimit: 20).discover(server.base + "/")
        #expect(account.principalURL == server.url(kind == .radicale ? "/ann/" : "/user/"))
        #expect(account.homeURLs == [server.url(kind == .radicale ? "/ann/" : "/user/calendars/")])
        let calendar = try #require(account.calendars.first { DAVHref.decodedPath($0.url) == DAVHref.decodedPath(made) },
                                    "\(made) not among \(account.calendars.map(\.url))")
        #expect(calendar.displayName == "Tasks & more")
        #expect(calendar.components == ["VTODO"])
        #expect(calendar.holds("VTODO") && !calendar.holds("VEVENT"))
        #expect(calendar.syncToken?.isEmpty == false)
        #expect(calendar.collectionTag?.isEmpty == false)
        #expect(calendar.isReadOnly == false)
    }

    @Test("discovery from the principal's address finds the same calendars", arguments: CalDAVServer.Kind.allCases)
    func fromThePrincipal(kind: CalDAVServer.Kind) throws {
        let server = try CalDAVServer(kind)
        _ = try server.makeCalendar("Work")
        let discovery = CalendarDiscovery(credentials: credentials(server), timeLimit: 20)
        let fromRoot = try discovery.discover(server.base)
        let fromPrincipal = try discovery.discover(fromRoot.principalURL)
        #expect(fromPrincipal == fromRoot)
        #expect(fromRoot.calendars.contains { $0.displayName == "Work" && $0.components == ["VEVENT", "VTODO"] })
    }

    @Test("a wrong password fails within the time limit, saying so, and never shows the password")
    func wrongPassword() throws {
        let server = try CalDAVServer(.radicale)
        let started = ContinuousClock.now
        do {
            _ = try CalendarDiscovery(credentials: HTTPCredentials(user: "ann", password: "hunter2"), timeLimit: 10).discover(server.base + "/")
            Issue.record("a wrong password was taken")
        } catch {
            #expect(error.code == .transport(.unauthorized))
            #expect(error.description.contains("refused the password for user 'ann'"))
            #expect(!error.description.contains("hunter2"))
        }
        // A generous bound: only to tell an answer from a hang.
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("https with a certificate no authority signed is refused before the password is sent, saying it was the certificate")
    func selfSignedCertificateIsRefused() throws {
        let server = try CalDAVServer(.radicale, selfSignedTLS: true)
        #expect(server.base.hasPrefix("https://"))
        do {
            _ = try CalendarDiscovery(credentials: HTTPCredentials(user: "ann", password: "secret"), timeLimit: 10).discover(server.base + "/")
            Issue.record("a self-signed certificate was taken")
        } catch {
            #expect(error.code == .transport(.tls), "\(error)")
            #expect(error.description.contains("TLS failed") && error.description.contains("certificate"), "\(error)")
            #expect(!error.description.contains("secret"))
        }
    }

    @Test("no password where Radicale wants one is a clear 401")
    func noPassword() throws {
        let server = try CalDAVServer(.radicale)
        do {
            _ = try CalendarDiscovery(credentials: nil, timeLimit: 10).discover(server.base + "/")
            Issue.record("discovery without a password succeeded")
        } catch {
            #expect(error.code == .transport(.unauthorized))
            #expect(error.description.contains("asks for a user name and password"))
        }
    }
}
