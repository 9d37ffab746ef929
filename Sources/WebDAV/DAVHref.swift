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
        var path = Substring(url)
        if let schemeEnd = url.range(of: "://") {
            let rest = url[schemeEnd.upperBound...]
            path = rest[(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)...]
        }
        path = path[..<(path.firstIndex { $0 == "?" || $0 == "#" } ?? path.endIndex)]
        return percentDecoded(String(path))
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index] == UInt8(ascii: "%"), index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? text
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
