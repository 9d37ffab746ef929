import HTTPDownload
import SystemCalls
import WebDAV

/// A CalDAV exchange that failed: `code` for a caller to match,
/// `description` naming the address (never a password) and what went wrong.
public typealias CalDAVError = CodedError<CalDAVFailure>

public enum CalDAVFailure: Equatable, Sendable {
    /// The request gave no answer, or a 401 (`HTTPClient`'s failure).
    case transport(DownloadFailure)
    /// An answer with a status the step cannot use (a 403 on the home, a 500).
    case status(Int)
    /// A 207 whose XML does not read.
    case unreadableReply(WebDAVError.Code)
    /// The server answered but is not CalDAV for this user: no principal, no
    /// calendar home.
    case notCalDAV
    /// Chime's own store refused to read or write what a sync brought.
    case store
}

extension HTTPClient {
    /// `send`, a request that gave no answer (or a 401) failing as CalDAV's
    /// `transport` failure, so that every step reports it alike.
    func sendForCalDAV(_ request: HTTPRequest) throws(CalDAVError) -> HTTPResponse {
        do {
            return try send(request)
        } catch {
            throw CalDAVError(.transport(error.code), error.description)
        }
    }
}
