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
        var kept: [UInt8] = []
        var skipping = false
        for line in String(decoding: text, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false) {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if skipping { continue }
            } else {
                let name = line.prefix { $0 != ":" && $0 != ";" }.uppercased()
                skipping = name == "DTSTAMP" || name == "LAST-MODIFIED"
                if skipping { continue }
            }
            kept += line.utf8
            kept += [13, 10]
        }
        return SHA256.hex(kept)
    }
}
