/// Hrefs as multistatus replies give them: an absolute path (most
/// servers), a full URL, or (rarely) a path relative to the request.
public enum DAVHref {
    /// `href` as an absolute URL, resolved against the URL the request went
    /// to, percent-encoding kept (what to send back to the server).
    public static func resolve(_ href: String, against base: String) -> String {
        let lowered = href.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return href }
        guard let schemeEnd = base.range(of: "://") else { return href }
        let afterAuthority = base[schemeEnd.upperBound...].firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? base.endIndex
        let origin = base[..<afterAuthority]
        if href.hasPrefix("//") { return base[..<schemeEnd.lowerBound] + ":" + href }
        if href.hasPrefix("/") { return origin + href }
        let pathEnd = base[afterAuthority...].firstIndex { $0 == "?" || $0 == "#" } ?? base.endIndex
        let path = base[afterAuthority..<pathEnd]
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + directory + href
    }

    /// The path of an absolute URL (or of an absolute-path href),
    /// percent-decoded, for comparing hrefs that different servers encode
    /// differently (`todo-1%40phone.ics` and `todo-1@phone.ics`). Bytes that
    /// do not decode as UTF-8 keep their escapes.
    public static func decodedPath(_ url: String) -> String {
        // On the bytes: every delimiter is ASCII, and a sync compares thousands of hrefs.
        let bytes = Array(url.utf8)
        let slash = UInt8(ascii: "/"), query = UInt8(ascii: "?"), fragment = UInt8(ascii: "#")
        var start = 0
        if let scheme = (0..<max(bytes.count - 2, 0)).first(where: {
            bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == slash && bytes[$0 + 2] == slash
        }) {
            start = bytes[(scheme + 3)...].firstIndex { $0 == slash || $0 == query || $0 == fragment } ?? bytes.count
        }
        let end = bytes[start...].firstIndex { $0 == query || $0 == fragment } ?? bytes.count
        return percentDecoded(bytes[start..<end])
    }

    static func percentDecoded(_ text: String) -> String { percentDecoded(Array(text.utf8)[...]) }

    private static func percentDecoded(_ utf8: ArraySlice<UInt8>) -> String {
        guard utf8.contains(UInt8(ascii: "%")) else { return String(decoding: utf8, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index < utf8.endIndex {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.endIndex, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? String(decoding: utf8, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
