import SystemCalls

/// A download that gave no usable answer: `code` for a caller to match,
/// `description` naming the address and what went wrong.
public typealias DownloadError = CodedError<DownloadFailure>

/// What `DownloadError` says went wrong.
public enum DownloadFailure: Equatable, Sendable {
    /// The address is not an http or https one libcurl can parse.
    case badURL
    /// A request value that cannot be sent: a header value with a line
    /// break in it, or a time limit that is not a positive number.
    case invalidRequest
    /// libcurl (libcurl.so.4) is not installed or would not initialise.
    case libcurlMissing
    /// The host name (or the proxy's) did not resolve.
    case cannotResolve
    /// Nothing accepted the connection.
    case cannotConnect
    /// The connect or the total time limit passed first.
    case timedOut
    /// The body is longer than the request's `maximumBodySize`, as sent or as
    /// Content-Length declared it.
    case tooLarge
    /// More redirects than the request's `maximumRedirects`.
    case tooManyRedirects
    /// A redirect to a scheme other than http and https.
    case redirectRefused
    /// The TLS handshake or the server's certificate failed.
    case tls
    /// HTTP 404 or 410: the calendar is not (or no longer) there.
    case notFound
    /// Any other final HTTP status than 2xx, 304, 404 and 410.
    case httpStatus(Int)
    /// Another libcurl failure, with its CURLcode.
    case transfer(Int32)
}
