import HTTPDownload
import Testing

@Suite("A subscription's address as the http(s) address to fetch")
struct SubscriptionAddressTests {
    @Test("webcal and webcals become https; http and https stay as given")
    func mapped() throws {
        #expect(try subscriptionHTTPAddress("webcal://example.org/cal.ics") == "https://example.org/cal.ics")
        #expect(try subscriptionHTTPAddress("WEBCALS://example.org/a?b=c") == "https://example.org/a?b=c")
        #expect(try subscriptionHTTPAddress("http://example.org:8080/cal.ics") == "http://example.org:8080/cal.ics")
        #expect(try subscriptionHTTPAddress("HTTPS://Example.org/Cal.ics") == "https://Example.org/Cal.ics")
        #expect(try subscriptionHTTPAddress("  webcal://example.org/cal.ics\n") == "https://example.org/cal.ics")
    }

    @Test("other schemes, a missing scheme and a missing host are refused as bad addresses, naming the address")
    func refused() {
        for text in ["ftp://example.org/cal.ics", "file:///home/ann/cal.ics", "example.org/cal.ics", "webcal://", "mailto:ann@example.org", ""] {
            do {
                let mapped = try subscriptionHTTPAddress(text)
                Issue.record("'\(text)' mapped to '\(mapped)'")
            } catch {
                #expect(error.code == .badURL, "'\(text)'")
                #expect(error.description.contains("'\(text)'"), "'\(text)'")
            }
        }
        // A file's address is refused for its scheme, which is what is wrong, not for having no host.
        #expect(throws: DownloadError.self) { try subscriptionHTTPAddress("file:///home/ann/cal.ics") }
        do {
            _ = try subscriptionHTTPAddress("file:///home/ann/cal.ics")
        } catch {
            #expect(error.description.contains("file is not a calendar address scheme"), "\(error.description)")
        }
    }
}
