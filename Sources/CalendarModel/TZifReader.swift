/// A zone file that is not valid TZif, and where it went wrong.
struct TZifError: Error { var reason: String }

/// Reads the binary TZif format of RFC 8536 (versions 1 to 4): the 64-bit
/// data block when present, and the POSIX TZ string in the footer.
struct TZifReader {
    let bytes: [UInt8]

    func rules(identifier: String) throws(TZifError) -> TimeZoneRules {
        var cursor = 0
        let first = try header(at: &cursor)
        // Version 1 (a NUL byte) has only the 32-bit block; later versions
        // repeat the data with 64-bit times after it, and that copy rules.
        guard bytes[4] >= UInt8(ascii: "2") else {
            return try block(first, timeSize: 4, at: &cursor, identifier: identifier, footer: nil)
        }
        cursor += first.blockSize(timeSize: 4)
        let second = try header(at: &cursor)
        var footerCursor = cursor + second.blockSize(timeSize: 8)
        let footer = try footerRule(at: &footerCursor)
        return try block(second, timeSize: 8, at: &cursor, identifier: identifier, footer: footer)
    }

    struct Header {
        var isUTCCount, isStandardCount, leapCount, timeCount, typeCount, charCount: Int
        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
                + isStandardCount + isUTCCount
        }
    }

    private func header(at cursor: inout Int) throws(TZifError) -> Header {
        guard cursor + 44 <= bytes.count, bytes[cursor..<cursor + 4].elementsEqual("TZif".utf8) else {
            throw TZifError(reason: "missing TZif header at byte \(cursor)")
        }
        var counts: [Int] = []
        // RFC 8536 counts are unsigned.
        for index in 0..<6 { counts.append(Int(UInt32(truncatingIfNeeded: integer(at: cursor + 20 + index * 4, size: 4)))) }
        cursor += 44
        let result = Header(isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                            timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
        guard result.typeCount > 0 else { throw TZifError(reason: "no local time types") }
        return result
    }

    private func block(_ header: Header, timeSize: Int, at cursor: inout Int, identifier: String, footer: POSIXTimeZoneRule?) throws(TZifError) -> TimeZoneRules {
        guard cursor + header.blockSize(timeSize: timeSize) <= bytes.count else { throw TZifError(reason: "truncated data block") }
        let timesStart = cursor
        let indexStart = timesStart + header.timeCount * timeSize
        let typesStart = indexStart + header.timeCount
        var offsets: [Int32] = []
        for type in 0..<header.typeCount {
            offsets.append(Int32(truncatingIfNeeded: integer(at: typesStart + type * 6, size: 4)))
        }
        // RFC 8536: type 0 applies before the first transition.
        var previous = offsets[0]
        var table: [TimeZoneRules.Transition] = []
        for index in 0..<header.timeCount {
            let instant = integer(at: timesStart + index * timeSize, size: timeSize)
            let type = Int(bytes[indexStart + index])
            guard type < offsets.count else { throw TZifError(reason: "transition \(index) names a missing type") }
            let after = offsets[type]
            // Changes of name or DST flag alone do not move wall clocks.
            if after != previous {
                table.append(.init(instant: instant, before: previous, after: after))
            }
            previous = after
        }
        return TimeZoneRules(identifier: identifier, table: table, initialOffset: offsets[0], footer: footer)
    }

    private func footerRule(at cursor: inout Int) throws(TZifError) -> POSIXTimeZoneRule? {
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\n") else { return nil }
        guard let end = bytes[(cursor + 1)...].firstIndex(of: UInt8(ascii: "\n")) else {
            throw TZifError(reason: "unterminated footer")
        }
        let text = String(decoding: bytes[(cursor + 1)..<end], as: UTF8.self)
        if text.isEmpty { return nil }
        guard let rule = POSIXTimeZoneRule(text) else { throw TZifError(reason: "unreadable TZ string '\(text)'") }
        return rule
    }

    /// A big-endian signed integer of 4 or 8 bytes.
    private func integer(at offset: Int, size: Int) -> Int64 {
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        if size == 4 { return Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: value))) }
        return Int64(bitPattern: value)
    }
}
