import HTTPDownload
import TestSupport
import Testing

@Suite("Requests of any method from a local fixture server")
struct HTTPClientTests {
    private func failure(_ request: HTTPRequest) -> HTTPError? {
        do {
            let response = try HTTPClient().send(request)
            Issue.record("\(request.url) gave status \(response.status)")
            return nil
        } catch {
            return error
        }
    }

    /// /echo's body: the method, the headers, and the body after an empty line.
    private func echoed(_ response: HTTPResponse) -> (method: String, headers: [String], body: String) {
        let text = String(decoding: response.body, as: UTF8.self)
        let parts = text.split(separator: "\n\n", maxSplits: 1, omittingEmptySubsequences: false)
        let lines = parts[0].split(separator: "\n").map(String.init)
        return (lines.first ?? "", Array(lines.dropFirst()), parts.count > 1 ? String(parts[1]) : "")
    }

    @Test("each method is sent with its headers and body, and the answer's status, headers and body come back")
    func methodsHeadersAndBody() throws {
        let server = try FixtureServer()
        let xml = Array(#"<?xml version="1.0"?><propfind xmlns="DAV:"><prop><getetag/></prop></propfind>"#.utf8)
        for method in [HTTPRequest.Method.get, .put, .delete, .propfind, .report, .mkcalendar, .options] {
            let body = method == .get || method == .delete ? [] : xml
            let response = try HTTPClient().send(HTTPRequest(method, server.url("/echo"),
                                                             headers: [HTTPHeader("Depth", "1"), HTTPHeader("Content-Type", "application/xml; charset=utf-8")],
                                                             body: body))
            #expect(response.status == 200)
            let echo = echoed(response)
            #expect(echo.method == method.rawValue)
            #expect(echo.headers.contains("Depth: 1"))
            #expect(echo.headers.contains("User-Agent: \(HTTPClient.userAgent)"))
            #expect(echo.body == String(decoding: body, as: UTF8.self), "\(method)")
            if !body.isEmpty {
                #expect(echo.headers.contains("Content-Type: application/xml; charset=utf-8"))
                #expect(!echo.headers.contains { $0.hasPrefix("Expect:") })
            }
            #expect(response.entityTag == "\"echo-1\"")
            #expect(response.retryAfter == "120")
            #expect(response.location == "/echo/made")
            #expect(response.contentType == "text/plain")
            #expect(response.davClasses == ["1", "3", "calendar-access"])
            #expect(response.headers("dav") == ["1, 3", "calendar-access"])
        }
    }

    @Test("a status other than 2xx comes back as a response, with the start of its body")
    func otherStatuses() throws {
        let server = try FixtureServer()
        for status in [207, 404, 412, 507] {
            let response = try HTTPClient().send(HTTPRequest(.put, server.url("/status/\(status)"), body: Array("x".utf8)))
            #expect(response.status == status)
            #expect(response.body == Array("status \(status)\n".utf8))
        }
        let busy = try HTTPClient().send(HTTPRequest(.report, server.url("/status/503")))
        #expect(busy.status == 503)
        #expect(busy.retryAfter == "30")
        let large = try HTTPClient().send(HTTPRequest(.get, server.url("/large-error"), maximumBodySize: 1 << 24))
        #expect(large.status == 500)
        #expect(large.body.count == HTTPClient.maximumErrorBody)
    }

    @Test("a PROPFIND follows a redirect with its method and body; a PUT, DELETE or REPORT gets the redirect back")
    func redirectsByMethod() throws {
        let server = try FixtureServer()
        let body = Array("<propfind xmlns=\"DAV:\"/>".utf8)
        let found = try HTTPClient().send(HTTPRequest(.propfind, server.url("/redirect-echo"), headers: [HTTPHeader("Content-Type", "text/xml")], body: body))
        #expect(found.status == 200)
        #expect(found.url == server.url("/echo"))
        #expect(echoed(found).method == "PROPFIND")
        #expect(echoed(found).body == "<propfind xmlns=\"DAV:\"/>")
        for method in [HTTPRequest.Method.put, .delete, .report] {
            let response = try HTTPClient().send(HTTPRequest(method, server.url("/redirect-echo"), body: method == .delete ? [] : body))
            #expect(response.status == 307, "\(method)")
            #expect(response.location == "/echo")
            #expect(response.url == server.url("/redirect-echo"))
        }
        #expect(failure(HTTPRequest(.get, server.url("/chain/2"), maximumRedirects: 2))?.code == .tooManyRedirects)
    }

    @Test("Basic credentials are sent with the first request, and dropped where a redirect leads to another host")
    func basicCredentials() throws {
        let server = try FixtureServer()
        let credentials = HTTPCredentials(user: "ann", password: "secret")
        let direct = try HTTPClient().send(HTTPRequest(.propfind, server.url("/echo"), credentials: credentials))
        // "ann:secret" in base64, in the one request made.
        #expect(echoed(direct).headers.contains("Authorization: Basic YW5uOnNlY3JldA=="))
        #expect(try HTTPClient().send(HTTPRequest(.get, server.url("/basic"), credentials: credentials)).body == Array("welcome\n".utf8))
        let elsewhere = try HTTPClient().send(HTTPRequest(.propfind, server.url("/echo-elsewhere"), credentials: credentials))
        #expect(elsewhere.url == "http://localhost:\(server.port)/echo")
        #expect(!echoed(elsewhere).headers.contains { $0.hasPrefix("Authorization") })
    }

    @Test("a 401 is an error that says whether the password was refused or none was sent, and never shows the password")
    func unauthorized() throws {
        let server = try FixtureServer()
        let wrong = try #require(failure(HTTPRequest(.get, server.url("/basic"), credentials: HTTPCredentials(user: "ann", password: "hunter2"))))
        #expect(wrong.code == .unauthorized)
        #expect(wrong.description.contains("refused the password for user 'ann'"))
        #expect(!wrong.description.contains("hunter2"))
        let none = try #require(failure(HTTPRequest(.get, server.url("/basic"))))
        #expect(none.code == .unauthorized)
        #expect(none.description.contains("asks for a user name and password"))
    }

    @Test("a Digest-only challenge is refused with a clear error, not answered")
    func digestRefused() throws {
        let server = try FixtureServer()
        let error = try #require(failure(HTTPRequest(.propfind, server.url("/digest"), credentials: HTTPCredentials(user: "ann", password: "secret"))))
        #expect(error.code == .authenticationScheme)
        #expect(error.description.contains("only Digest authentication"))
        #expect(!error.description.contains("secret"))
    }

    @Test("plain http is refused off this machine, the address or a redirect's, before anything is sent; loopback may use it")
    func plainHTTPOffLoopback() throws {
        let server = try FixtureServer()
        let remote = try #require(failure(HTTPRequest(.propfind, "http://calendar.example/dav/", credentials: HTTPCredentials(user: "ann", password: "secret"))))
        #expect(remote.code == .insecure)
        #expect(remote.description.contains("use https"))
        let redirected = try #require(failure(HTTPRequest(.get, server.url("/to-plain-remote"))))
        #expect(redirected.code == .insecure)
        #expect(redirected.description.contains("http://calendar.example/"))
        // The same redirect for a public feed (the downloads' policy) is followed, and fails only to resolve.
        #expect(failure(HTTPRequest(.get, server.url("/to-plain-remote"), plainHTTP: .allowed, connectTimeLimit: 5))?.code == .cannotResolve)
        for host in ["localhost", "127.0.0.1", "127.1.2.3", "[::1]", "LOCALHOST"] {
            let error = failure(HTTPRequest(.get, "http://\(host):1/", connectTimeLimit: 5))
            #expect(error?.code == .cannotConnect, "\(host): \(String(describing: error))")
        }
        for host in ["127.0.0.1.example", "128.0.0.1", "localhost.example", "[::2]"] {
            #expect(failure(HTTPRequest(.get, "http://\(host)/"))?.code == .insecure, "\(host)")
        }
    }

    @Test("a password in the address never appears in an error")
    func passwordInAddress() throws {
        let error = try #require(failure(HTTPRequest(.get, "http://ann:hunter2@calendar.example/")))
        #expect(error.code == .insecure)
        #expect(!error.description.contains("hunter2"))
        #expect(error.description.contains("calendar.example"))
    }

    @Test("the time limit holds across a stalled answer")
    func timeLimit() throws {
        let server = try FixtureServer()
        let error = try #require(failure(HTTPRequest(.get, server.url("/slow"), timeLimit: 1)))
        #expect(error.code == .timedOut)
    }

    @Test("header names and values that would split the request are refused before any transfer")
    func refusedHeaders() throws {
        #expect(failure(HTTPRequest(.get, "http://127.0.0.1:1/", headers: [HTTPHeader("Depth", "1\r\nX: y")]))?.code == .invalidRequest)
        #expect(failure(HTTPRequest(.get, "http://127.0.0.1:1/", headers: [HTTPHeader("Bad Name", "1")]))?.code == .invalidRequest)
        #expect(failure(HTTPRequest(.get, "http://127.0.0.1:1/", headers: [HTTPHeader("", "1")]))?.code == .invalidRequest)
        #expect(failure(HTTPRequest(.get, "ftp://127.0.0.1/"))?.code == .badURL)
    }

    @Test("credentials print without the password")
    func credentialsDescription() {
        #expect("\(HTTPCredentials(user: "ann", password: "hunter2"))" == "ann (password not shown)")
    }
}

@Suite("Redirects and credentials")
struct RedirectCredentialTests {
    @Test("the address a redirect leads to never carries the user and password libcurl would write into it")
    func noPasswordInTheRedirectedAddress() throws {
        let server = try FixtureServer()
        let response = try HTTPClient().send(HTTPRequest(.propfind, server.url("/redirect-echo"), credentials: HTTPCredentials(user: "ann", password: "secret")))
        #expect(response.url == server.url("/echo"))
        #expect(!response.url.contains("secret"))
    }
}
