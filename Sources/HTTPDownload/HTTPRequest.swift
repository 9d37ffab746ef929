/// One HTTP request for `HTTPClient`: any method, headers and a body, held
/// to bounds of Chime's own (size, time, redirects) whatever the server does.
public struct HTTPRequest: Equatable, Sendable {
    /// The methods CalDAV and the downloads use; `rawValue` is what is sent.
    public enum Method: String, Equatable, Sendable {
        case get = "GET"
        case put = "PUT"
        case delete = "DELETE"
        case propfind = "PROPFIND"
        case report = "REPORT"
        case mkcalendar = "MKCALENDAR"
        case options = "OPTIONS"

        /// Only a GET or a PROPFIND follows a redirect: a redirected PUT,
        /// DELETE or REPORT could write or read somewhere the caller did not
        /// choose, so its 3xx goes back to the caller as it is.
        var followsRedirects: Bool { self == .get || self == .propfind }
    }

    /// Whether plain http may be used: a password or a person's calendar
    /// crosses the network only over https, except to this machine.
    public enum PlainHTTP: Equatable, Sendable {
        /// https, or http to a loopback address (127.0.0.0/8, ::1, localhost).
        case loopbackOnly
        /// Any http address (public calendar feeds that only serve http).
        case allowed
    }

    public var method: Method
    /// An http or https address; a user name or password in it is never
    /// repeated in an error.
    public var url: String
    /// Sent as given, in order, beside the User-Agent; a Content-Type for a body.
    public var headers: [HTTPHeader]
    /// Sent when not empty (a PROPFIND's or REPORT's XML, a PUT's resource).
    public var body: [UInt8]
    /// Sent as Basic authorization with the first request (not after a
    /// challenge), to the address's host only, never to a host a redirect
    /// leads to.
    public var credentials: HTTPCredentials?
    public var plainHTTP: PlainHTTP
    /// The largest body taken, in bytes (after content decoding).
    public var maximumBodySize: Int
    /// Seconds the whole exchange may take, redirects included.
    public var timeLimit: Double
    /// Seconds each connection may take to open (TCP and TLS).
    public var connectTimeLimit: Double
    /// Redirects followed at most (GET and PROPFIND only); 0 follows none.
    public var maximumRedirects: Int

    /// 32 MB: a calendar of a few years, or a multistatus of thousands of
    /// resources, with room, while a runaway answer stays out of memory.
    public static let defaultMaximumBodySize = 32 << 20

    public init(_ method: Method, _ url: String, headers: [HTTPHeader] = [], body: [UInt8] = [], credentials: HTTPCredentials? = nil,
                plainHTTP: PlainHTTP = .loopbackOnly, maximumBodySize: Int = Self.defaultMaximumBodySize, timeLimit: Double = 60,
                connectTimeLimit: Double = 15, maximumRedirects: Int = 5) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.credentials = credentials
        self.plainHTTP = plainHTTP
        self.maximumBodySize = maximumBodySize
        self.timeLimit = timeLimit
        self.connectTimeLimit = connectTimeLimit
        self.maximumRedirects = maximumRedirects
    }
}

/// One header line, name and value as sent or received.
public struct HTTPHeader: Equatable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A user name and password for HTTP Basic authorization. Its description
/// names the user only, so that printing a request never shows the password.
public struct HTTPCredentials: Equatable, Sendable, CustomStringConvertible {
    public var user: String
    public var password: String

    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    public var description: String { "\(user) (password not shown)" }
}
