import CalendarModel
import Dispatch
import Foundation
import RecurrenceEngine
import SQLiteDatabase
import Synchronization

/// A calendar's items whole, for `chime export` and for the import that
/// compares against them.
extension CalendarStore {
    /// The items of `calendar`, fully loaded (alarms, structured locations
    /// and iCalendar origins included): each series with its detached
    /// occurrences (by original start), then the reminders, each list in
    /// the order the items were first stored (an imported file's order).
    ///
    /// With `range`, only what has something in it: an event or an
    /// occurrence of a series (detached ones included) that overlaps it,
    /// a reminder due in it (or starting in it, without a due time), a
    /// repeating reminder due before its end. A series is given whole,
    /// with all its detached occurrences, as a file must hold it.
    public func items(of calendar: ItemIdentifier, overlapping range: Range<Date>? = nil) throws(StoreError) -> CalendarItems {
        _ = try self.calendar(identifier: calendar)
        var items = try StoreError.wrap { try storedItems(of: calendar) }
        guard let range else { return items }
        let low = Int64(range.lowerBound.timeIntervalSince1970.rounded(.down))
        let high = Int64(range.upperBound.timeIntervalSince1970.rounded(.up))
        try StoreError.wrap {
            items.events = try items.events.filter { try overlaps($0, low, high) }
            items.reminders = items.reminders.filter { reminder in
                guard let time = reminder.due ?? reminder.start, let instant = try? time.instant(machine: machineTimeZone) else { return false }
                return instant < high && (reminder.recurrenceRule != nil || instant >= low)
            }
        }
        return items
    }

    /// The series and reminders named in `identifiers`, whole (a detached
    /// occurrence named gives its series with all its detached ones), for
    /// `chime export ID…`: only their rows are read. Calendar by calendar
    /// in title order, then in the order the items were first stored, as
    /// `items(of:)` of each calendar would give them. An identifier of no
    /// item is skipped.
    public func items(identifiers: [ItemIdentifier]) throws(StoreError) -> CalendarItems {
        guard !identifiers.isEmpty else { return CalendarItems() }
        let order = Dictionary(try calendars().enumerated().map { ($1.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var items = try StoreError.wrap {
            let owners = try database.query("""
                SELECT DISTINCT coalesce(items.series_id, items.id) FROM json_each(?) AS wanted JOIN items ON items.id = wanted.value
                """, [Self.jsonArray(identifiers)]).compactMap { row -> String? in try row.value(0) }
            return try storedItems(where: "id IN (SELECT value FROM json_each(?))", [Self.jsonArray(owners)])
        }
        // Stable: within a calendar the rows keep their stored order.
        func rank(_ calendar: ItemIdentifier) -> Int { order[calendar] ?? order.count }
        items.events = items.events.enumerated().sorted {
            (rank($0.element.event.calendarIdentifier), $0.offset) < (rank($1.element.event.calendarIdentifier), $1.offset)
        }.map(\.element)
        items.reminders = items.reminders.enumerated().sorted {
            (rank($0.element.calendarIdentifier), $0.offset) < (rank($1.element.calendarIdentifier), $1.offset)
        }.map(\.element)
        return items
    }

    /// The series and reminders of `calendar` that export under one of
    /// `uids` (their key, or their identifier with `@chime` for an item
    /// without one), whole: what a sync needs of the few UIDs it touched,
    /// without reading the calendar. In stored order.
    public func items(of calendar: ItemIdentifier, uids: Set<String>) throws(StoreError) -> CalendarItems {
        guard !uids.isEmpty else { return CalendarItems() }
        let own = uids.compactMap { ItemIdentifier(uid: $0)?.rawValue }
        return try StoreError.wrap {
            try storedItems(where: "calendar_id = ? AND (external_key IN (SELECT value FROM json_each(?)) "
                                + "OR (external_key IS NULL AND id IN (SELECT value FROM json_each(?))))",
                            [calendar.rawValue, Self.jsonArray(Array(uids)), Self.jsonArray(own)])
        }
    }

    /// Every event and reminder of `calendar` as stored, whole.
    func storedItems(of calendar: ItemIdentifier) throws -> CalendarItems {
        if let items = try storedItemsInHalves(of: calendar) { return items }
        return try storedItems(where: "calendar_id = ?", [calendar.rawValue], many: true)
    }

    /// The calendars from which `storedItems(of:)` reads in two halves at
    /// once: reading was half of a 10,000-event export, and the writing
    /// of the text already takes two cores (chime-bench ical).
    static let rowsReadInHalves = 2_000

    /// `storedItems(of:)` of a calendar of `rowsReadInHalves` items or
    /// more, read in two halves by rowid at once: the first on this
    /// connection, the second on the same file opened again read-only, on
    /// a thread of its own; nil where it cannot be so (a store in memory
    /// or read-only, inside a transaction, whose own writes the other
    /// connection would not see, or a smaller calendar).
    ///
    /// This connection holds the write lock (BEGIN IMMEDIATE) while both
    /// read, so that no commit comes between the two snapshots: the halves
    /// are of one store. Writers wait meanwhile, as for any write; where
    /// another holds the lock past the busy timeout, one read (which needs
    /// no lock) is made instead.
    package func storedItemsInHalves(of calendar: ItemIdentifier) throws -> CalendarItems? {
        guard !isReadOnly, path != ":memory:", !path.isEmpty, !database.isInTransaction else { return nil }
        var read: Result<CalendarItems?, any Error>?
        do {
            try database.transaction(.immediate) { read = Result { try readInHalves(calendar) } }
        } catch {
            guard let read else { return nil }
            return try read.get()
        }
        return try read?.get() ?? nil
    }

    /// The reading of `storedItemsInHalves`, holding the write lock.
    private func readInHalves(_ calendar: ItemIdentifier) throws -> CalendarItems? {
        let condition = "calendar_id = ? AND series_id IS NULL"
        let rows: Int = try database.scalar("SELECT count(*) FROM items WHERE \(condition)", [calendar.rawValue]) ?? 0
        guard rows >= Self.rowsReadInHalves,
              let middle: Int64 = try database.scalar("SELECT rowid FROM items WHERE \(condition) ORDER BY rowid LIMIT 1 OFFSET ?",
                                                      [calendar.rawValue, Int64(rows / 2)]) else { return nil }
        let (path, zone, now) = (self.path, machineTimeZone, self.now)
        let second = Mutex<Result<CalendarItems, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let half = Result {
                let other = try CalendarStore(path: path, readOnly: true, creating: false, machineTimeZone: zone, now: now)
                return try other.database.transaction(.deferred) {
                    try other.storedItems(where: "calendar_id = ? AND rowid >= ?", [calendar.rawValue, middle], many: true)
                }
            }
            second.withLock { $0 = half }
            finished.signal()
        }
        thread.stackSize = 4 << 20
        thread.start()
        // Caught, so that a failure here still waits for the other thread.
        let first = Result { try storedItems(where: "calendar_id = ? AND rowid < ?", [calendar.rawValue, middle], many: true) }
        finished.wait()
        var items = try first.get()
        switch second.withLock({ $0 }) {
        case .success(let half): items.append(half)
        // The file could not be opened again, or read there: the second half is read here, as one read would.
        case .failure, nil: items.append(try storedItems(where: "calendar_id = ? AND rowid >= ?", [calendar.rawValue, middle], many: true))
        }
        return items
    }

    /// The series and reminders that `condition` (SQL over `items`, with
    /// its bound arguments) selects among rows that are no detached
    /// occurrence, in stored order, each series with its detached ones.
    ///
    /// `many`: the condition selects much of the store (a whole calendar),
    /// so that the store's detached occurrences and alarms are read through
    /// and those of the items selected kept, rather than each item's looked
    /// up (most have none): for a 10,000-event export, 857 detached rows
    /// and 4,644 alarms read in order rather than 10,000 and 10,857
    /// look-ups (chime-bench ical).
    func storedItems(where condition: String, _ arguments: [(any DatabaseValueConvertible)?], many: Bool = false) throws -> CalendarItems {
        var events: [Event] = []
        var reminders: [Reminder] = []
        try forEachItem(where: "\(condition) AND series_id IS NULL", order: "rowid", arguments) { row in
            if row.text(ItemColumn.type.rawValue) == "reminder" {
                reminders.append(try reminder(row, alarms: false))
            } else {
                var event = try eventSchedule(row)
                try addDetails(to: &event, row, alarms: false)
                events.append(event)
            }
            return true
        }
        var detached: [ItemIdentifier: [Event]] = [:]
        var detachedCount = 0
        let series = many ? Set(events.map(\.identifier)) : []
        try forEachItem(where: many ? "series_id IS NOT NULL" : "series_id IN (SELECT id FROM items WHERE \(condition) AND series_id IS NULL)",
                        order: "series_id, original_start", many ? [] : arguments) { row in
            if many {
                guard let owner = row.identifier(ItemColumn.series.rawValue), series.contains(owner) else { return true }
            }
            var event = try eventSchedule(row)
            try addDetails(to: &event, row, alarms: false)
            if let series = event.seriesIdentifier { detached[series, default: []].append(event) }
            detachedCount += 1
            return true
        }
        var identifiers = events.map(\.identifier) + reminders.map(\.identifier)
        identifiers.reserveCapacity(identifiers.count + detachedCount)
        for list in detached.values { identifiers += list.map(\.identifier) }
        let alarms = many ? try self.alarms(ofAny: Set(identifiers)) : try self.alarms(ofItems: identifiers)
        // Set in place, where each item is held once: a copy would copy its whole box.
        for index in events.indices {
            if let list = alarms[events[index].identifier] { events[index].alarms = list }
        }
        for index in reminders.indices {
            if let list = alarms[reminders[index].identifier] { reminders[index].alarms = list }
        }
        for series in Array(detached.keys) {
            guard var list = detached.removeValue(forKey: series) else { continue }
            for index in list.indices {
                if let found = alarms[list[index].identifier] { list[index].alarms = found }
            }
            detached[series] = list
        }
        return CalendarItems(events: events.map { CalendarItems.Series(event: $0, detached: detached[$0.identifier] ?? []) },
                             reminders: reminders)
    }

    /// Whether a series (or a single event) has something in [low, high).
    private func overlaps(_ series: CalendarItems.Series, _ low: Int64, _ high: Int64) throws -> Bool {
        func overlaps(_ event: Event) throws -> Bool {
            let (start, end) = try occupied(event)
            return start < high && (end > low || (end == start && start >= low))
        }
        let event = series.event
        guard event.recurrenceRule != nil || !event.extraDates.isEmpty else { return try overlaps(event) }
        if try series.detached.contains(where: overlaps) { return true }
        let (start, end) = try occupied(event)
        let recurrence = try recurrence(of: event)
        let days = OccurrenceShape.allDayLength(of: event)
        let skipped = Set(series.detached.compactMap(\.originalStart))
        var looked = 0
        for occurrence in recurrence.occurrences(after: low - (end - start) - 1) {
            guard occurrence.instant < high else { return false }
            looked += 1
            // Past this many detached ones in a row, it is surely in the range.
            if looked > Self.overlapLookLimit { return true }
            if skipped.contains(occurrence.scheduledTime) { continue }
            let finish = OccurrenceShape.endInstant(occurrence, duration: end - start, days: days, zone: recurrence.timeZone)
            if finish > low || (finish == occurrence.instant && occurrence.instant >= low) { return true }
        }
        return false
    }

    /// The most occurrences `overlaps` looks at before taking a series as overlapping.
    private static let overlapLookLimit = 10_000
}
