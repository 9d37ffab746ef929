/// What `HTTPClient` must know of an address before it sends anything: the
/// scheme, the host (to tell loopback and a change of host), and the text
/// to show in an error, without a user name or password that was in it.
struct HTTPAddress: Equatable {
    /// "http" or "https", lowercased.
    let scheme: String
    /// Lowercased; an IPv6 literal keeps its brackets ("[::1]").
    let host: String
    /// The address with any `user:password@` removed.
    let shown: String

    /// Nil for anything that is not http(s)://host...
    init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        let afterSlashes = text.index(colon, offsetBy: 3)
        let rest = text[afterSlashes...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var shown = text
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
            shown = String(text[..<afterSlashes]) + "…@" + String(text[authority.startIndex...])
        }
        let host: Substring
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
        } else {
            host = authority[..<(authority.firstIndex(of: ":") ?? authority.endIndex)]
        }
        guard !host.isEmpty else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.shown = shown
    }

    /// This machine by name or number: localhost (and its subdomains, which
    /// RFC 6761 reserves for it), 127.0.0.0/8, ::1.
    var isLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "[::1]" || host == "[0:0:0:0:0:0:0:1]" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "127" else { return false }
        return parts.allSatisfy { part in part.count <= 3 && !part.isEmpty && part.allSatisfy(\.isASCIIDigit) && Int(part)! <= 255 }
    }

    /// `text` with any `user:password@` before the host removed.
    static func withoutUserInfo(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + String(text[text.index(after: at)...])
    }

    /// Shown text for any address, well formed or not.
    static func shown(_ text: String) -> String { HTTPAddress(text)?.shown ?? text }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
