import HTTPDownload
import WebDAV

/// From an address a person types (a server's root, its CalDAV path, a
/// principal or a calendar home) to that user's calendars, as RFC 6764 and
/// RFC 4791 §6 lay out: PROPFIND current-user-principal on the address and
/// on `/.well-known/caldav`, then the principal's calendar-home-set, then
/// the calendars in each home with what sync needs of them.
public struct CalendarDiscovery: Sendable {
    /// What discovery found.
    public struct Account: Equatable, Sendable {
        public var principalURL: String
        public var homeURLs: [String]
        public var calendars: [Calendar]
    }

    /// One calendar collection in a home.
    public struct Calendar: Equatable, Sendable {
        /// Absolute, percent-encoding as the server sent it.
        public var url: String
        public var displayName: String?
        /// VEVENT, VTODO, ...; nil when the server named none (any may be stored).
        public var components: [String]?
        /// CalendarServer's getctag, when the server keeps one.
        public var collectionTag: String?
        /// RFC 6578's token, when the server supports sync-collection.
        public var syncToken: String?
        /// The user's privileges here; nil when the server did not say.
        public var privileges: [DAVName]?

        /// True only when the server said so: its privileges grant no write.
        public var isReadOnly: Bool {
            guard let privileges else { return false }
            return !privileges.contains { [DAVName.dav("write"), .dav("write-content"), .dav("all"), .dav("bind")].contains($0) }
        }

        /// Whether the calendar may hold `component` (VEVENT, VTODO).
        public func holds(_ component: String) -> Bool { components?.contains(component.uppercased()) ?? true }
    }

    public let credentials: HTTPCredentials?
    /// Seconds each request may take.
    public let timeLimit: Double
    private let client: HTTPClient

    public init(credentials: HTTPCredentials?, timeLimit: Double = 30, client: HTTPClient = HTTPClient()) {
        self.credentials = credentials
        self.timeLimit = timeLimit
        self.client = client
    }

    /// The properties asked of each calendar: what a sync needs to know.
    public static let calendarProperties: [DAVName] = [
        .resourceType, .displayName, .supportedCalendarComponentSet, .collectionTag, .syncToken, .currentUserPrivilegeSet,
    ]

    public func discover(_ address: String) throws(CalDAVError) -> Account {
        let principal = try principalURL(address)
        let principalReply = try propfind(principal, [.calendarHomeSet], depth: 0)
        let homes = principalReply.responses.first?.calendarHomeSet ?? []
        guard !homes.isEmpty else {
            throw CalDAVError(.notCalDAV, "\(principal): the principal names no calendar-home-set; is this a CalDAV account?")
        }
        var calendars: [Calendar] = []
        var seen: Set<String> = []
        for home in homes {
            for response in try propfind(home, Self.calendarProperties, depth: 1).responses where response.isCalendar {
                guard seen.insert(response.path).inserted else { continue }
                calendars.append(Calendar(url: response.url, displayName: response.displayName, components: response.supportedComponents,
                                          collectionTag: response.collectionTag, syncToken: response.syncToken, privileges: response.privileges))
            }
        }
        return Account(principalURL: principal, homeURLs: homes, calendars: calendars)
    }

    /// current-user-principal from the address, or from /.well-known/caldav
    /// on its host (first when the address is only the host).
    private func principalURL(_ address: String) throws(CalDAVError) -> String {
        let origin = Self.origin(of: address)
        let wellKnown = origin + "/.well-known/caldav"
        let bare = address.count <= origin.count + 1
        var firstFailure: CalDAVError?
        for candidate in bare ? [wellKnown, address] : [address, wellKnown] {
            do throws(CalDAVError) {
                let reply = try propfind(candidate, [.currentUserPrincipal, .calendarHomeSet, .resourceType], depth: 0)
                if let principal = reply.responses.compactMap(\.currentUserPrincipal).first { return principal }
                // A server without current-user-principal whose address is the principal itself.
                if let response = reply.responses.first, !response.calendarHomeSet.isEmpty { return response.url }
            } catch {
                // A wrong password, no server, no TLS: the same at the other candidate.
                if case .transport = error.code { throw error }
                if firstFailure == nil { firstFailure = error }
            }
        }
        throw firstFailure ?? CalDAVError(.notCalDAV, "\(address): neither it nor \(wellKnown) names a current-user-principal; is this a CalDAV server?")
    }

    /// One PROPFIND, its 207 read against the address that answered.
    func propfind(_ url: String, _ properties: [DAVName], depth: Int) throws(CalDAVError) -> Multistatus {
        let request = HTTPRequest(.propfind, url, headers: [HTTPHeader("Depth", String(depth)), HTTPHeader("Content-Type", DAVRequestBody.contentType)],
                                  body: DAVRequestBody.propfind(properties), credentials: credentials, timeLimit: timeLimit)
        return try Multistatus.reply(try client.sendForCalDAV(request), to: "PROPFIND")
    }

    /// `scheme://authority` of an address.
    static func origin(of address: String) -> String {
        guard let schemeEnd = address.range(of: "://") else { return address }
        let rest = address[schemeEnd.upperBound...]
        return String(address[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? address.endIndex)])
    }
}
