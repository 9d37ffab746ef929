/// A 207 Multi-Status reply (RFC 4918 §13), as PROPFIND, calendar-query,
/// calendar-multiget and sync-collection give it: one response per
/// resource, the sync token of a sync-collection, and whether the server
/// truncated the results (RFC 6578 §3.6: a 507 for the request URL).
public struct Multistatus: Equatable, Sendable {
    public var responses: [Response]
    /// sync-collection's new token, directly under multistatus (a
    /// sync-token property of a resource is in its response instead).
    public var syncToken: String?
    /// The server stopped before the end: ask again from `syncToken`.
    public var isTruncated: Bool

    /// One resource's answer: its address, and either a status for it as a
    /// whole (a 404 in a multiget, a removal in a sync) or its properties
    /// grouped by status.
    public struct Response: Equatable, Sendable {
        /// As sent (whitespace trimmed), to send back in a multiget.
        public var href: String
        /// Absolute, against the request's URL; percent-encoding kept.
        public var url: String
        /// `url`'s path, percent-decoded: what to compare hrefs by.
        public var path: String
        /// The response's own status (no propstat), when it has one.
        public var status: Int?
        public var propertyStatuses: [PropertyStatus]
        /// The request's URL, against which hrefs inside properties resolve.
        let base: String

        /// The property's value, from a 2xx propstat; nil when the server
        /// did not give it (404, 403) or did not answer for it.
        public func property(_ name: DAVName) -> DAVElement? {
            for group in propertyStatuses where (200..<300).contains(group.status) {
                if let found = group.properties.first(where: { $0.name == name }) { return found }
            }
            return nil
        }

        /// The status the server gave the property, or nil when none did.
        public func status(of name: DAVName) -> Int? {
            propertyStatuses.first { $0.properties.contains { $0.name == name } }?.status
        }

        public var displayName: String? { property(.displayName).map(\.trimmedText) }
        public var resourceTypes: [DAVName] { property(.resourceType)?.children.map(\.name) ?? [] }
        public var isCollection: Bool { resourceTypes.contains(.collection) }
        public var isCalendar: Bool { resourceTypes.contains(.calendar) }
        /// Exactly as sent (quotes and `W/` kept), for If-Match.
        public var entityTag: String? { property(.entityTag).map(\.trimmedText) }
        /// CalendarServer's getctag: changes whenever the collection does.
        public var collectionTag: String? { property(.collectionTag).map(\.trimmedText) }
        public var syncToken: String? { property(.syncToken).map(\.trimmedText) }
        /// The href inside, resolved (current-user-principal is one href or `unauthenticated`).
        public var currentUserPrincipal: String? { property(.currentUserPrincipal)?.child(.dav("href")).map(resolved) }
        /// Every href inside, resolved.
        public var calendarHomeSet: [String] { property(.calendarHomeSet)?.children.filter { $0.name == .dav("href") }.map(resolved) ?? [] }
        /// The `comp` names (VEVENT, VTODO); nil when the server gave no set
        /// (RFC 4791 §5.2.3: then any component may be stored).
        public var supportedComponents: [String]? {
            property(.supportedCalendarComponentSet).map { set in
                set.children.filter { $0.name == .calDAV("comp") }.compactMap { $0.attributes["name"]?.uppercased() }
            }
        }
        /// The privileges granted to this user; nil when the server did not say.
        public var privileges: [DAVName]? {
            property(.currentUserPrivilegeSet).map { set in set.children.filter { $0.name == .dav("privilege") }.flatMap { $0.children.map(\.name) } }
        }
        /// Whether this user may change what is inside: write, write-content or all.
        public var canWriteContent: Bool? {
            privileges.map { $0.contains(.dav("write")) || $0.contains(.dav("write-content")) || $0.contains(.dav("all")) }
        }
        /// The iCalendar text exactly as sent.
        public var calendarData: String? { property(.calendarData).map(\.text) }

        private func resolved(_ href: DAVElement) -> String { DAVHref.resolve(href.trimmedText, against: base) }
    }

    /// A propstat: properties that share one status.
    public struct PropertyStatus: Equatable, Sendable {
        public var status: Int
        public var properties: [DAVElement]
    }

    /// Reads `bytes`, the reply to a request sent to `requestURL`.
    public static func read(_ bytes: [UInt8], requestURL: String, limits: MultistatusLimits = MultistatusLimits()) throws(WebDAVError) -> Multistatus {
        let root = try XMLTreeReader.read(bytes, limits: limits)
        guard root.element.name == .dav("multistatus") else {
            throw WebDAVError(code: .notMultistatus, description: "the reply's root is \(root.element.name), not {DAV:}multistatus, at line \(root.line), column \(root.column)",
                              line: root.line, column: root.column)
        }
        var result = Multistatus(responses: [], syncToken: nil, isTruncated: false)
        for node in root.nodes {
            switch node.element.name {
            case .dav("sync-token"): result.syncToken = node.element.trimmedText
            case .dav("response"):
                for response in try responses(node, requestURL: requestURL) {
                    // RFC 6578 §3.6: a 507 (for the request URL) marks a truncated result; it is no member.
                    if response.status == 507 {
                        result.isTruncated = true
                    } else {
                        result.responses.append(response)
                    }
                }
            default: break
            }
        }
        return result
    }

    private static func responses(_ node: XMLNode, requestURL: String) throws(WebDAVError) -> [Response] {
        let hrefs = node.nodes.filter { $0.element.name == .dav("href") }
        guard !hrefs.isEmpty else {
            throw WebDAVError(code: .notMultistatus, description: "a response with no href at line \(node.line), column \(node.column)", line: node.line, column: node.column)
        }
        var status: Int?
        var groups: [PropertyStatus] = []
        for child in node.nodes {
            switch child.element.name {
            case .dav("status"): status = try statusCode(child)
            case .dav("propstat"):
                guard let line = child.nodes.first(where: { $0.element.name == .dav("status") }) else {
                    throw WebDAVError(code: .notMultistatus, description: "a propstat with no status at line \(child.line), column \(child.column)",
                                      line: child.line, column: child.column)
                }
                let properties = child.nodes.filter { $0.element.name == .dav("prop") }.flatMap(\.element.children)
                groups.append(PropertyStatus(status: try statusCode(line), properties: properties))
            default: break
            }
        }
        // RFC 4918 allows several hrefs beside one status: each is its own response.
        return hrefs.map { href in
            let text = href.element.trimmedText
            let url = DAVHref.resolve(text, against: requestURL)
            return Response(href: text, url: url, path: DAVHref.decodedPath(url), status: status, propertyStatuses: groups, base: requestURL)
        }
    }

    /// "HTTP/1.1 404 Not Found" → 404.
    private static func statusCode(_ node: XMLNode) throws(WebDAVError) -> Int {
        let text = node.element.trimmedText
        let fields = text.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, fields[0].hasPrefix("HTTP/"), fields[1].count == 3, let code = Int(fields[1]), (100...599).contains(code) else {
            throw WebDAVError(code: .notMultistatus, description: "'\(text.prefix(80))' is not an HTTP status line, at line \(node.line), column \(node.column)",
                              line: node.line, column: node.column)
        }
        return code
    }
}
