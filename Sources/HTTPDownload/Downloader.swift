import CalendarModel

/// GETs of http and https addresses through `HTTPClient`, each bounded in
/// body size, time and redirects, and conditional when the caller has a
/// copy: what `chime subscribe`, `chime refresh` and chimed's periodic
/// refresh fetch calendars with. Synchronous: `download` returns when the
/// transfer has ended, within the request's time limit.
public struct Downloader: Sendable {
    /// The User-Agent sent: Chime and its version.
    public static let userAgent = HTTPClient.userAgent

    public init() {}

    /// One GET, redirects followed within the request's bounds: a 2xx body,
    /// or not-modified for 304; any other outcome is an error naming the
    /// address (404 and 410 as `.notFound`).
    public func download(_ request: Request) throws(DownloadError) -> Response {
        let answer = try HTTPClient().send(request.httpRequest)
        let shown = HTTPAddress.shown(request.url)
        let via = answer.url == request.url ? "" : " (redirected to \(HTTPAddress.shown(answer.url)))"
        switch answer.status {
        case 200..<300:
            return Response(status: answer.status, finalURL: answer.url, entityTag: answer.entityTag, lastModified: answer.header("Last-Modified"),
                            contentType: answer.contentType, content: .body(answer.body))
        case 304:
            return Response(status: answer.status, finalURL: answer.url, entityTag: answer.entityTag ?? request.entityTag,
                            lastModified: answer.header("Last-Modified") ?? request.lastModified, contentType: answer.contentType,
                            content: .notModified)
        case 404, 410:
            throw DownloadError(.notFound, "\(shown)\(via): not found (HTTP status \(answer.status))")
        default:
            throw DownloadError(.httpStatus(answer.status), "\(shown)\(via): HTTP status \(answer.status)")
        }
    }
}
