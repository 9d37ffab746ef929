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
    /// Calendars that held no items when their first piece came, with the
    /// VCALENDAR whose pieces alone have written there since: its pieces
    /// need not look their UIDs up, as each UID stands once in them.
    private var filledBy: [ItemIdentifier: Source] = [:]
    /// Calendars that held items before their first piece, or that the pieces of two VCALENDARs write into.
    private var shared: Set<ItemIdentifier> = []
    private var plansBegun = 0

    /// One VCALENDAR of one plan: what writes a piece.
    struct Source: Hashable {
        var plan: Int
        var calendarLine: Int
    }

    /// `pieceSize`: the items held before they are written; 1,000 keeps a
    /// 10,000-event import within 3 times its file (chime-bench ical).
    public init(store: CalendarStore?, pieceSize: Int = 1_000) {
        self.store = store
        self.pieceSize = max(1, pieceSize)
    }

    /// A number for the plan that begins, which its sources carry.
    func beginPlan() -> Int {
        plansBegun += 1
        return plansBegun
    }

    /// Writes one piece of `source`; what it did, or nil when only counting or after a failure.
    func write(_ items: CalendarItems, into calendar: ItemCalendar, isNew: Bool, from source: Source) -> ImportReport? {
        guard let store, failure == nil else { return nil }
        do throws(StoreError) {
            if isNew, !made.contains(calendar.identifier) {
                try store.save(calendar)
                made.insert(calendar.identifier)
            }
            return try store.importItems(items, into: calendar.identifier, lookup: try lookup(into: calendar.identifier, isNew: isNew, from: source))
        } catch {
            failure = error
            return nil
        }
    }

    private func lookup(into calendar: ItemIdentifier, isNew: Bool, from source: Source) throws(StoreError) -> CalendarStore.ImportLookup {
        guard let store, !shared.contains(calendar) else { return .uids }
        if let filler = filledBy[calendar] {
            if filler == source { return .nothingStored }
        } else {
            let holdsItems = isNew ? false : try store.holdsItems(in: calendar)
            if !holdsItems {
                filledBy[calendar] = source
                return .nothingStored
            }
        }
        filledBy[calendar] = nil
        shared.insert(calendar)
        return .uids
    }
}
