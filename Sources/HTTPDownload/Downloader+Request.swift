extension Downloader {
    /// One GET: the address, the validators of the copy the caller has, and
    /// the bounds the transfer is held to.
    public struct Request: Equatable, Sendable {
        /// An http or https address (see `subscriptionHTTPAddress` for webcal).
        public var url: String
        /// The ETag of the copy the caller has, exactly as the server sent it
        /// (quotes and `W/` included): sent as If-None-Match.
        public var entityTag: String?
        /// The Last-Modified of the copy the caller has, exactly as the
        /// server sent it: sent as If-Modified-Since (the server compares
        /// its own text best).
        public var lastModified: String?
        /// The Accept header.
        public var accept: String
        /// The largest body taken, in bytes (after content decoding).
        public var maximumBodySize: Int
        /// Seconds the whole transfer may take, redirects included.
        public var timeLimit: Double
        /// Seconds each connection may take to open (TCP and TLS).
        public var connectTimeLimit: Double
        /// Redirects followed at most; 0 follows none.
        public var maximumRedirects: Int
        /// Sent as Basic authorization to the address's host only, never to a
        /// host a redirect leads to.
        public var credentials: Credentials?

        /// A subscribed calendar of a few years is a few megabytes; 32 MB
        /// leaves room while keeping a runaway answer out of memory.
        public static let defaultMaximumBodySize = 32 << 20

        public init(url: String, entityTag: String? = nil, lastModified: String? = nil, accept: String = "text/calendar",
                    maximumBodySize: Int = Self.defaultMaximumBodySize, timeLimit: Double = 60, connectTimeLimit: Double = 15,
                    maximumRedirects: Int = 5, credentials: Credentials? = nil) {
            self.url = url
            self.entityTag = entityTag
            self.lastModified = lastModified
            self.accept = accept
            self.maximumBodySize = maximumBodySize
            self.timeLimit = timeLimit
            self.connectTimeLimit = connectTimeLimit
            self.maximumRedirects = maximumRedirects
            self.credentials = credentials
        }
    }

    /// A user name and password for HTTP Basic authorization.
    public typealias Credentials = HTTPCredentials
}

extension Downloader.Request {
    /// The same GET as `HTTPClient` sends it: plain http allowed (public
    /// feeds), the validators as conditional headers.
    var httpRequest: HTTPRequest {
        var headers = [HTTPHeader("Accept", accept)]
        if let entityTag { headers.append(HTTPHeader("If-None-Match", entityTag)) }
        if let lastModified { headers.append(HTTPHeader("If-Modified-Since", lastModified)) }
        return HTTPRequest(.get, url, headers: headers, credentials: credentials, plainHTTP: .allowed, maximumBodySize: maximumBodySize,
                           timeLimit: timeLimit, connectTimeLimit: connectTimeLimit, maximumRedirects: maximumRedirects)
    }
}
