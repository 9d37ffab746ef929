/// The final answer to an `HTTPRequest`, after any redirects: every status
/// but 401 comes back as a response (a 412 or a 507 is the caller's to read).
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    /// The address that answered, after redirects.
    public var url: String
    /// The final answer's headers, in order as received.
    public var headers: [HTTPHeader]
    /// The body: whole for a 2xx answer (within the request's bound), at
    /// most `HTTPClient.maximumErrorBody` bytes of any other.
    public var body: [UInt8]

    public init(status: Int, url: String, headers: [HTTPHeader], body: [UInt8]) {
        self.status = status
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first header of that name (names compare without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every header of that name, in order; a repeated header is one list.
    public func headers(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    public var isSuccess: Bool { (200..<300).contains(status) }
    /// The ETag exactly as sent (quotes and `W/` kept), for If-Match later.
    public var entityTag: String? { header("ETag") }
    public var location: String? { header("Location") }
    public var contentType: String? { header("Content-Type") }
    /// The Retry-After text as sent: `RetryAfter.delay` reads it.
    public var retryAfter: String? { header("Retry-After") }
    /// The DAV header's compliance classes, lowercased, of every DAV header
    /// ("1", "2", "3", "calendar-access", ...).
    public var davClasses: [String] {
        headers("DAV").flatMap { $0.split(separator: ",") }.map { String($0.trimmingWhitespace()).lowercased() }.filter { !$0.isEmpty }
    }
}
