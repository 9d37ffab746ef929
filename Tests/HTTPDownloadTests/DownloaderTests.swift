import CCurl
import Foundation
import HTTPDownload
import TestSupport
import Testing

@Suite("Downloading over http from a local fixture server")
struct DownloaderTests {
    let calendar: [UInt8]
    let etag = "\"fixture-v1\""
    let lastModified = "Wed, 02 Dec 2026 08:00:00 GMT"

    init() throws {
        let path = FixtureServer.folder + "/calendar.ics"
        calendar = try #require(FileManager.default.contents(atPath: path).map { [UInt8]($0) }, "the fixture \(path) is missing")
    }

    private func failure(_ request: Downloader.Request) -> DownloadError? {
        do {
            let response = try Downloader().download(request)
            Issue.record("\(request.url) gave status \(response.status)")
            return nil
        } catch {
            return error
        }
    }

    @Test("a GET gives the body, the status, the final address and the ETag, Last-Modified and Content-Type as sent")
    func plainGet() throws {
        let server = try FixtureServer()
        let response = try Downloader().download(.init(url: server.url("/calendar.ics")))
        #expect(response.status == 200)
        #expect(response.body == calendar)
        #expect(!response.isNotModified)
        #expect(response.finalURL == server.url("/calendar.ics"))
        #expect(response.entityTag == etag)
        #expect(response.lastModified == lastModified)
        #expect(response.contentType == "text/calendar; charset=utf-8")
    }

    @Test("a matching ETag is answered not modified, with no body and the validators kept")
    func notModifiedByETag() throws {
        let server = try FixtureServer()
        let response = try Downloader().download(.init(url: server.url("/calendar.ics"), entityTag: etag))
        #expect(response.status == 304)
        #expect(response.content == .notModified)
        #expect(response.body == nil)
        #expect(response.entityTag == etag)
        #expect(response.lastModified == lastModified)
    }

    @Test("a matching Last-Modified, sent as If-Modified-Since, is answered not modified")
    func notModifiedByDate() throws {
        let server = try FixtureServer()
        let response = try Downloader().download(.init(url: server.url("/calendar.ics"), lastModified: lastModified))
        #expect(response.content == .notModified)
    }

    @Test("an ETag that no longer matches gets the new body, even with the old Last-Modified beside it")
    func changedETag() throws {
        let server = try FixtureServer()
        let response = try Downloader().download(.init(url: server.url("/calendar.ics"), entityTag: "\"fixture-v0\"", lastModified: lastModified))
        #expect(response.status == 200)
        #expect(response.body == calendar)
        #expect(response.entityTag == etag)
    }

    @Test("the request says it is Chime's, with its version, asks for text/calendar and sends the validators given")
    func requestHeaders() throws {
        let server = try FixtureServer()
        let response = try Downloader().download(.init(url: server.url("/headers"), entityTag: etag, lastModified: lastModified))
        let lines = String(decoding: try #require(response.body), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.contains("User-Agent: \(Downloader.userAgent)"))
        #expect(Downloader.userAgent.hasPrefix("chime/") && Downloader.userAgent.count > "chime/".count)
        #expect(lines.contains("Accept: text/calendar"))
        #expect(lines.contains("If-None-Match: \(etag)"))
        #expect(lines.contains("If-Modified-Since: \(lastModified)"))
    }

    @Test("redirects are followed to the final address, within the limit; one more is an error")
    func redirects() throws {
        let server = try FixtureServer()
        let once = try Downloader().download(.init(url: server.url("/redirect")))
        #expect(once.body == calendar)
        #expect(once.finalURL == server.url("/calendar.ics"))
        #expect(once.entityTag == etag)
        // /chain/2 → /chain/1 → /chain/0 → /calendar.ics: three redirects.
        let three = try Downloader().download(.init(url: server.url("/chain/2"), maximumRedirects: 3))
        #expect(three.body == calendar)
        let refused = try #require(failure(.init(url: server.url("/chain/2"), maximumRedirects: 2)))
        #expect(refused.code == .tooManyRedirects)
        #expect(refused.description.contains(server.url("/chain/2")))
        #expect(failure(.init(url: server.url("/redirect"), maximumRedirects: 0))?.code == .tooManyRedirects)
    }

    @Test("a redirect to ftp or file is refused")
    func redirectToOtherScheme() throws {
        let server = try FixtureServer()
        for path in ["/to-ftp", "/to-file"] {
            let error = try #require(failure(.init(url: server.url(path))))
            #expect(error.code == .redirectRefused, "\(path): \(error)")
            #expect(error.description.contains(server.url(path)))
        }
    }

    @Test("credentials go to the address's host and not to the host a redirect leads to")
    func credentialsStayOnTheHost() throws {
        let server = try FixtureServer()
        let credentials = Downloader.Credentials(user: "ann", password: "secret")
        let direct = try Downloader().download(.init(url: server.url("/headers"), credentials: credentials))
        // "ann:secret" in base64.
        #expect(String(decoding: try #require(direct.body), as: UTF8.self).contains("Authorization: Basic YW5uOnNlY3JldA=="))
        let redirected = try Downloader().download(.init(url: server.url("/to-other-host"), credentials: credentials))
        #expect(redirected.finalURL == "http://localhost:\(server.port)/headers")
        #expect(!String(decoding: try #require(redirected.body), as: UTF8.self).contains("Authorization"))
    }

    @Test("404 and 410 are not found, naming the address")
    func notFound() throws {
        let server = try FixtureServer()
        for path in ["/missing.ics", "/gone"] {
            let error = try #require(failure(.init(url: server.url(path))))
            #expect(error.code == .notFound)
            #expect(error.description.contains(server.url(path)))
        }
    }

    @Test("a body that does not end is cut off at the size limit, and the error names the limit")
    func endlessBody() throws {
        let server = try FixtureServer()
        let error = try #require(failure(.init(url: server.url("/endless"), maximumBodySize: 1 << 20, timeLimit: 120)))
        #expect(error.code == .tooLarge)
        #expect(error.description.contains("1 MiB"))
        #expect(error.description.contains(server.url("/endless")))
    }

    @Test("a Content-Length beyond the size limit is refused before the body comes")
    func declaredTooLarge() throws {
        let server = try FixtureServer()
        let error = try #require(failure(.init(url: server.url("/declared-large"), maximumBodySize: 1 << 20)))
        #expect(error.code == .tooLarge)
        #expect(error.description.contains("1073741824"))
    }

    @Test("a body under the size limit is taken whole")
    func bodyUnderTheLimit() throws {
        let server = try FixtureServer()
        #expect(try Downloader().download(.init(url: server.url("/calendar.ics"), maximumBodySize: calendar.count)).body == calendar)
        #expect(failure(.init(url: server.url("/calendar.ics"), maximumBodySize: calendar.count - 1))?.code == .tooLarge)
    }

    @Test("a server that stalls past the time limit is timed out")
    func slow() throws {
        let server = try FixtureServer()
        let error = try #require(failure(.init(url: server.url("/slow"), timeLimit: 1)))
        #expect(error.code == .timedOut)
        #expect(error.description.contains(server.url("/slow")))
    }

    @Test("a server that is not there cannot be connected to")
    func unreachable() throws {
        let server = try FixtureServer()
        let address = server.url("/calendar.ics")
        server.stop()
        let error = try #require(failure(.init(url: address, connectTimeLimit: 5)))
        #expect(error.code == .cannotConnect)
        #expect(error.description.contains(address))
    }

    @Test("addresses other than http and https, and request values that would split a header, are refused before any transfer")
    func refusedRequests() throws {
        #expect(failure(.init(url: "ftp://127.0.0.1/calendar.ics"))?.code == .badURL)
        #expect(failure(.init(url: "webcal://example.org/calendar.ics"))?.code == .badURL)
        #expect(failure(.init(url: "http://127.0.0.1/\r\nX: y"))?.code == .badURL)
        #expect(failure(.init(url: "http://127.0.0.1/", entityTag: "\"a\"\r\nX-Injected: 1"))?.code == .invalidRequest)
        #expect(failure(.init(url: "http://127.0.0.1/", timeLimit: 0))?.code == .invalidRequest)
        #expect(failure(.init(url: "http://127.0.0.1/", connectTimeLimit: .nan))?.code == .invalidRequest)
        #expect(failure(.init(url: "http://127.0.0.1/", maximumBodySize: 0))?.code == .invalidRequest)
    }

    @Test("the libcurl option numbers CCurl adds for downloads and requests are the library's own")
    func optionNumbers() throws {
        let curl = try LibCurl.shared.get()
        let options: [(String, Int32)] = [
            ("HTTPHEADER", CHIME_CURLOPT_HTTPHEADER), ("HEADERDATA", CHIME_CURLOPT_HEADERDATA),
            ("HEADERFUNCTION", CHIME_CURLOPT_HEADERFUNCTION), ("USERNAME", CHIME_CURLOPT_USERNAME),
            ("PASSWORD", CHIME_CURLOPT_PASSWORD), ("PROTOCOLS_STR", CHIME_CURLOPT_PROTOCOLS_STR),
            ("REDIR_PROTOCOLS_STR", CHIME_CURLOPT_REDIR_PROTOCOLS_STR), ("HTTPGET", CHIME_CURLOPT_HTTPGET),
            ("CUSTOMREQUEST", CHIME_CURLOPT_CUSTOMREQUEST), ("POSTFIELDS", CHIME_CURLOPT_POSTFIELDS),
            ("POSTFIELDSIZE", CHIME_CURLOPT_POSTFIELDSIZE), ("HTTPAUTH", CHIME_CURLOPT_HTTPAUTH),
            ("SSL_VERIFYPEER", CHIME_CURLOPT_SSL_VERIFYPEER), ("SSL_VERIFYHOST", CHIME_CURLOPT_SSL_VERIFYHOST),
        ]
        for (name, number) in options {
            let own = try #require(curl.optionNumber(name), "this libcurl has no curl_easy_option_by_name (before 7.73)")
            // -1: a libcurl before 7.85 has no _STR options; the bitmask ones stand in.
            #expect(own == number || (own == -1 && name.hasSuffix("_STR")), "CURLOPT_\(name)")
        }
    }
}
