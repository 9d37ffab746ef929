import CalendarModel
import CCurl
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// GETs of http and https addresses through libcurl, opened on the first
/// download (see `LibCurl`), each bounded in body size, time and redirects,
/// and conditional when the caller has a copy: what `chime subscribe`,
/// `chime refresh` and chimed's periodic refresh fetch calendars with.
/// Synchronous: `download` returns when the transfer has ended, within the
/// request's time limit.
public struct Downloader: Sendable {
    /// The User-Agent sent: Chime and its version.
    public static let userAgent = "chime/\(ChimeVersion.current)"

    public init() {}

    /// One GET, redirects followed within the request's bounds: a 2xx body,
    /// or not-modified for 304; any other outcome is an error naming the
    /// address (404 and 410 as `.notFound`).
    public func download(_ request: Request) throws(DownloadError) -> Response {
        try Self.check(request)
        let curl: LibCurl
        do {
            curl = try LibCurl.shared.get()
        } catch {
            throw DownloadError(.libcurlMissing, "\(request.url): \(error)")
        }
        return try curl.download(request)
    }

    /// What libcurl would otherwise take or refuse less clearly: the
    /// scheme, header values that would split into more headers, limits
    /// that libcurl reads as "none".
    private static func check(_ request: Request) throws(DownloadError) {
        let url = request.url
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            throw DownloadError(.badURL, "'\(url)' is not an http or https address")
        }
        let unsendable: (String) -> Bool = { $0.utf8.contains { $0 == 0 || $0 == 10 || $0 == 13 } }
        guard !unsendable(url) else { throw DownloadError(.badURL, "'\(url)' has a line break or NUL in it") }
        let values = [("ETag", request.entityTag), ("Last-Modified", request.lastModified), ("Accept", request.accept),
                      ("user name", request.credentials?.user), ("password", request.credentials?.password)]
        for (name, value) in values {
            if let value, unsendable(value) {
                throw DownloadError(.invalidRequest, "\(url): the \(name) has a line break or NUL in it")
            }
        }
        for (name, seconds) in [("time limit", request.timeLimit), ("connect time limit", request.connectTimeLimit)] {
            guard seconds.isFinite, seconds > 0, seconds <= 86_400 else {
                throw DownloadError(.invalidRequest, "\(url): the \(name) must be more than 0 and at most a day, not \(seconds)")
            }
        }
        guard request.maximumBodySize > 0 else {
            throw DownloadError(.invalidRequest, "\(url): the maximum body size must be more than 0 bytes")
        }
        guard (0...100).contains(request.maximumRedirects) else {
            throw DownloadError(.invalidRequest, "\(url): at most 100 redirects can be allowed, not \(request.maximumRedirects)")
        }
    }

    /// `bytes` for people: whole megabytes or kilobytes when it is that.
    static func sizeText(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
