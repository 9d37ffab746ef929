/// RFC 3339 timestamps with a zone designator: `2027-01-01T00:00:00Z`,
/// `2026-12-01T08:50:00+08:00`, with optional fractional seconds.
public enum RFC3339 {
    /// `2026-12-01T08:50:00+08:00`: the wall-clock time at `instant` in
    /// `zone`, with its offset.
    public static func text(_ instant: Int64, in zone: TimeZoneRules) -> String {
        text(zone.localTime(at: instant), offset: Int(zone.offset(at: instant)))
    }

    /// A wall-clock time with its offset in seconds east of UTC.
    public static func text(_ local: LocalDateTime, offset: Int) -> String {
        local.description + offsetText(offset)
    }

    /// `2026-12-01T00:50:00Z`; a fraction of a second is dropped.
    public static func utc(_ instant: Int64) -> String {
        LocalDateTime(localSeconds: instant).description + "Z"
    }

    /// `+08:00`, `-03:30`. Offsets that are not whole minutes (local mean
    /// time before 1900) keep their seconds: `+08:05:43`.
    public static func offsetText(_ offset: Int) -> String {
        let magnitude = abs(offset)
        var text = (offset < 0 ? "-" : "+") + CivilDate.twoDigits(magnitude / 3600) + ":" + CivilDate.twoDigits(magnitude / 60 % 60)
        if magnitude % 60 != 0 { text += ":" + CivilDate.twoDigits(magnitude % 60) }
        return text
    }

    /// The Unix time a timestamp names, in seconds, or nil when the text is
    /// not RFC 3339 with an offset or `Z`.
    public static func instant(_ text: String) -> Double? {
        guard let (local, offset, fraction) = parse(text) else { return nil }
        return Double(local.localSeconds - Int64(offset)) + fraction
    }

    /// The wall-clock part, the offset in seconds east of UTC, and the
    /// fraction of a second.
    public static func parse(_ text: String) -> (LocalDateTime, Int, Double)? {
        var body = Substring(text)
        let offset: Int
        if body.hasSuffix("Z") || body.hasSuffix("z") {
            offset = 0
            body = body.dropLast()
        } else {
            guard body.count > 6 else { return nil }
            let designator = Array(body.suffix(6).utf8)
            let (hours, minutes) = designator.withUnsafeBufferPointer {
                (CivilDate.decimal($0, from: 1, width: 2), CivilDate.decimal($0, from: 4, width: 2))
            }
            guard designator[0] == UInt8(ascii: "+") || designator[0] == UInt8(ascii: "-"), designator[3] == UInt8(ascii: ":"),
                  let hours, let minutes, hours <= 23, minutes <= 59 else { return nil }
            let magnitude = hours * 3600 + minutes * 60
            offset = designator[0] == UInt8(ascii: "-") ? -magnitude : magnitude
            body = body.dropLast(6)
        }
        var fraction = 0.0
        if let dot = body.firstIndex(of: "."), body.distance(from: body.startIndex, to: dot) == 19 {
            let digits = body[body.index(after: dot)...]
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Double("0." + digits) else { return nil }
            fraction = value
            body = body[..<dot]
        }
        guard body.count == 19, let local = LocalDateTime(parsing: body.replacingOccurrences(of: "t", with: "T")) else { return nil }
        return (local, offset, fraction)
    }
}

private extension Substring {
    func replacingOccurrences(of target: Character, with replacement: Character) -> String {
        String(map { $0 == target ? replacement : $0 })
    }
}
