import SystemCalls

/// The http(s) address to GET for a calendar subscription's address:
/// `webcal://` and `webcals://` (the schemes calendar links use so that a
/// browser hands them to a calendar program) become `https://`, since a
/// webcal server today serves TLS and a plain-text downgrade would let
/// anyone on the path change the calendar; `http://` and `https://` are kept
/// as given. Anything else (a file, ftp, a bare host) is refused.
public func subscriptionHTTPAddress(_ address: String) throws(DownloadError) -> String {
    let trimmed = address.trimmingWhitespace()
    guard let colon = trimmed.firstIndex(of: ":"), trimmed[colon...].hasPrefix("://") else {
        throw DownloadError(.badURL, "'\(address)' is not a calendar address; give an http, https or webcal address")
    }
    let scheme = trimmed[..<colon].lowercased()
    let rest = trimmed[trimmed.index(colon, offsetBy: 3)...]
    // The scheme first: `file:///…` has no host either, and its scheme is what is wrong.
    guard ["webcal", "webcals", "https", "http"].contains(scheme) else {
        throw DownloadError(.badURL, "'\(address)': \(scheme) is not a calendar address scheme; give an http, https or webcal address")
    }
    guard !rest.isEmpty, rest.first != "/" else {
        throw DownloadError(.badURL, "'\(address)' names no host")
    }
    return (scheme == "http" ? "http://" : "https://") + rest
}

extension String {
    /// Without the spaces, tabs and line breaks a pasted address brings.
    func trimmingWhitespace() -> Substring {
        // isNewline, not "\n": "\r\n" is one Character.
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
