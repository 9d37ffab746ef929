import CalendarModel
import JSONValues

/// One line of a position stream (`chime location --stdin`), in any of the
/// forms a feeder may write:
///
/// - `LAT LON [ACCURACY]`, fields separated by spaces, tabs or one comma
///   (`52.52 13.40 15`, `52.52,13.40`, `52.52, 13.40, 15`);
/// - a `geo:` URI (RFC 5870): `geo:LAT,LON[,ALT][;crs=wgs84][;u=METRES]`;
/// - a gpsd JSON report, as `gpspipe -w` writes them: a TPV report with a
///   fix (mode 2 or 3) gives a fix; one without a fix and every other class
///   (VERSION, DEVICES, WATCH, SKY, …) is skipped.
///
/// Blank lines and lines starting with `#` are skipped, so a hand-written
/// track may carry comments.
public enum PositionLine: Hashable, Sendable {
    case fix(Fix)
    /// Nothing to use and nothing wrong; the reason is for a verbose log.
    case skipped(String)

    /// Reads one line. Fixes without a time of their own (plain lines, geo:
    /// URIs, TPV reports without `time`) are dated `receivedAt`.
    public static func parse(_ line: some StringProtocol, receivedAt: Double) throws(PositionLineError) -> PositionLine {
        let text = line.trimmingSpace()
        if text.isEmpty { return .skipped("blank line") }
        if text.hasPrefix("#") { return .skipped("comment") }
        if text.hasPrefix("{") { return try gpsdReport(text, receivedAt: receivedAt) }
        if text.utf8.count >= 4, text.prefix(4).lowercased() == "geo:" { return try geoURI(text, receivedAt: receivedAt) }
        return try plain(text, receivedAt: receivedAt)
    }

    // MARK: LAT LON [ACCURACY]

    private static func plain(_ text: Substring, receivedAt: Double) throws(PositionLineError) -> PositionLine {
        var fields: [Substring] = []
        var fieldStart: String.Index?
        var commas = 0
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "," || character == " " || character == "\t" {
                if let start = fieldStart {
                    fields.append(text[start..<index])
                    fieldStart = nil
                    commas = 0
                }
                if character == "," {
                    commas += 1
                    guard commas == 1, !fields.isEmpty else {
                        throw PositionLineError("an empty field in '\(clipped(text))': expected LAT LON [ACCURACY]")
                    }
                }
            } else if fieldStart == nil {
                fieldStart = index
            }
            index = text.index(after: index)
        }
        if let start = fieldStart { fields.append(text[start...]) } else if commas > 0 {
            throw PositionLineError("an empty field in '\(clipped(text))': expected LAT LON [ACCURACY]")
        }
        guard (2...3).contains(fields.count) else {
            throw PositionLineError("not a position: '\(clipped(text))'; expected LAT LON [ACCURACY], a geo: URI or a gpsd JSON report")
        }
        let latitude = try number(fields[0], "latitude")
        let longitude = try number(fields[1], "longitude")
        let accuracy = fields.count == 3 ? try number(fields[2], "accuracy") : nil
        return try fix(latitude: latitude, longitude: longitude, accuracy: accuracy, time: receivedAt)
    }

    private static func number(_ field: Substring, _ name: String) throws(PositionLineError) -> Double {
        // Decimal only: Double reads 0x10 as 16, and 1e1, inf and nan.
        guard let value = DecimalNumber.value(field) else { throw PositionLineError("\(name) '\(clipped(field))' is not a number") }
        return value
    }

    // MARK: geo: URIs (RFC 5870)

    private static func geoURI(_ text: Substring, receivedAt: Double) throws(PositionLineError) -> PositionLine {
        let body = text.dropFirst(4)
        let parts = body.split(separator: ";", omittingEmptySubsequences: false)
        let coordinates = parts[0].split(separator: ",", omittingEmptySubsequences: false)
        guard (2...3).contains(coordinates.count) else {
            throw PositionLineError("geo: URI '\(clipped(text))' needs LAT,LON or LAT,LON,ALT")
        }
        let latitude = try uriNumber(coordinates[0], "latitude", in: text)
        let longitude = try uriNumber(coordinates[1], "longitude", in: text)
        if coordinates.count == 3 { _ = try uriNumber(coordinates[2], "altitude", in: text) }
        var uncertainty: Double?
        var seen: Set<String> = []
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].lowercased()
            guard !name.isEmpty else { throw PositionLineError("geo: URI '\(clipped(text))' has an empty parameter") }
            guard seen.insert(name).inserted else {
                throw PositionLineError("geo: URI '\(clipped(text))' has more than one '\(name)' parameter")
            }
            let value = pair.count == 2 ? pair[1] : ""
            switch name {
            case "crs":
                // Coordinates in another reference system would need a
                // transformation this reader does not have.
                guard value.lowercased() == "wgs84" else {
                    throw PositionLineError("geo: URI crs '\(clipped(value))' is not supported: only wgs84")
                }
            case "u":
                uncertainty = try uriNumber(value, "accuracy (u)", in: text)
            default:
                break  // RFC 5870 lets other parameters through; none of them moves the point.
            }
        }
        return try fix(latitude: latitude, longitude: longitude, accuracy: uncertainty, time: receivedAt)
    }

    /// RFC 5870's `num`: an optional minus, digits, optionally a point and
    /// more digits; no exponent, no sign '+', no NaN.
    private static func uriNumber(_ field: Substring, _ name: String, in text: Substring) throws(PositionLineError) -> Double {
        var digits = field.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        let parts = digits.split(separator: UInt8(ascii: "."), maxSplits: 1, omittingEmptySubsequences: false)
        let valid = !digits.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard valid, let value = Double(field) else {
            throw PositionLineError("\(name) '\(clipped(field))' in geo: URI '\(clipped(text))' is not a number")
        }
        return value
    }

    // MARK: gpsd JSON

    private static func gpsdReport(_ text: Substring, receivedAt: Double) throws(PositionLineError) -> PositionLine {
        let root: JSONValue
        do {
            // Only the report's own members are read: nested lists are checked, not built.
            root = try JSONValue.parse(Array(text.utf8), lastKeyWins: true, keptDepth: 1)
        } catch {
            throw PositionLineError("not valid JSON (\(error.reason) at byte \(error.offset + 1)): '\(clipped(text))'")
        }
        guard case .object(let members) = root else {
            throw PositionLineError("not valid JSON (expected a JSON object at byte 1): '\(clipped(text))'")
        }
        guard case .string(let kind)? = members["class"] else {
            throw PositionLineError("a JSON line without a \"class\" string is not a gpsd report: '\(clipped(text))'")
        }
        guard kind == "TPV" else { return .skipped("gpsd \(kind) report") }
        guard case .number(let mode)? = members["mode"] else {
            throw PositionLineError("gpsd TPV report without a numeric \"mode\": '\(clipped(text))'")
        }
        // gpsd's modes are 0 to 3; any other number is shown as it came (Int() traps past Int's range).
        let modeText = mode == mode.rounded() && abs(mode) < 1e15 ? String(Int(mode)) : String(mode)
        guard mode >= 2 else { return .skipped("gpsd TPV report without a fix (mode \(modeText))") }
        func field(_ name: String) throws(PositionLineError) -> Double? {
            switch members[name] {
            case nil, .null?: return nil
            case .number(let value)?: return value
            case let other?: throw PositionLineError("gpsd TPV \"\(name)\" is not a number but \(described(other)): '\(clipped(text))'")
            }
        }
        guard let latitude = try field("lat"), let longitude = try field("lon") else {
            throw PositionLineError("gpsd TPV report with mode \(modeText) but no \"lat\" and \"lon\": '\(clipped(text))'")
        }
        // eph is gpsd's horizontal error estimate; older reports only give
        // the per-axis epx and epy, of which the larger bounds it.
        let axes = [try field("epx"), try field("epy")].compactMap { $0 }
        let accuracy = try field("eph") ?? axes.max()
        var time = receivedAt
        switch members["time"] {
        case nil, .null?:
            break
        case .string(let stamp)?:
            guard let instant = RFC3339.instant(stamp) else {
                throw PositionLineError("gpsd TPV time '\(clipped(stamp))' is not an ISO 8601 (RFC 3339) timestamp")
            }
            time = instant
        case let other?:
            throw PositionLineError("gpsd TPV \"time\" is not a string but \(described(other)): '\(clipped(text))'")
        }
        return try fix(latitude: latitude, longitude: longitude, accuracy: accuracy, time: time)
    }

    /// What a value is, for a message.
    private static func described(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "the string \"\(clipped(text))\""
        case .number(let value): "the number \(value)"
        case .bool(let value): "\(value)"
        case .null: "null"
        case .array, .object: "an array or object"
        }
    }

    // MARK: Shared

    private static func fix(latitude: Double, longitude: Double, accuracy: Double?, time: Double) throws(PositionLineError) -> PositionLine {
        do {
            return .fix(try Fix(latitude: latitude, longitude: longitude, accuracy: accuracy, time: time))
        } catch {
            throw PositionLineError(error.description)
        }
    }

    /// The offending text in a message, cut short so a garbled megabyte
    /// does not flood the log.
    static func clipped(_ text: some StringProtocol) -> String {
        text.count <= 80 ? String(text) : String(text.prefix(77)) + "..."
    }
}

/// Why a position line was refused; `line` is set by a reader that counts
/// lines, and then leads the message.
public struct PositionLineError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public var line: Int?

    public init(_ message: String, line: Int? = nil) {
        self.message = message
        self.line = line
    }

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

private extension StringProtocol {
    func trimmingSpace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let view = self[...]
        guard let first = view.firstIndex(where: { !isSpace($0) }), let last = view.lastIndex(where: { !isSpace($0) }) else {
            return Substring()
        }
        return Substring(view[first...last])
    }
}
