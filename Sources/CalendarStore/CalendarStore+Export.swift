import CalendarModel
import Foundation
import RecurrenceEngine
import SQLiteDatabase

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
                """, [Self.jsonArray(identifiers.map(\.rawValue))]).compactMap { row -> String? in try row.value(0) }
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
        try storedItems(where: "calendar_id = ?", [calendar.rawValue], many: true)
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
