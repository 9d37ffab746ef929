import CalendarModel
import CalendarStore
import Foundation
import Glibc
import SystemCalls

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
/// With `concurrently`, the reading and mapping run on a thread of their
/// own while the caller's thread, which holds the store and its
/// transaction, writes the pieces as they come: on two cores a large
/// import then takes about as long as the longer of the two. Each piece is
/// checked and its rows rendered (`CalendarStore.prepareImport`) by
/// whichever thread is free: by the reading thread, on a read-only store of
/// its own, while the store's thread writes; by the store's thread when it
/// waits for work. So the two halves stay about even whichever is slower
/// for a file (for chime-bench's, about 3 ms each a piece of 250 items).
///
/// Without a store it only counts (`chime import --check`), holding no
/// more than the writer does.
///
/// Confinement: `made`, `failure` and the pieces' bookkeeping belong to
/// the store's thread (the one that made the writer and calls
/// `concurrently`), `beginPlan` and `preparer` to the reading; `write`
/// and `onStore` may be called from either, and go to the store's thread.
public final class ImportWriter: @unchecked Sendable {
    let store: CalendarStore?
    let pieceSize: Int
    /// Calendars made for the pieces, which `apply` then does not make again.
    private(set) var made: Set<ItemIdentifier> = []
    /// The first write that failed: nothing is written after it, and `apply` throws it.
    public private(set) var failure: StoreError?
    /// What the pieces of each VCALENDAR did, without the entries (see `report(of:)`).
    private var reports: [Source: ImportReport] = [:]
    /// Calendars that held no items when their first piece came, with the
    /// VCALENDAR whose pieces alone have written there since: its pieces
    /// need not look their UIDs up, as each UID stands once in them.
    private var filledBy: [ItemIdentifier: Source] = [:]
    /// Calendars that held items before their first piece, or that the pieces of two VCALENDARs write into.
    private var shared: Set<ItemIdentifier> = []
    private var plansBegun = 0
    /// The thread that holds the store: the one that made the writer.
    private let storeThread = pthread_self()
    /// While `concurrently` runs: the way to the store's thread.
    private var handoff: ImportHandoff<Piece>?
    /// While `concurrently` runs, on the reading thread: the store opened
    /// again, read-only, that prepares the pieces there (nil where it could
    /// not be opened: the store's thread then prepares them).
    private var preparer: CalendarStore?

    /// One VCALENDAR of one plan: what writes a piece.
    public struct Source: Hashable, Sendable {
        var plan: Int
        var calendarLine: Int
    }

    /// A piece on its way to the store.
    struct Piece: Sendable {
        var items: Items
        var calendar: ItemCalendar
        var isNew: Bool
        var source: Source

        enum Items: Sendable {
            case plain(CalendarItems)
            case prepared(CalendarStore.PreparedImport)
        }
    }

    /// `pieceSize`: the items held before they are written. With the
    /// reading running ahead (`concurrently`), three pieces may be held at
    /// once, their rows rendered (see `CalendarStore.prepareImport`): 500
    /// took a 10,000-event import to 3.2 times its file, 350 to 2.8 times,
    /// 250 to 2.5 times (chime-bench ical), and 250 or 350 were faster
    /// than 500 (`chime import`, 30 alternate runs: medians 206, 204 and
    /// 216 ms), the two threads taking turns more evenly.
    public init(store: CalendarStore?, pieceSize: Int = 250) {
        self.store = store
        self.pieceSize = max(1, pieceSize)
    }

    /// Runs `reading` (the plans, which write through this writer) on a
    /// thread of its own, while this thread writes the pieces it hands
    /// over and makes its calls on the store (`onStore`); returns or
    /// throws what `reading` did, once every piece it handed over is
    /// written. One piece waits at most, so that the reading is never
    /// more than two pieces ahead. Without a store, `reading` runs here.
    public func concurrently<T, Failure: Error>(_ reading: () throws(Failure) -> T) throws(Failure) -> T {
        precondition(pthread_equal(pthread_self(), storeThread) != 0, "ImportWriter.concurrently: not on the thread that holds the store")
        guard let store, handoff == nil else { return try reading() }
        let handoff = ImportHandoff<Piece>(capacity: 1)
        self.handoff = handoff
        defer { self.handoff = nil }
        let outcome = withoutActuallyEscaping(reading) { reading in
            let task = HandedOverWork(reading)
            let (path, zone, now, building) = (store.path, store.machineTimeZone, store.now, store.isBuilding)
            let thread = Thread {
                self.preparer = FileManager.default.fileExists(atPath: path)
                    ? try? CalendarStore(path: path, readOnly: true, creating: false, machineTimeZone: zone, now: now) : nil
                // A store being built cannot be read while a spill of its writer holds it: a read fails at once rather than waiting (see `write`).
                if building { try? self.preparer?.database.execute("PRAGMA busy_timeout = 0") }
                task.run()
                self.preparer = nil
                handoff.postDone()
                // A store being built is synced once written (see `CalendarStore.init`'s `building`). Its reading
                // done while the store's thread writes the last piece and commits, this thread starts that write-back:
                // the sync after the commit then finds most of the file on disk (an fsync of 7–8 ms for a 10,000-event file).
                if building { try? DiskSync.sync(path: path) }
            }
            // As the main thread's: the reader and the mapping recurse with a component's depth.
            thread.stackSize = 8 << 20
            thread.start()
            handoff.serve { piece in writeNow(piece) }
            return task.take()
        }
        return try outcome.get()
    }

    /// Runs `body`, which uses the store, on the store's thread: from the
    /// reading thread of `concurrently`, the store's lock is held by the other.
    public func onStore<T>(_ body: () -> T) -> T {
        guard let handoff, pthread_equal(pthread_self(), storeThread) == 0 else { return body() }
        return handoff.call(body)
    }

    /// A number for the plan that begins, which its sources carry.
    func beginPlan() -> Int {
        plansBegun += 1
        return plansBegun
    }

    /// Writes one piece of `source`, or hands it to the store's thread to write.
    func write(_ items: CalendarItems, into calendar: ItemCalendar, isNew: Bool, from source: Source) {
        if let handoff, pthread_equal(pthread_self(), storeThread) == 0 {
            // Whichever thread is free checks the piece and renders its
            // rows: the store's thread when it waits for work (the piece goes
            // as it is), else this one, while the store's thread writes.
            var prepared = handoff.storeIsIdle ? nil : preparer?.prepareImport(items, into: calendar.identifier)
            // What had to read a store being built while it was written (a workday rule's holidays) is made ready on the store's thread.
            if prepared?.failedOnLock == true { prepared = nil }
            handoff.post(piece: Piece(items: prepared.map { .prepared($0) } ?? .plain(items), calendar: calendar, isNew: isNew, source: source))
        } else {
            writeNow(Piece(items: .plain(items), calendar: calendar, isNew: isNew, source: source))
        }
    }

    /// What the pieces of `source` did (nil when only counting or none was written), the entries left out.
    func report(of source: Source) -> ImportReport? {
        reports[source]
    }

    private func writeNow(_ piece: Piece) {
        guard let store, failure == nil else { return }
        do throws(StoreError) {
            let calendar = piece.calendar.identifier
            if piece.isNew, !made.contains(calendar) {
                try store.save(piece.calendar)
                made.insert(calendar)
            }
            let lookup = try lookup(into: calendar, isNew: piece.isNew, from: piece.source)
            let report = switch piece.items {
            case .plain(let items): try store.importItems(items, into: calendar, lookup: lookup)
            case .prepared(let prepared): try store.importItems(prepared, lookup: lookup)
            }
            reports[piece.source, default: ImportReport()].append(report, keepingEntries: false)
        } catch {
            failure = error
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
