import CalendarModel
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// HTTP requests of any method through libcurl (opened on first use, see
/// `LibCurl`), each bounded in body size, time and redirects by Chime itself:
/// what CalDAV sync talks to a server with, and what `Downloader` builds its
/// GETs on. Synchronous: `send` returns when the exchange has ended, within
/// the request's time limit, whatever the server does.
///
/// Redirects are followed here, not by libcurl, so that the rules are
/// Chime's: GET and PROPFIND only, the method and body kept, at most the
/// request's count, http(s) only, https where the request requires it, and
/// the credentials sent to the first host only.
public struct HTTPClient: Sendable {
    /// The User-Agent sent: Chime and its version.
    public static let userAgent = "chime/\(ChimeVersion.current)"
    /// The most of a non-2xx answer's body kept (an error page, a 412's
    /// explanation): enough to show, never a runaway.
    public static let maximumErrorBody = 64 << 10

    public init() {}

    /// Sends `request`, following redirects within its bounds, and returns
    /// the final answer whatever its status, except 401 (thrown as
    /// `.unauthorized` or `.authenticationScheme`).
    public func send(_ request: HTTPRequest) throws(HTTPError) -> HTTPResponse {
        let first = try Self.check(request)
        let curl: LibCurl
        do {
            curl = try LibCurl.shared.get()
        } catch {
            throw HTTPError(.libcurlMissing, "\(first.shown): \(error)")
        }
        let deadline = Self.monotonicSeconds() + request.timeLimit
        var url = request.url
        var address = first
        var redirects = 0
        while true {
            let remaining = deadline - Self.monotonicSeconds()
            let via = address == first ? "" : " (redirected to \(address.shown))"
            guard remaining > 0 else {
                throw HTTPError(.timedOut, "\(first.shown)\(via): timed out (limit: \(request.timeLimit) s in all)")
            }
            // Credentials go to the first host only: a redirect elsewhere
            // must not hand the password to whoever the Location names.
            let credentials = address.host == first.host && (address.scheme == first.scheme || address.scheme == "https") ? request.credentials : nil
            let hop = try curl.transfer(request, url: url, credentials: credentials, timeLimit: min(remaining, request.timeLimit),
                                        shown: first.shown + via)
            if let target = hop.redirect, request.method.followsRedirects, [301, 302, 303, 307, 308].contains(hop.status) {
                redirects += 1
                guard redirects <= request.maximumRedirects else {
                    throw HTTPError(.tooManyRedirects, "\(first.shown)\(via): more than \(request.maximumRedirects) redirects")
                }
                // libcurl writes the request's user and password into the address it
                // resolves a Location to: taken out, so no password travels in an address.
                let target = HTTPAddress.withoutUserInfo(target)
                guard let next = HTTPAddress(target) else {
                    throw HTTPError(.redirectRefused, "\(first.shown)\(via): redirected to a scheme other than http and https (\(HTTPAddress.shown(target)))")
                }
                try Self.checkTransport(next, request, original: first)
                url = target
                address = next
                continue
            }
            let response = HTTPResponse(status: hop.status, url: url, headers: hop.headers, body: hop.body)
            if hop.status == 401 { throw Self.unauthorized(response, request, credentials: credentials, shown: first.shown + via) }
            return response
        }
    }

    /// What libcurl would otherwise take or refuse less clearly: the scheme,
    /// plain http off this machine, header values that would split into more
    /// headers, limits that libcurl reads as "none".
    static func check(_ request: HTTPRequest) throws(HTTPError) -> HTTPAddress {
        let unsendable: (String) -> Bool = { $0.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 } }
        guard !unsendable(request.url) else {
            throw HTTPError(.badURL, "'\(HTTPAddress.shown(request.url))' has a line break or NUL in it")
        }
        guard let address = HTTPAddress(request.url) else {
            throw HTTPError(.badURL, "'\(HTTPAddress.shown(request.url))' is not an http or https address")
        }
        try checkTransport(address, request, original: nil)
        for header in request.headers {
            guard !header.name.isEmpty, !header.name.contains(where: { $0 == ":" || $0 == " " }), !unsendable(header.name) else {
                throw HTTPError(.invalidRequest, "\(address.shown): '\(header.name)' is not a header name")
            }
            if unsendable(header.value) {
                throw HTTPError(.invalidRequest, "\(address.shown): the \(header.name) header has a line break or NUL in it")
            }
        }
        if let credentials = request.credentials {
            if unsendable(credentials.user) { throw HTTPError(.invalidRequest, "\(address.shown): the user name has a line break or NUL in it") }
            if unsendable(credentials.password) { throw HTTPError(.invalidRequest, "\(address.shown): the password has a line break or NUL in it") }
        }
        for (name, seconds) in [("time limit", request.timeLimit), ("connect time limit", request.connectTimeLimit)] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw HTTPError(.invalidRequest, "\(address.shown): the \(name) must be more than 0 and at most a day, not \(seconds)")
            }
        }
        guard request.maximumBodySize > 0 else {
            throw HTTPError(.invalidRequest, "\(address.shown): the maximum body size must be more than 0 bytes")
        }
        guard (0...100).contains(request.maximumRedirects) else {
            throw HTTPError(.invalidRequest, "\(address.shown): at most 100 redirects can be allowed, not \(request.maximumRedirects)")
        }
        return address
    }

    private static func checkTransport(_ address: HTTPAddress, _ request: HTTPRequest, original: HTTPAddress?) throws(HTTPError) {
        guard request.plainHTTP == .loopbackOnly, address.scheme == "http", !address.isLoopback else { return }
        let via = original.map { "\($0.shown) redirected to \(address.shown)" } ?? address.shown
        throw HTTPError(.insecure, "\(via): plain http to another machine would send the calendar\(request.credentials == nil ? "" : " and the password") unencrypted; use https")
    }

    /// 401, said clearly: what the server asked for, and whether what was
    /// sent was refused. Never the password.
    private static func unauthorized(_ response: HTTPResponse, _ request: HTTPRequest, credentials: HTTPCredentials?,
                                     shown: String) -> HTTPError {
        let schemes = response.headers("WWW-Authenticate").compactMap { value in
            value.split(separator: " ", maxSplits: 1).first.map { $0.trimmingWhitespace().lowercased() }
        }
        if !schemes.isEmpty, !schemes.contains("basic") {
            let named = schemes.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: ", ")
            return HTTPError(.authenticationScheme,
                             "\(shown): the server accepts only \(named) authentication; Chime sends a user name and password as Basic authentication (over https), which this server does not take")
        }
        if let credentials {
            return HTTPError(.unauthorized, "\(shown): the server refused the password for user '\(credentials.user)' (HTTP 401)")
        }
        if request.credentials != nil {
            return HTTPError(.unauthorized, "\(shown): the server asks for a user name and password, which are not sent to a host a redirect leads to (HTTP 401)")
        }
        return HTTPError(.unauthorized, "\(shown): the server asks for a user name and password (HTTP 401)")
    }

    static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
