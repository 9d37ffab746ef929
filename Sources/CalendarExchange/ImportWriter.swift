import CalendarModel
import CalendarStore

/// What lets `CalendarImport.plan` write a large file while it reads it,
/// so that its items are never all held at once: each piece of
/// `pieceSize` items final once mapped (see `ICalendarItems.Survey`) goes
/// to the store as a batch of its own (`CalendarStore.importItems`, by the
/// same rules as the whole file), and `CalendarImport.apply` writes the
/// rest. The caller holds one transaction around `plan` and `apply`
/// (`CalendarStore.importTransaction`, which also keeps the page cache
/// small while the pieces are written), so that the import is still all
/// or nothing: a file with faults it will not skip, a write that fails,
/// roll it all back.
///
/// Without a store it only counts (`chime import --check`, and a first
/// look before a new store is made), holding no more than the writer does.
public final class ImportWriter {
    let store: CalendarStore?
    let pieceSize: Int
    /// Calendars made for the pieces, which `apply` then does not make again.
    private(set) var made: Set<ItemIdentifier> = []
    /// The first write that failed: nothing is written after it, and `apply` throws it.
    public private(set) var failure: StoreError?

    /// `pieceSize`: the items held before they are written; 1,000 keeps a
    /// 10,000-event import within 3 times its file (chime-bench ical).
    public init(store: CalendarStore?, pieceSize: Int = 1_000) {
        self.store = store
        self.pieceSize = max(1, pieceSize)
    }

    /// Writes one piece; what it did, or nil when only counting or after a failure.
    func write(_ items: CalendarItems, into calendar: ItemCalendar, isNew: Bool) -> ImportReport? {
        guard let store, failure == nil else { return nil }
        do throws(StoreError) {
            if isNew, !made.contains(calendar.identifier) {
                try store.save(calendar)
                made.insert(calendar.identifier)
            }
            return try store.importItems(items, into: calendar.identifier, asPiece: true)
        } catch {
            failure = error
            return nil
        }
    }
}
