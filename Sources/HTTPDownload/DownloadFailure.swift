import SystemCalls

/// A download or request that gave no usable answer: `code` for a caller
/// to match, `description` naming the address (never a password in it) and
/// what went wrong.
public typealias DownloadError = CodedError<DownloadFailure>
/// `HTTPClient`'s name for the same error.
public typealias HTTPError = DownloadError

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
    /// Plain http to a host other than this machine, where https is required
    /// (the address itself, or where a redirect led).
    case insecure
    /// 401: no credentials were given and the server wants some, or it
    /// refused those sent.
    case unauthorized
    /// 401 asking only for a scheme Chime does not send (Digest, NTLM, ...):
    /// Chime sends Basic, over https.
    case authenticationScheme
    /// The TLS handshake or the server's certificate failed.
    case tls
    /// HTTP 404 or 410: the calendar is not (or no longer) there.
    case notFound
    /// Any other final HTTP status than 2xx, 304, 404 and 410.
    case httpStatus(Int)
    /// Another libcurl failure, with its CURLcode.
    case transfer(Int32)
}
