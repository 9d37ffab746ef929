import CalendarModel
import CalendarStore
import WebDAV

/// An account as discovery found it, taken into the sync state: what
/// `chime account add` does once discovery has run.
extension SyncState {
    /// Saves `account` and maps each of its calendars to the Chime calendar
    /// named by its display name (else the last part of its path), made when
    /// missing; a collection already mapped keeps its calendar and tokens.
    /// All or nothing. A read-only collection gets an ordinary Chime
    /// calendar for now: the store takes imports into a read-only one only
    /// from a subscription, and the engine uploads nothing from it anyway.
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
                        let title = Self.title(of: calendar)
                        let local: ItemCalendar
                        if let existing = try? store.calendar(named: title) {
                            local = existing
                        } else {
                            local = ItemCalendar(title: title)
                            try store.save(local)
                        }
                        collection = Collection(account: account.name, url: calendar.url, calendar: local.identifier, displayName: calendar.displayName,
                                                components: calendar.components, isReadOnly: calendar.isReadOnly)
                    }
                    collection.account = account.name
                    collection.displayName = calendar.displayName
                    collection.components = calendar.components
                    collection.isReadOnly = calendar.isReadOnly
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
