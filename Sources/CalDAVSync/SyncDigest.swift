import CalendarExchange
import CalendarStore
import Foundation
import HolidayCalendars

/// The fingerprint of one UID's items as Chime exports them, by which a
/// sync tells a local edit from no change. DTSTAMP and LAST-MODIFIED lines
/// (with their folded continuations) are left out: an item counts as
/// changed when its content changed, not when only its stamps did.
enum SyncDigest {
    /// The export's stamp: fixed, so that the VTIMEZONEs' year span does not move with the clock.
    static let stamp = Date(timeIntervalSince1970: 0)

    static func of(_ items: CalendarItems) throws -> String {
        digest(of: try CalendarExport.bytes(items, calendarName: nil, stamp: stamp))
    }

    static func digest(of text: [UInt8]) -> String {
        // On the bytes, line by line at CR LF (the export is UTF-8 and
        // writes no other break), with the empty piece after a last CR LF
        // kept: the digests stored by earlier syncs stay the same.
        var kept: [UInt8] = []
        kept.reserveCapacity(text.count)
        var skipping = false
        var start = 0
        while start <= text.count {
            var end = start
            while end < text.count, !(text[end] == 13 && end + 1 < text.count && text[end + 1] == 10) { end += 1 }
            let line = text[start..<end]
            start = end + 2
            if let first = line.first, first == 32 || first == 9 {
                if skipping { continue }
            } else {
                let name = line.prefix { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: ";") }
                skipping = Self.named(name, "DTSTAMP") || Self.named(name, "LAST-MODIFIED")
                if skipping { continue }
            }
            kept += line
            kept += [13, 10]
        }
        return SHA256.hex(kept)
    }

    /// Whether a property's name is `upper` (ASCII capitals), in any case.
    private static func named(_ name: ArraySlice<UInt8>, _ upper: String) -> Bool {
        guard name.count == upper.utf8.count else { return false }
        for (byte, wanted) in zip(name, upper.utf8) {
            let capital: UInt8 = (97...122).contains(byte) ? byte - 32 : byte
            if capital != wanted { return false }
        }
        return true
    }
}
