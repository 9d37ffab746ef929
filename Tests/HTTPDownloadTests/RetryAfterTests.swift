import HTTPDownload
import Testing

@Suite("Retry-After read as a wait")
struct RetryAfterTests {
    /// 2026-12-02T08:00:00Z.
    let now: Int64 = 1_796_198_400

    @Test("delay-seconds is the wait as sent, surrounding spaces allowed")
    func seconds() {
        #expect(RetryAfter.delay("120", now: now) == 120)
        #expect(RetryAfter.delay(" 0 ", now: now) == 0)
        #expect(RetryAfter.delay("99999999999999999999999", now: now) == Int64.max)
    }

    @Test("an HTTP-date in each of its three forms is the wait until then; a past date is no wait")
    func dates() {
        // 2026-12-02T08:01:30Z, 90 s after now.
        #expect(RetryAfter.delay("Wed, 02 Dec 2026 08:01:30 GMT", now: now) == 90)
        #expect(RetryAfter.delay("Wednesday, 02-Dec-26 08:01:30 GMT", now: now) == 90)
        #expect(RetryAfter.delay("Wed Dec  2 08:01:30 2026", now: now) == 90)
        #expect(RetryAfter.delay("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 0)
        // RFC 9110's example, 1994-11-06T08:49:37Z.
        #expect(RetryAfter.httpDate("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.httpDate("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(RetryAfter.httpDate("Sun Nov  6 08:49:37 1994") == 784_111_777)
    }

    @Test("text that is neither a delay nor an HTTP-date is unreadable")
    func unreadable() {
        for text in ["", "-5", "1.5", "soon", "Wed, 31 Nov 2026 08:00:00 GMT", "Wed, 02 Dec 2026 24:00:00 GMT",
                     "Wed, 02 Dec 2026 08:00:00 CET", "Wed, 2 Dec 2026 08:00:00 GMT", "2026-12-02T08:00:00Z", "Wed, 02 Foo 2026 08:00:00 GMT"] {
            #expect(RetryAfter.delay(text, now: now) == nil, "\(text)")
        }
    }
}
