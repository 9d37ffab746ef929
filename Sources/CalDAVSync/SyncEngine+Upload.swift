import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import WebDAV

/// Up: Chime's changes to the server, before anything comes down.
///
/// A UID new to the collection is PUT with `If-None-Match: *`, one whose
/// export's digest changed since the last sync with `If-Match` and the
/// stored ETag, and a UID gone from Chime is DELETEd with `If-Match`. A 412
/// means the server's copy changed too: nothing is overwritten; the
/// download fetches the server's and merges the two against the base
/// (`SyncEngine+Merge`). A delete refused so keeps the server's edit,
/// which comes back; an edit refused because the server deleted the
/// resource (412, or 404 from a server that says so) keeps Chime's edit,
/// which goes up again as a new resource (`Outcome.restored`): a deletion
/// against an edit keeps the edit. A PUT the server will not take for what
/// the item holds (400, 409, 413, 415, 422: Radicale answers 400 to RFC
/// 7529's RSCALE) is named in `Outcome.skipped` and the sync goes on; an
/// item with a Chinese-calendar rule is first offered again with its
/// occurrences as dates (`SyncEngine+GregorianForm`).
extension SyncEngine {
    /// What the upload leaves to the download: the decoded paths to fetch
    /// whatever the listing says, and for each PUT refused with 412 Chime's
    /// items as they were, to merge with the server's (`ResourceMerge`).
    struct Refetch {
        var paths: Set<String> = []
        var refused: [String: CalendarItems] = [:]
        /// A write was refused with 403: the collection's privileges are read again.
        var forbidden = false
        /// An item stays unsent (refused, or of a kind the collection does
        /// not hold): the next sync looks at every local item again, not
        /// only those changed since this one, so that it is offered again
        /// (and named again) until it goes up or leaves the calendar.
        var unsent = false
    }

    /// Uploads what changed locally; what the download must fetch whatever the listing says.
    func upload(_ collection: SyncState.Collection, calendar: ItemCalendar, _ outcome: inout Outcome) throws(CalDAVError) -> Refetch {
        let known = try local { try state.resources(of: collection.url) }
        var byUID: [String: SyncState.Resource] = [:]
        for resource in known where byUID[resource.uid] == nil { byUID[resource.uid] = resource }
        let index = try local { try localIndex(of: calendar) }
        var refetch = Refetch()
        for (uid, items) in index.sorted(by: { $0.key < $1.key }) {
            let digest = try local { try SyncDigest.of(items) }
            let url: String, condition: HTTPHeader
            if let resource = byUID[uid] {
                guard digest != resource.localDigest else { continue }
                url = resource.href
                condition = HTTPHeader("If-Match", resource.entityTag ?? "*")
            } else {
                guard items.events.isEmpty || collection.holds("VEVENT"), items.reminders.isEmpty || collection.holds("VTODO") else {
                    // RFC 4791's supported-calendar-component-set: the server would refuse it.
                    let kind = items.reminders.isEmpty ? "event" : "reminder"
                    let title = items.events.first?.event.title ?? items.reminders.first?.title ?? uid
                    outcome.skipped.append("\(kind) '\(title)' (UID \(uid)): the server's calendar holds only "
                        + "\((collection.components ?? []).joined(separator: ", ")); it stays in Chime only (move it to another calendar)")
                    refetch.unsent = true
                    continue
                }
                url = Self.resourceURL(for: uid, in: collection.url)
                condition = HTTPHeader("If-None-Match", "*")
            }
            var body = try local { try CalendarExport.bytes(items, calendarName: nil, stamp: store.now()) }
            var response = try send(.put, url, headers: [condition], body: body, contentType: "text/calendar; charset=utf-8")
            if [404, 410].contains(response.status), byUID[uid] != nil {
                // Edited here, gone there (a server that answers so rather than 412): the edit goes up as new.
                response = try send(.put, url, headers: [HTTPHeader("If-None-Match", "*")], body: body, contentType: "text/calendar; charset=utf-8")
                if (200..<300).contains(response.status) { outcome.restored += 1 }
            }
            if Self.refusesContent(response), Self.usesRSCALE(items) {
                // A server that does not read RFC 7529 (Radicale: 400) takes the rule's dates instead.
                let form = try local { try CalendarExport.bytes(try gregorianForm(items), calendarName: nil, stamp: store.now()) }
                let retried = try send(.put, url, headers: [condition], body: form, contentType: "text/calendar; charset=utf-8")
                if (200..<300).contains(retried.status) || !Self.refusesContent(retried) {
                    (response, body) = (retried, form)
                    if (200..<300).contains(retried.status) { outcome.writtenAsDates += 1 }
                }
            }
            switch response.status {
            case 200..<300:
                var entityTag = response.entityTag
                if entityTag == nil { entityTag = try self.entityTag(of: url) }
                try local {
                    try store.transaction { () throws -> Void in
                        try keep(uid, of: items)
                        try state.save(SyncState.Resource(href: url, uid: uid, entityTag: entityTag, base: String(decoding: body, as: UTF8.self),
                                                          localDigest: digest), in: collection.url)
                    }
                }
                outcome.uploaded += 1
            case 412:
                // Changed there too: the download fetches the server's and merges.
                refetch.paths.insert(DAVHref.decodedPath(url))
                refetch.refused[DAVHref.decodedPath(url)] = items
            case _ where Self.refusesContent(response):
                // The server will not take this item's text (a part it does not read, a size it
                // will not store): the rest of the collection syncs; the item stays as it is here,
                // and goes up again with the next sync.
                let held = byUID[uid] == nil ? "the new item stays in Chime only" : "Chime keeps its version, the server its own"
                refetch.unsent = true
                outcome.skipped.append("\(url): the server would not take the item (HTTP \(response.status)); \(held)"
                    + (Self.usesRSCALE(items) ? " (its rule counts in the Chinese calendar, RSCALE=CHINESE, and neither it nor its dates were taken)" : ""))
            case 403:
                // The server takes no changes here (its owner took them away since the account was added):
                // the server's copy comes back in place of the edit; a new item stays here only.
                refetch.forbidden = true
                if byUID[uid] != nil {
                    refetch.paths.insert(DAVHref.decodedPath(url))
                    outcome.skipped.append("\(url): the server refused the change (HTTP 403); its copy is kept")
                } else {
                    outcome.skipped.append("\(url): the server refused the new item (HTTP 403); it stays in Chime only")
                    refetch.unsent = true
                }
            default:
                throw CalDAVError(.status(response.status), "\(url): PUT answered HTTP \(response.status)")
            }
        }
        for resource in known where index[resource.uid] == nil {
            let response = try send(.delete, resource.href, headers: resource.entityTag.map { [HTTPHeader("If-Match", $0)] } ?? [])
            switch response.status {
            case 200..<300, 404:
                try local { try state.removeResource(resource.href, in: collection.url) }
                outcome.deletedOnServer += 1
            case 412:
                // Deleted here, edited there: the edit is kept and comes back down.
                refetch.paths.insert(DAVHref.decodedPath(resource.href))
            case 403:
                // Not the server's to lose: it comes back down.
                refetch.forbidden = true
                refetch.paths.insert(DAVHref.decodedPath(resource.href))
                outcome.skipped.append("\(resource.href): the server refused the deletion (HTTP 403); its copy comes back")
            default:
                throw CalDAVError(.status(response.status), "\(resource.href): DELETE answered HTTP \(response.status)")
            }
        }
        return refetch
    }

    /// Whether a PUT's answer says the server will not take the item for
    /// what it holds: 400, 409, 413, 415, 422, or a 403 that names one of
    /// CalDAV's preconditions on a resource's content (RFC 4791 §5.3.2.1:
    /// `valid-calendar-data` and the like), which is no refusal of the right to write.
    static func refusesContent(_ response: HTTPResponse) -> Bool {
        if [400, 409, 413, 415, 422].contains(response.status) { return true }
        guard response.status == 403 else { return false }
        let body = String(decoding: response.body.prefix(4096), as: UTF8.self)
        return body.contains("urn:ietf:params:xml:ns:caldav") && Self.contentPreconditions.contains { body.contains($0) }
    }

    /// RFC 4791's PUT preconditions that fault the resource, not the writer.
    static let contentPreconditions = ["valid-calendar-data", "valid-calendar-object-resource", "supported-calendar-data",
                                       "supported-calendar-component", "max-resource-size", "min-date-time", "max-date-time",
                                       "max-instances", "max-attendees-per-instance"]

    /// Whether any rule of the items counts in a calendar other than the Gregorian (RFC 7529).
    static func usesRSCALE(_ items: CalendarItems) -> Bool {
        items.events.contains { series in ([series.event] + series.detached).contains { $0.recurrenceRule?.scale == .chinese } }
            || items.reminders.contains { $0.recurrenceRule?.scale == .chinese }
    }

    /// The resource a new UID gets in the collection: the UID itself when
    /// it is made of RFC 3986's unreserved characters and `@` (percent-
    /// encoded) and does not start with a dot; else a name made from it
    /// (`chime-` and 16 hexadecimal digits of its FNV-1a hash). RFC 4791
    /// leaves the name to the client, and servers refuse names a UID may
    /// hold: an encoded slash (Radicale: 409), `..` (400), a `%`.
    static func resourceURL(for uid: String, in collectionURL: String) -> String {
        let plain = !uid.isEmpty && !uid.hasPrefix(".") && uid.unicodeScalars.allSatisfy { unreserved.contains($0) || $0 == "@" }
        let name = plain ? uid.addingPercentEncoding(withAllowedCharacters: unreserved) ?? uid : "chime-" + hashName(uid)
        return collectionURL + (collectionURL.hasSuffix("/") ? "" : "/") + name + ".ics"
    }

    /// 64-bit FNV-1a of the UID's UTF-8, as 16 hexadecimal digits: stable
    /// from one run to the next (Swift's Hasher is seeded per process).
    static func hashName(_ uid: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in uid.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// RFC 3986's unreserved characters, ASCII only.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The ETag of a resource whose PUT reply carried none.
    private func entityTag(of url: String) throws(CalDAVError) -> String? {
        let reply = try multistatus(send(.propfind, url, headers: [HTTPHeader("Depth", "0")], body: DAVRequestBody.propfind([.entityTag])),
                                    "PROPFIND")
        return reply.responses.first?.entityTag
    }

    /// Gives an item made in Chime (no UID of its own) the UID it was uploaded under, so that it comes back as itself.
    private func keep(_ uid: String, of items: CalendarItems) throws {
        for series in items.events where series.event.externalKey == nil {
            var event = series.event
            event.externalKey = uid
            _ = try store.save(event)
        }
        for reminder in items.reminders where reminder.externalKey == nil {
            var reminder = reminder
            reminder.externalKey = uid
            try store.save(reminder)
        }
    }
}
