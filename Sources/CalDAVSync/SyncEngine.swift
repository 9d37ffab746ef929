import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import WebDAV
#if canImport(Glibc)
import Glibc
#endif

/// One sync of a collection mapped to a Chime calendar: Chime's changes go
/// up first (`SyncEngine+Upload`), then the server's come down by
/// sync-collection from the stored token and calendar-multiget.
///
/// Down, each resource (one UID, master and overrides) is imported through
/// the store's upsert by UID; a removed href removes that UID's items. A
/// resource that does not read is reported and skipped, and a 404 inside a
/// multiget skips that item. A token the server no longer takes (Radicale
/// 403, Xandikos 412, both naming `valid-sync-token`) falls back to a full
/// Depth 1 listing of ETags compared with the stored ones. The new token is
/// stored in the transaction of the changes it brought, never before: a
/// sync cut short leaves the old token, and the next one brings the
/// changes again (the upsert by UID makes that harmless).
public final class SyncEngine {
    /// What one sync of one collection did.
    public struct Outcome: Equatable, Sendable {
        public var collectionURL: String
        /// Resources PUT to the server.
        public var uploaded = 0
        /// Resources DELETEd on the server.
        public var deletedOnServer = 0
        /// Resources brought down and imported.
        public var downloaded = 0
        /// UIDs removed from Chime because the server removed them.
        public var removed = 0
        /// Local versions the server refused (412) that clashed with its
        /// changes: the server's kept, Chime's kept as a conflict.
        public var conflicts = 0
        /// Local versions the server refused (412) whose changes merged
        /// with the server's without a clash, and went up merged.
        public var merged = 0
        /// Chime's edits of resources the server deleted meanwhile: kept,
        /// and sent up again as new (a deletion against an edit keeps the edit).
        public var restored = 0
        /// Resources left out, each with why.
        /// Items whose Chinese-calendar rule the server would not take, written as their dates instead.
        public var writtenAsDates = 0
        public var skipped: [String] = []
        /// Whether the stored token was refused and the full listing used.
        public var fellBack = false
        /// Whether Chime's items were exported to look for local changes;
        /// false when the store's change log showed none since the last sync.
        public var examinedLocalItems = false
        /// Whether the server listed every resource Chime held as gone and
        /// nothing was removed for want of `allowsEmptying`.
        public var heldEmpty = false
        /// Whether a write was refused (403) and the collection's privileges,
        /// read again, grant none: its calendar is read-only from now on.
        public var becameReadOnly = false
        /// Whether the collection was read-only and its privileges, read
        /// again at this sync, grant a write: its calendar takes changes from now on.
        public var becameWritable = false
    }

    let store: CalendarStore
    let state: SyncState
    let credentials: HTTPCredentials?
    /// Seconds each request may take.
    let timeLimit: Double
    private let client: HTTPClient
    /// Requests sent so far by this engine (what the tests and the benchmark count).
    public private(set) var requestCount = 0
    /// Whether a collection that suddenly lists empty (every one of two or
    /// more resources gone at once) may empty its Chime calendar. Off, such
    /// a sync removes nothing and keeps the old token, so that a server's
    /// mishap is not taken as "delete everything"; the person confirms.
    public var allowsEmptying = false

    /// Bound on sync-collection rounds while the server answers 507 (truncated).
    static let maximumRounds = 64
    /// From how many UIDs a sync reads the whole calendar rather than looking them up.
    static let lookupLimit = 100
    /// Hrefs asked for in one calendar-multiget.
    static let multigetBatch = 100

    /// Waits out a Retry-After (seconds); the tests' records instead of sleeping.
    let wait: (Double) -> Void

    /// The longest Retry-After waited out in a sync (RFC 9110 §10.2.3);
    /// one longer, or a third 503 in a row, ends the sync with the
    /// server's answer, to be tried again at the next.
    static let maximumRetryWait = 30.0
    static let maximumRetries = 2

    public init(store: CalendarStore, state: SyncState, credentials: HTTPCredentials?, timeLimit: Double = 30,
                client: HTTPClient = HTTPClient(), wait: @escaping (Double) -> Void = { usleep(UInt32(min($0, 60) * 1e6)) }) {
        self.store = store
        self.state = state
        self.credentials = credentials
        self.timeLimit = timeLimit
        self.client = client
        self.wait = wait
    }

    public func sync(_ collection: SyncState.Collection) throws(CalDAVError) -> Outcome {
        var outcome = Outcome(collectionURL: collection.url)
        var collection = collection
        // Asked at every sync of a read-only collection (one small request),
        // so that a write its owner grants later is noticed without the
        // account being added again.
        if collection.isReadOnly, try rereadPrivileges(of: collection) == false {
            collection.isReadOnly = false
            outcome.becameWritable = true
        }
        let calendar = try local { try store.calendar(identifier: collection.calendar) }
        // Taken before anything local is read: a change made after it is looked at by the next sync.
        let mark = try local { try store.itemChangeMark() }
        var unchanged = false
        if let last = collection.localMark { unchanged = try locallyUnchanged(since: last, collection, calendar: calendar) }
        outcome.examinedLocalItems = !collection.isReadOnly && !unchanged
        let refetch = outcome.examinedLocalItems ? try upload(collection, calendar: calendar, &outcome) : Refetch()
        if refetch.forbidden { outcome.becameReadOnly = try rereadPrivileges(of: collection) == true }
        try download(collection, calendar: calendar, refetch: refetch, since: mark, &outcome)
        // Merges that kept a change of Chime's go up now, against the server's new ETag.
        // And edits of what the server deleted, as new resources.
        if outcome.merged > 0 || outcome.conflicts > 0 || outcome.restored > 0 { _ = try upload(collection, calendar: calendar, &outcome) }
        return outcome
    }

    /// Whether the store's change log says that nothing of the collection's
    /// calendar changed after `mark`: no item in it now was written, none
    /// was removed, none that left it for another calendar was one the
    /// server holds. Then exporting every UID to compare digests (what
    /// `upload` does, a few seconds for 10,000 items) finds nothing, and is
    /// skipped. False when the log no longer reaches back to `mark`.
    func locallyUnchanged(since mark: Int64, _ collection: SyncState.Collection, calendar: ItemCalendar) throws(CalDAVError) -> Bool {
        try local {
            guard let changed = try store.itemChanges(after: mark).items else { return false }
            guard !changed.isEmpty else { return true }
            let placed = try store.placement(of: changed)
            guard placed.count == changed.count, !placed.values.contains(where: { $0.calendar == calendar.identifier }) else { return false }
            let held = Set(try state.resources(of: collection.url).map(\.uid))
            return !placed.values.contains { held.contains($0.uid) }
        }
    }

    // MARK: Down

    /// What the server says changed: by decoded path, each href's URL and
    /// ETag, and its text where the listing carried it (sync-collection).
    struct Listing {
        var changed: [String: (url: String, entityTag: String?, text: String?)] = [:]
        var removed: Set<String> = []
        var syncToken: String?
        var collectionTag: String?
    }

    /// A resource fetched and read, ready to import.
    struct Fetched {
        var url: String
        var entityTag: String?
        var text: String
        var uid: String
        var items: CalendarItems
    }

    /// `mark`: the change log's mark from before the upload looked at the
    /// store, recorded with the token; or, when nothing local changed after
    /// it, the log's end after this download's own writes, which are the
    /// server's and need no upload.
    private func download(_ collection: SyncState.Collection, calendar: ItemCalendar, refetch: Refetch, since mark: Int64,
                          _ outcome: inout Outcome) throws(CalDAVError) {
        let known = try local { try state.resources(of: collection.url) }
        var byPath: [String: SyncState.Resource] = [:]
        for resource in known { byPath[DAVHref.decodedPath(resource.href)] = resource }
        var listing: Listing
        switch try changes(of: collection) {
        case .listed(let changes):
            listing = changes
        case .tokenRefused:
            outcome.fellBack = true
            listing = try fullListing(of: collection, known: byPath)
        case .unsupported:
            // RFC 4791 without RFC 6578: the ctag says whether anything changed, the ETags what.
            outcome.fellBack = true
            let tag = try collectionTag(of: collection)
            // The ctag as the last sync left it (not discovery's, which no listing followed): nothing changed.
            if let tag, tag == collection.collectionTag, collection.localMark != nil {
                listing = Listing(syncToken: nil, collectionTag: tag)
            } else {
                listing = try fullListing(of: collection, known: byPath)
                listing.collectionTag = listing.collectionTag ?? tag
            }
        }
        if !allowsEmptying, known.count >= 2, listing.changed.isEmpty, listing.removed.isSuperset(of: byPath.keys) {
            outcome.heldEmpty = true
            outcome.skipped.append("\(collection.url): the server lists none of the \(known.count) resources Chime holds; nothing removed "
                                   + "(if the calendar was emptied on purpose, 'chime sync --allow-emptying' empties it here too)")
            return
        }
        // An ETag Chime already holds is its own upload: nothing to fetch.
        // A text the listing carried (with its ETag) is read as it came;
        // the others are asked for in calendar-multigets.
        var wanted: [String] = []
        var fetched: [Fetched] = []
        for (path, change) in listing.changed.sorted(by: { $0.key < $1.key })
        where refetch.paths.contains(path) || change.entityTag == nil || byPath[path]?.entityTag != change.entityTag {
            if let text = change.text, change.entityTag != nil {
                take(text, url: change.url, entityTag: change.entityTag, calendar: calendar, into: &fetched, &outcome)
            } else {
                wanted.append(change.url)
            }
        }
        for path in refetch.paths where listing.changed[path] == nil && !listing.removed.contains(path) {
            if let url = byPath[path]?.href { wanted.append(url) }
        }
        wanted.sort()
        for start in stride(from: 0, to: wanted.count, by: Self.multigetBatch) {
            let batch = wanted[start..<min(start + Self.multigetBatch, wanted.count)]
            let reply = try multistatus(send(.report, collection.url, headers: [HTTPHeader("Depth", "1")],
                                             body: DAVRequestBody.calendarMultiget(batch.map(Self.path), properties: [.entityTag, .calendarData])),
                                        "calendar-multiget")
            for response in reply.responses where !isCollection(response, collection) {
                guard response.status ?? 200 == 200, let text = response.calendarData else {
                    outcome.skipped.append("\(response.url): not in the multiget's answer (HTTP \(response.status ?? response.status(of: .calendarData) ?? 0)); skipped")
                    continue
                }
                take(text, url: response.url, entityTag: response.entityTag, calendar: calendar, into: &fetched, &outcome)
            }
        }
        let conflicted = refetch.paths
        // Chime's versions the server refused, merged with what it holds now.
        var merges: [String: Merge] = [:]
        for (index, resource) in fetched.enumerated() {
            let path = DAVHref.decodedPath(resource.url)
            guard let mine = refetch.refused[path] else { continue }
            var merge = merged(mine: mine, theirs: resource, base: byPath[path]?.base, calendar: calendar)
            // Chime's item stays the item it was, under its identifier (a
            // script holds what `chime add` printed): the merge, read from
            // text, has identifiers of its own.
            merge.items = Self.adoptingIdentifiers(of: mine, into: merge.items)
            fetched[index].items = merge.items
            merges[path] = merge
        }
        // As the calendar's source: a read-only collection's calendar takes the server's changes, and only those.
        try local {
            try store.asSource { () throws -> Void in try store.transaction { () throws -> Void in
                // Asked in the transaction, before its writes: nothing another process writes can come between.
                let quiet = try locallyUnchanged(since: mark, collection, calendar: calendar)
                // Only the UIDs this download touches are read: a sync that brings one change reads one item, not the calendar.
                let touched = Set(listing.removed.compactMap { byPath[$0]?.uid } + fetched.map(\.uid))
                var index = try localIndex(of: calendar, uids: touched)
                for path in listing.removed.sorted() {
                    guard let resource = byPath[path] else { continue }
                    if refetch.refused[path] != nil {
                        // Deleted there, edited here: the edit stands; without its resource it goes up again as new.
                        try state.removeResource(resource.href, in: collection.url)
                        outcome.restored += 1
                        continue
                    }
                    if let items = index[resource.uid] {
                        try remove(items)
                        index[resource.uid] = nil
                        outcome.removed += 1
                    }
                    try state.removeResource(resource.href, in: collection.url)
                }
                // One import for every resource: an import reads what the
                // calendar holds to match UIDs, so one per resource would
                // read the calendar once per resource (quadratic in a first sync).
                var batch = CalendarItems()
                for resource in fetched {
                    // Where Chime's was refused, the merge stands in its place (the server's where they clash).
                    if conflicted.contains(DAVHref.decodedPath(resource.url)), let items = index[resource.uid] { try remove(items) }
                    batch.append(resource.items)
                }
                if !fetched.isEmpty { try store.importItems(batch, into: calendar.identifier) }
                outcome.downloaded += fetched.count
                if !fetched.isEmpty { index = try localIndex(of: calendar, uids: touched) }
                for merge in merges.sorted(by: { $0.key < $1.key }).map(\.value) {
                    if !merge.clashes.isEmpty {
                        try state.record(SyncState.Conflict(collectionURL: collection.url, uid: merge.uid, href: merge.url,
                                                            local: merge.mine, recordedAt: store.now()))
                        outcome.conflicts += 1
                    } else if merge.keepsMine {
                        outcome.merged += 1
                    }
                }
                for resource in fetched {
                    // A merge that kept a change of Chime's is not on the server yet: no digest, so the next sync sends it if this one cannot.
                    let unsent = merges[DAVHref.decodedPath(resource.url)]?.keepsMine == true
                    let digest = unsent ? "" : try SyncDigest.of(index[resource.uid] ?? CalendarItems())
                    try state.save(SyncState.Resource(href: resource.url, uid: resource.uid, entityTag: resource.entityTag, base: resource.text,
                                                      localDigest: digest), in: collection.url)
                }
                try state.setTokens(of: collection.url, syncToken: listing.syncToken, collectionTag: listing.collectionTag ?? collection.collectionTag,
                                    localMark: refetch.unsent ? nil : quiet ? try store.itemChangeMark() : mark)
            } }
        }
    }

    /// `items` under the identifiers `local` has for the same things: the
    /// series, each detached occurrence by its original start, and each
    /// reminder; what `local` lacks keeps its own. (Their alarms are new
    /// to the store as an import adds them; the delivery log's settled
    /// mark keeps a firing already shown from showing again.)
    static func adoptingIdentifiers(of local: CalendarItems, into items: CalendarItems) -> CalendarItems {
        var items = items
        for index in items.events.indices {
            guard let mine = local.events.first(where: { $0.event.externalKey == items.events[index].event.externalKey }) else { continue }
            items.events[index].event.identifier = mine.event.identifier
            for occurrence in items.events[index].detached.indices {
                items.events[index].detached[occurrence].seriesIdentifier = mine.event.identifier
                if let same = mine.detached.first(where: { $0.originalStart == items.events[index].detached[occurrence].originalStart }) {
                    items.events[index].detached[occurrence].identifier = same.identifier
                }
            }
        }
        for index in items.reminders.indices {
            if let mine = local.reminders.first(where: { $0.externalKey == items.reminders[index].externalKey }) {
                items.reminders[index].identifier = mine.identifier
            }
        }
        return items
    }

    /// What sync-collection said.
    enum Changes {
        case listed(Listing)
        /// The stored token is no longer taken (Radicale 403, Xandikos 412, naming `valid-sync-token`).
        case tokenRefused
        /// The server has no sync-collection (RFC 6578): 501, 405, or a
        /// 403 naming `supported-report` (RFC 3253 §3.6).
        case unsupported
    }

    /// sync-collection from the stored token, round after round while the
    /// server truncates (507).
    private func changes(of collection: SyncState.Collection) throws(CalDAVError) -> Changes {
        do {
            return try changes(of: collection, withText: true)
        } catch where error.code == .transport(.tooLarge) {
            // Every text at once is more than one answer may be: the ETags alone, and multigets.
            return try changes(of: collection, withText: false)
        }
    }

    /// `withText`: the resources' calendar-data asked for in the listing
    /// itself (RFC 6578 §3.2 lets a sync-collection ask for any property),
    /// which spares a first sync a hundred multigets.
    private func changes(of collection: SyncState.Collection, withText: Bool) throws(CalDAVError) -> Changes {
        var listing = Listing(syncToken: collection.syncToken)
        for _ in 0..<Self.maximumRounds {
            let response = try send(.report, collection.url, headers: [HTTPHeader("Depth", "0")],
                                    body: DAVRequestBody.syncCollection(token: listing.syncToken,
                                                                        properties: withText ? [.entityTag, .calendarData] : [.entityTag]))
            let said = String(decoding: response.body, as: UTF8.self)
            if [403, 412].contains(response.status), collection.syncToken != nil, said.contains("valid-sync-token") {
                return .tokenRefused
            }
            if [501, 405].contains(response.status) || ([403, 400].contains(response.status) && said.contains("supported-report")) {
                return .unsupported
            }
            let reply = try multistatus(response, "sync-collection")
            for member in reply.responses where !isCollection(member, collection) {
                if member.status == 404 {
                    listing.changed[member.path] = nil
                    listing.removed.insert(member.path)
                } else {
                    listing.changed[member.path] = (member.url, member.entityTag, member.calendarData)
                    listing.removed.remove(member.path)
                }
            }
            listing.syncToken = reply.syncToken ?? listing.syncToken
            if !reply.isTruncated { return .listed(listing) }
        }
        throw CalDAVError(.status(507), "\(collection.url): sync-collection still truncated after \(Self.maximumRounds) rounds")
    }

    /// Every member's ETag by a Depth 1 PROPFIND, compared with the stored
    /// ones; the collection's own token and ctag come with it.
    private func fullListing(of collection: SyncState.Collection, known: [String: SyncState.Resource]) throws(CalDAVError) -> Listing {
        let reply = try multistatus(send(.propfind, collection.url, headers: [HTTPHeader("Depth", "1")],
                                         body: DAVRequestBody.propfind([.resourceType, .entityTag, .syncToken, .collectionTag])),
                                    "PROPFIND")
        var listing = Listing()
        for member in reply.responses {
            if isCollection(member, collection) {
                listing.syncToken = member.syncToken
                listing.collectionTag = member.collectionTag
            } else if !member.isCollection {
                listing.changed[member.path] = (member.url, member.entityTag, nil)
            }
        }
        listing.removed = Set(known.keys.filter { listing.changed[$0] == nil })
        return listing
    }

    /// The collection's ctag (CalendarServer's getctag) by a Depth 0 PROPFIND; nil when it has none.
    private func collectionTag(of collection: SyncState.Collection) throws(CalDAVError) -> String? {
        let reply = try multistatus(send(.propfind, collection.url, headers: [HTTPHeader("Depth", "0")],
                                         body: DAVRequestBody.propfind([.collectionTag])), "PROPFIND")
        return reply.responses.first { isCollection($0, collection) }?.collectionTag.flatMap { $0.isEmpty ? nil : $0 }
    }

    private func isCollection(_ response: Multistatus.Response, _ collection: SyncState.Collection) -> Bool {
        let path = DAVHref.decodedPath(collection.url)
        return response.path == path || response.path + "/" == path || response.path == path + "/"
    }

    /// One resource's text as items of `calendar`, with its one UID; a reason when it does not read.
    func read(_ text: String, url: String, calendar: ItemCalendar) -> Result<(String, CalendarItems), Skip> {
        let plan: CalendarImport.Plan
        do {
            plan = try CalendarImport.plan(Array(text.utf8), source: url, into: calendar, defaultCalendar: calendar, store: store)
        } catch {
            return .failure(Skip("\(error.description); skipped"))
        }
        if let fault = plan.faults.first { return .failure(Skip("\(fault.description); skipped")) }
        var items = CalendarItems()
        for part in plan.parts { items.append(part.items) }
        items = restoringKeptRules(items)
        let uids = Set(items.events.compactMap(\.event.externalKey) + items.reminders.compactMap(\.externalKey))
        guard uids.count == 1, let uid = uids.first else {
            return .failure(Skip("\(url): holds \(uids.count) UIDs, not one; skipped"))
        }
        return .success((uid, items))
    }

    /// A resource's text read into `fetched`, or named in `outcome.skipped`.
    private func take(_ text: String, url: String, entityTag: String?, calendar: ItemCalendar, into fetched: inout [Fetched],
                      _ outcome: inout Outcome) {
        switch read(text, url: url, calendar: calendar) {
        case .success(let (uid, items)):
            fetched.append(Fetched(url: url, entityTag: entityTag, text: text, uid: uid, items: items))
        case .failure(let reason):
            outcome.skipped.append(reason.description)
        }
    }

    struct Skip: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: The local side

    /// The calendar's items by UID (what Chime exports as the UID for an
    /// item that has no key of its own); with `uids`, only those, looked
    /// up when they are few (a first sync's thousands read the calendar once).
    func localIndex(of calendar: ItemCalendar, uids: Set<String>? = nil) throws -> [String: CalendarItems] {
        let items = if let uids, uids.count <= Self.lookupLimit {
            try store.items(of: calendar.identifier, uids: uids)
        } else {
            try store.items(of: calendar.identifier)
        }
        var index: [String: CalendarItems] = [:]
        for series in items.events { index[series.event.uid, default: CalendarItems()].events.append(series) }
        for reminder in items.reminders { index[reminder.uid, default: CalendarItems()].reminders.append(reminder) }
        return index
    }

    /// The absolute path of a URL, its encoding kept (an href to send).
    static func path(_ url: String) -> String {
        let path = url.dropFirst(CalendarDiscovery.origin(of: url).count)
        return path.isEmpty ? "/" : String(path)
    }


    private func remove(_ items: CalendarItems) throws {
        for series in items.events { try store.remove(series.event) }
        for reminder in items.reminders { try store.removeReminder(reminder.identifier) }
    }

    /// A store call, its failure as a sync's.
    func local<T>(_ body: () throws -> T) throws(CalDAVError) -> T {
        do {
            return try body()
        } catch let error as CalDAVError {
            throw error
        } catch {
            throw CalDAVError(.store, (error as? StoreError)?.description ?? String(describing: error))
        }
    }

    /// The collection's privileges asked again (a write was refused, or
    /// the collection is read-only). When they say otherwise than the
    /// collection holds, the collection and its calendar take them, as
    /// `SyncState.adopt` makes them for one found so, and whether it is
    /// read-only now is returned; else nil. A server that refused a write
    /// and grants one (a quota, a rule on one resource) changes nothing,
    /// nor does one that says nothing of privileges.
    func rereadPrivileges(of collection: SyncState.Collection) throws(CalDAVError) -> Bool? {
        let reply = try multistatus(send(.propfind, collection.url, headers: [HTTPHeader("Depth", "0")],
                                         body: DAVRequestBody.propfind([.currentUserPrivilegeSet])), "PROPFIND")
        // Depth 0: the one response is the collection's.
        guard let privileges = reply.responses.first?.privileges else { return nil }
        let isReadOnly = CalendarDiscovery.Calendar(url: collection.url, privileges: privileges).isReadOnly
        guard isReadOnly != collection.isReadOnly else { return nil }
        try local {
            try store.transaction { () throws -> Void in
                var changed = collection
                changed.isReadOnly = isReadOnly
                try state.save(changed)
                var calendar = try store.calendar(identifier: collection.calendar)
                calendar.allowsContentModifications = !isReadOnly
                try store.save(calendar)
            }
        }
        return isReadOnly
    }

    // MARK: Requests

    func send(_ method: HTTPRequest.Method, _ url: String, headers: [HTTPHeader] = [], body: [UInt8] = [],
              contentType: String = DAVRequestBody.contentType) throws(CalDAVError) -> HTTPResponse {
        let request = HTTPRequest(method, url, headers: headers + [HTTPHeader("Content-Type", contentType)], body: body,
                                  credentials: credentials, timeLimit: timeLimit)
        var retries = 0
        while true {
            requestCount += 1
            let response = try client.sendForCalDAV(request)
            // Busy (503) or too many requests (429) with a short enough wait: waited out, and sent again.
            guard [429, 503].contains(response.status) else { return response }
            let delay = response.retryAfter.flatMap { RetryAfter.delay($0, now: Int64(Date().timeIntervalSince1970)) }
            guard retries < Self.maximumRetries, let delay, Double(delay) <= min(Self.maximumRetryWait, timeLimit) else {
                let asked = delay.map { "; it asks to be asked again in \($0) s, tried again at the next sync" } ?? ""
                throw CalDAVError(.status(response.status), "\(url): \(method.rawValue) answered HTTP \(response.status)\(asked)")
            }
            retries += 1
            wait(Double(delay))
        }
    }

    func multistatus(_ response: HTTPResponse, _ what: String) throws(CalDAVError) -> Multistatus {
        try Multistatus.reply(response, to: what)
    }
}
