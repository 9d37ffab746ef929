/// An XML element's expanded name: its namespace and local name. The
/// properties a CalDAV client asks for, and the names inside them
/// (resourcetype's `calendar`, a privilege's `write`), are these.
public struct DAVName: Hashable, Sendable, CustomStringConvertible {
    public var namespace: String
    public var name: String

    public init(_ namespace: String, _ name: String) {
        self.namespace = namespace
        self.name = name
    }

    public static let dav = "DAV:"
    public static let calDAV = "urn:ietf:params:xml:ns:caldav"
    /// Apple's CalendarServer extensions, where getctag lives.
    public static let calendarServer = "http://calendarserver.org/ns/"

    public static func dav(_ name: String) -> DAVName { DAVName(dav, name) }
    public static func calDAV(_ name: String) -> DAVName { DAVName(calDAV, name) }

    public static let displayName = dav("displayname")
    public static let resourceType = dav("resourcetype")
    public static let entityTag = dav("getetag")
    public static let syncToken = dav("sync-token")
    public static let currentUserPrincipal = dav("current-user-principal")
    public static let currentUserPrivilegeSet = dav("current-user-privilege-set")
    public static let collection = dav("collection")
    public static let principal = dav("principal")
    public static let calendarHomeSet = calDAV("calendar-home-set")
    public static let supportedCalendarComponentSet = calDAV("supported-calendar-component-set")
    public static let calendarData = calDAV("calendar-data")
    public static let calendar = calDAV("calendar")
    public static let collectionTag = DAVName(calendarServer, "getctag")

    public var description: String { "{\(namespace)}\(name)" }
}
