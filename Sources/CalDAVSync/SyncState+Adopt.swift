import CalendarModel
import CalendarStore
import WebDAV

/// An account as discovery found it, taken into the sync state: what
/// `chime account add` does once discovery has run.
extension SyncState {
    /// Saves `account` and maps each of its calendars to the Chime calendar
    /// named by its display name (else the last part of its path), made when
    /// missing; a collection already mapped keeps its calendar and tokens.
    /// All or nothing. The Chime calendar of a collection the user may not
    /// change (current-user-privilege-set) is read-only, as is EventKit's
    /// with `allowsContentModifications` false: an edit made in Chime could
    /// never reach the server, so it is refused rather than lost; the sync
    /// writes it as its source (`CalendarStore.asSource`). One that becomes
    /// writable takes changes again.
    public func adopt(_ account: Account, discovered: CalendarDiscovery.Account) throws(StoreError) -> [Collection] {
        let known = try collections()
        return try StoreError.wrap {
            try store.transaction { () throws -> [Collection] in
                try save(account)
                var mapped: [Collection] = []
                for calendar in discovered.calendars {
                    var collection: Collection
                    if let existing = known.first(where: { DAVHref.decodedPath($0.url) == DAVHref.decodedPath(calendar.url) }) {
                        collection = existing
                    } else {
                        var title = Self.title(of: calendar)
                        // A calendar of one's own is not made read-only by a server's of the same name: that one gets its own, named with the account.
                        if calendar.isReadOnly, (try? store.calendar(named: title))?.allowsContentModifications == true {
                            title += " (\(account.name))"
                        }
                        let local: ItemCalendar
                        if let existing = try? store.calendar(named: title) {
                            local = existing
                        } else {
                            local = ItemCalendar(title: title, allowsContentModifications: !calendar.isReadOnly)
                            try store.save(local)
                        }
                        collection = Collection(account: account.name, url: calendar.url, calendar: local.identifier, displayName: calendar.displayName,
                                                components: calendar.components, isReadOnly: calendar.isReadOnly)
                    }
                    collection.account = account.name
                    collection.displayName = calendar.displayName
                    collection.components = calendar.components
                    collection.isReadOnly = calendar.isReadOnly
                    var local = try store.calendar(identifier: collection.calendar)
                    if local.allowsContentModifications == calendar.isReadOnly {
                        local.allowsContentModifications = !calendar.isReadOnly
                        try store.save(local)
                    }
                    try save(collection)
                    mapped.append(collection)
                }
                return mapped
            }
        }
    }

    /// A calendar's name in Chime: its display name, else its path's last part.
    static func title(of calendar: CalendarDiscovery.Calendar) -> String {
        if let name = calendar.displayName?.trimmingCharacters(in: .whitespaces), !name.isEmpty { return name }
        return DAVHref.decodedPath(calendar.url).split(separator: "/").last.map(String.init) ?? calendar.url
    }
}
