import HTTPDownload
import WebDAV

/// A CalDAV step's reply as a multistatus: discovery's and sync's one reading.
extension Multistatus {
    /// The 207 `response` read against the address that answered; anything
    /// else fails naming the step (`what`: PROPFIND, sync-collection, ...).
    static func reply(_ response: HTTPResponse, to what: String) throws(CalDAVError) -> Multistatus {
        guard response.status == 207 else {
            throw CalDAVError(.status(response.status), "\(response.url): \(what) answered HTTP \(response.status), not 207 Multi-Status")
        }
        do {
            return try Multistatus.read(response.body, requestURL: response.url)
        } catch {
            throw CalDAVError(.unreadableReply(error.code), "\(response.url): \(error.description)")
        }
    }
}
