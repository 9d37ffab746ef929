@testable import CalDAVSync
import HolidayCalendars
import Testing

/// The fingerprint by which a sync tells a local edit from no change.
@Suite("SyncDigest: an item's content, not its stamps")
struct SyncDigestTests {
    static func digest(_ lines: [String]) -> String { SyncDigest.digest(of: Array(lines.joined(separator: "\r\n").utf8)) }

    @Test("DTSTAMP and LAST-MODIFIED, in any case and with their folded lines, are left out; everything else counts")
    func stampsLeftOut() {
        let plain = ["BEGIN:VTODO", "UID:bins@phone", "SUMMARY:Bins", "END:VTODO", ""]
        let stamped = ["BEGIN:VTODO", "UID:bins@phone", "DTSTAMP:20261201T080000Z", "last-modified;X-A=1:20261201", "  T080000Z",
                       "SUMMARY:Bins", "END:VTODO", ""]
        #expect(Self.digest(stamped) == Self.digest(plain))
        #expect(Self.digest(["BEGIN:VTODO", "UID:bins@phone", "SUMMARY:Bins, both", "END:VTODO", ""]) != Self.digest(plain))
        // A folded line of another property counts, and a name that only starts like a stamp's is no stamp.
        #expect(Self.digest(["SUMMARY:Bi", " ns"]) != Self.digest(["SUMMARY:Bi"]))
        #expect(Self.digest(["DTSTAMPS:1"]) != Self.digest([""]))
    }

    @Test("the digest is SHA-256 of the kept lines, each ending in CR LF, the empty piece after a last CR LF kept: as earlier syncs stored it")
    func keptForm() {
        let text = ["BEGIN:VTODO", "DTSTAMP:20261201T080000Z", " 0", "SUMMARY:Bins", "END:VTODO", ""]
        #expect(Self.digest(text) == SHA256.hex(Array("BEGIN:VTODO\r\nSUMMARY:Bins\r\nEND:VTODO\r\n\r\n".utf8)))
        #expect(Self.digest([]) == SHA256.hex([13, 10]))
        #expect(Self.digest(["SUMMARY:Café"]) == SHA256.hex(Array("SUMMARY:Café\r\n".utf8)))
    }
}
