import CalendarModel
import Foundation
import HolidayCalendars
import RecurrenceEngine
import SQLiteDatabase

extension CalendarStore {
    // MARK: Reading

    public func event(identifier: ItemIdentifier) throws(StoreError) -> Event {
        let events = try StoreError.wrap { try fetchItems(where: "id = ? AND type = 'event'", [identifier.rawValue], as: { try self.event($0) }) }
        guard let event = events.first else { throw .notFound(kind: "event", identifier: identifier.rawValue) }
        return event
    }

    /// The event a script saved with this key in this calendar, if any.
    public func event(externalKey: String, calendar: ItemIdentifier) throws(StoreError) -> Event? {
        try StoreError.wrap {
            try fetchItems(where: "calendar_id = ? AND external_key = ? AND type = 'event'", [calendar.rawValue, externalKey],
                           as: { try self.event($0) }).first
        }
    }

    /// The occurrence of a recurring event that the rule or an extra date
    /// (RDATE) scheduled at `originalStart` (a wall-clock reading in the
    /// event's zone), with any change made to it alone.
    public func occurrence(of series: ItemIdentifier, originalStart: LocalDateTime) throws(StoreError) -> Event {
        let event = try event(identifier: series)
        guard event.recurrenceRule != nil || !event.extraDates.isEmpty else {
            throw .notAnOccurrence(identifier: series.rawValue, start: originalStart.description)
        }
        let detached = try StoreError.wrap {
            try fetchItems(where: "series_id = ? AND original_start = ?", [series.rawValue, originalStart.localSeconds],
                           as: { try self.event($0) })
        }
        if let event = detached.first { return event }
        let recurrence: Recurrence = try StoreError.wrap { try self.recurrence(of: event) }
        let zone = recurrence.timeZone
        let target = zone.resolve(originalStart).instant
        guard let found = recurrence.occurrences(after: target - 1).first(where: { _ in true }), found.scheduledTime == originalStart else {
            throw .notAnOccurrence(identifier: series.rawValue, start: originalStart.description)
        }
        return occurrenceEvent(event, found, zone: zone)
    }

    /// Events that overlap `range`, in the given calendars (none: all),
    /// recurring ones expanded into occurrences, with exceptions and detached
    /// occurrences applied, sorted by start (then title). At most `limit`
    /// of them, not the earliest: a caller that passes one asks only
    /// whether the range holds more.
    public func events(overlapping range: Range<Date>, calendars: [ItemIdentifier] = [],
                       limit: Int = .max) throws(StoreError) -> [Event] {
        var events: [Event] = []
        var starts: [Int64] = []
        // Successive queries (a week, then the next) find about as many events.
        events.reserveCapacity(lastQueryCount)
        starts.reserveCapacity(lastQueryCount)
        defer { lastQueryCount = min(events.count, 1 << 20) }
        try visitEvents(overlapping: range, calendars: calendars) { event, start, stop in
            events.append(event)
            starts.append(start)
            if events.count >= limit { stop = true }
        }
        // Sort positions by keys read once: many occurrences share a start,
        // and reading a title out of an event for every comparison adds up.
        let titles = events.map(\.title)
        let order = events.indices.sorted { a, b in
            starts[a] != starts[b] ? starts[a] < starts[b] : titles[a] < titles[b]
        }
        return order.map { events[$0] }
    }

    /// Walks the events overlapping `range` without gathering them; set the
    /// flag to stop early. Order: series by series, not by start.
    public func enumerateEvents(overlapping range: Range<Date>, calendars: [ItemIdentifier] = [],
                                _ body: (Event, inout Bool) -> Void) throws(StoreError) {
        try visitEvents(overlapping: range, calendars: calendars) { event, _, stop in body(event, &stop) }
    }

    /// The one walk behind both queries, in three steps: candidate rows
    /// through the two range indexes, kept when something of them falls in
    /// the range (exact overlap, occurrences found in Swift); the alarms of
    /// what was kept, in one query; then the events themselves.
    /// `body` also gets each event's start instant.
    private func visitEvents(overlapping range: Range<Date>, calendars: [ItemIdentifier],
                             _ body: (Event, Int64, inout Bool) -> Void) throws(StoreError) {
        let low = Int64(range.lowerBound.timeIntervalSince1970.rounded(.down))
        let high = Int64(range.upperBound.timeIntervalSince1970.rounded(.up))
        // Short events start at most a week before the range; long and
        // recurring ones are all read and expanded.
        var short = "type = 'event' AND is_long = 0 AND range_low >= ? AND range_low < ? AND range_high > ?"
        var long = "type = 'event' AND is_long = 1 AND range_low < ? AND (range_high IS NULL OR range_high > ?)"
        var arguments: [(any DatabaseValueConvertible)?] = [low - Self.shortEventLimit, high, low]
        var longArguments: [(any DatabaseValueConvertible)?] = [high, low]
        if !calendars.isEmpty {
            let list = " AND calendar_id IN (" + calendars.map { _ in "?" }.joined(separator: ",") + ")"
            short += list
            long += list
            arguments += calendars.map(\.rawValue)
            longArguments += calendars.map(\.rawValue)
        }
        arguments += longArguments
        var kept: [Kept] = []
        var alarmed: [ItemIdentifier] = []
        try StoreError.wrap {
            var detached: [ItemIdentifier: Set<Int64>] = [:]
            try database.forEachRow("SELECT series_id, original_start FROM items WHERE series_id IS NOT NULL") { row in
                // A series column that holds no identifier names no event's series.
                if let series = ItemIdentifier(try row.value(0)) { detached[series, default: []].insert(try row.value(1)) }
                return true
            }
            try forEachItem(where: short, or: [long], columns: Self.eventColumns, arguments) { row in
                // The schedule first; the rest of the row only for what is in range.
                var event = try self.eventSchedule(row)
                let (start, end) = try occupied(event)
                var occurrences: [Occurrence]?
                if event.recurrenceRule == nil && event.extraDates.isEmpty {
                    guard start < high && (end > low || (end == start && start >= low)) else { return true }
                } else {
                    let found = try self.occurrences(of: event, occupying: end - start, low, high,
                                                     skipping: detached[event.identifier] ?? [])
                    guard !found.isEmpty else { return true }
                    occurrences = found
                }
                try addDetails(to: &event, row, alarms: false)
                if Self.hasAlarms(row) { alarmed.append(event.identifier) }
                kept.append(Kept(event: event, start: start, duration: end - start, occurrences: occurrences))
                return true
            }
            let alarms = try alarms(ofItems: alarmed)
            var stop = false
            for var item in kept {
                if let list = alarms[item.event.identifier] { item.event.alarms = list }
                guard let occurrences = item.occurrences else {
                    body(item.event, item.start, &stop)
                    if stop { return }
                    continue
                }
                let zone = try zone(of: item.event.start)
                let shape = OccurrenceShape(item.event, duration: item.duration, zone: zone, endZone: try self.zone(of: item.event.end))
                for occurrence in occurrences {
                    body(shape.event(occurrence), occurrence.instant, &stop)
                    if stop { return }
                }
            }
        }
    }

    /// A row that has something in the range: an event, or a series and
    /// its occurrences there.
    private struct Kept {
        var event: Event
        var start: Int64
        var duration: Int64
        var occurrences: [Occurrence]?
    }

    /// The instants an event occupies; an all-day event runs to the midnight
    /// after its last day.
    func occupied(_ event: Event) throws -> (Int64, Int64) {
        let start = event.start.resolution(in: try zone(of: event.start)).instant
        let endZone = try zone(of: event.end)
        if case .date(let last) = event.end {
            return (start, endZone.resolve(LocalDateTime(date: last.adding(days: 1))!).instant)
        }
        return (start, event.end.resolution(in: endZone).instant)
    }

    /// The zone an item time runs in: its own, or the machine's for dates
    /// and floating times. Remembers the last zone, as a store's items
    /// mostly share one and a query asks thousands of times.
    func zone(of time: ItemTime) throws -> TimeZoneRules {
        guard let name = time.zoneName else { return machineTimeZone }
        if let recentZone, recentZone.identifier == name { return recentZone }
        let rules = try TimeZoneRules.named(name)
        recentZone = rules
        return rules
    }

    /// The occurrences of a series (read by `eventSchedule`) that overlap
    /// [low, high), less its detached ones.
    func occurrences(of schedule: Event, occupying duration: Int64, _ low: Int64, _ high: Int64,
                             skipping detached: Set<Int64>) throws -> [Occurrence] {
        let recurrence = try recurrence(of: schedule)
        noteBound(of: recurrence, schedule.identifier)
        let days = OccurrenceShape.allDayLength(of: schedule)
        var found: [Occurrence] = []
        for occurrence in recurrence.occurrences(after: low - duration - 1) {
            guard occurrence.instant < high else { break }
            if !detached.isEmpty && detached.contains(occurrence.scheduledTime.localSeconds) { continue }
            let end = OccurrenceShape.endInstant(occurrence, duration: duration, days: days, zone: recurrence.timeZone)
            guard end > low || (end == occurrence.instant && occurrence.instant >= low) else { continue }
            found.append(occurrence)
        }
        return found
    }

    /// The engine's view of an event's schedule, with the workday calendar
    /// its rule asks for: what the daemon seeks alarms' next firings in.
    public func recurrence(ofEvent event: Event) throws(StoreError) -> Recurrence {
        let recurrence = try StoreError.wrap { try self.recurrence(of: event) }
        noteBound(of: recurrence, event.identifier)
        return recurrence
    }

    /// A series met past the expansion bound (stored by another program, or
    /// before the bound): its occurrences stop at the bound, and the reader
    /// is told through `takeItemsBeyondBound()` rather than left to wonder.
    private func noteBound(of recurrence: Recurrence, _ item: ItemIdentifier) {
        guard recurrence.rule?.count != nil, beyondBound[item] == nil, let problem = recurrence.boundError else { return }
        beyondBound[item] = problem.description
    }

    /// A series whose rule runs past the expansion bound, as a warning names it.
    public struct ItemBeyondBound: Sendable, CustomStringConvertible {
        public var identifier: ItemIdentifier
        public var title: String
        public var reason: String
        public var description: String { "event '\(title)' [\(identifier.short)] is too costly to expand: \(reason)" }
    }

    /// The series reads have met past the expansion bound since this store
    /// was opened, each once: for a command's or the daemon's warning.
    public func takeItemsBeyondBound() -> [ItemBeyondBound] {
        let new = beyondBound.filter { !beyondBoundTaken.contains($0.key) }.sorted { $0.key.rawValue < $1.key.rawValue }
        beyondBoundTaken.formUnion(new.map(\.key))
        return new.map { item, reason in
            let title: String? = try? database.scalar("SELECT title FROM items WHERE id = ?", [item.rawValue])
            return ItemBeyondBound(identifier: item, title: title ?? "", reason: reason)
        }
    }

    /// An item time as the one occurrence of an item that does not repeat:
    /// resolved in its zone (dates and floating times in the machine's), a
    /// date at its local midnight. No recurrence is compiled for it.
    public func occurrence(at time: ItemTime) throws(StoreError) -> Occurrence {
        try StoreError.wrap {
            let zone = try zone(of: time)
            let resolution = time.resolution(in: zone)
            return Occurrence(instant: resolution.instant, utcOffset: resolution.offset, scheduledTime: time.wallClock,
                              isAllDay: time.isDateOnly)
        }
    }

    /// The engine's view of a reminder's schedule from its due time.
    public func recurrence(ofReminder reminder: Reminder) throws(StoreError) -> Recurrence? {
        guard let due = reminder.due else { return nil }
        return try StoreError.wrap {
            try recurrence(rule: reminder.recurrenceRule, start: due, workdays: try workdaySchedule(for: reminder.recurrenceRule))
        }
    }

    /// The engine's view of a recurring event. Compiling one costs about a
    /// microsecond: cheaper than keeping it (a per-series cache slowed a
    /// cold `chime agenda` by half, and did not speed repeated queries).
    func recurrence(of event: Event) throws -> Recurrence {
        try recurrence(rule: event.recurrenceRule, start: event.start, exceptionDates: event.exceptionDates,
                       extraDates: event.extraDates, workdays: try workdaySchedule(for: event.recurrenceRule))
    }

    /// The engine's view of a rule from `start` (an event's start, a
    /// reminder's due time), with the workday calendar a workday rule asks for.
    func recurrence(rule: RecurrenceRule?, start: ItemTime, exceptionDates: [LocalDateTime] = [], extraDates: [LocalDateTime] = [],
                    workdays: WorkdayCalendar?) throws -> Recurrence {
        let zone = try zone(of: start)
        if case .date(let day) = start {
            return try Recurrence(rule: rule, startDate: day, timeZone: zone, exceptionDates: exceptionDates.map(\.date),
                                  extraDates: extraDates.map(\.date), workdays: workdays, plans: recurrencePlans)
        }
        return Recurrence(rule: rule, start: start.wallClock, timeZone: zone, exceptionDates: exceptionDates,
                          extraDates: extraDates, workdays: workdays, plans: recurrencePlans, startFold: start.fold)
    }

    /// One occurrence as an event: the series' fields at the occurrence's time.
    func occurrenceEvent(_ series: Event, _ occurrence: Occurrence, zone: TimeZoneRules) -> Event {
        let duration = ((try? occupied(series)).map { $0.1 - $0.0 }) ?? 0
        let endZone = (try? self.zone(of: series.end)) ?? zone
        return OccurrenceShape(series, duration: duration, zone: zone, endZone: endZone).event(occurrence)
    }

    /// What the store holds, for `chime status`: detached occurrences count with their series.
    public struct Summary: Sendable {
        public var calendars: Int
        public var events: Int
        public var reminders: Int
        public var incompleteReminders: Int
        public var changeCounter: Int64
    }

    public func summary() throws(StoreError) -> Summary {
        try StoreError.wrap {
            Summary(calendars: try database.scalar("SELECT count(*) FROM calendars") ?? 0,
                    events: try database.scalar("SELECT count(*) FROM items WHERE type = 'event' AND series_id IS NULL") ?? 0,
                    reminders: try database.scalar("SELECT count(*) FROM items WHERE type = 'reminder'") ?? 0,
                    incompleteReminders: try database.scalar("SELECT count(*) FROM items WHERE type = 'reminder' AND completed = 0") ?? 0,
                    changeCounter: try database.scalar("SELECT change_counter FROM store_state WHERE id = 1") ?? 0)
        }
    }

    // MARK: Writing

    /// Saves an event. For an occurrence of a recurring event, `span` says
    /// whether the change detaches this occurrence alone or splits the
    /// series here so that this and the later ones change.
    /// Returns the identifier the change was saved under: the event's own,
    /// that of the item whose external key it took, the detached
    /// occurrence's, or the new series' after a split.
    ///
    /// A series whose start moves on the wall clock (or the later part of a
    /// split whose occurrence was given a new start) takes what is keyed by
    /// its occurrences' original starts along by the same wall-clock shift,
    /// as RFC 5545's RECURRENCE-ID asks and iCalendar clients do: its
    /// exception dates and extra dates (unless the save changes those lists
    /// itself, which then stand as given), a date-time UNTIL (unless the
    /// rule changes), and its detached occurrences, whose own start and end
    /// move too unless they were moved on their own. A shift that changes
    /// the date moves them by the same days and time. A series saved without
    /// a rule or extra dates keeps no detached occurrences.
    @discardableResult
    public func save(_ event: Event, span: Span = .thisEvent, commit: Bool = true) throws(StoreError) -> ItemIdentifier {
        do { try event.validate() } catch { throw .invalid(error) }
        var event = event
        if event.origin != nil {
            // An occurrence is stored (detached) under its series and original start, not under the identifier it was read with.
            let stored: Int64? = try StoreError.wrap {
                if let series = event.seriesIdentifier, let originalStart = event.originalStart {
                    return try database.scalar("SELECT 1 FROM items WHERE series_id = ? AND original_start = ?",
                                               [series.rawValue, originalStart.localSeconds])
                }
                return try database.scalar("SELECT 1 FROM items WHERE id = ?", [event.identifier.rawValue])
            }
            if stored != nil { event.origin = modifiedHere(event.origin) }
        }
        try Self.validateOrigin(event.origin)
        try validateWorkdayRegion(of: event.recurrenceRule)
        try requireWritable(event.calendarIdentifier)
        guard let seriesIdentifier = event.seriesIdentifier, let originalStart = event.originalStart else {
            let identifier = try resolveExternalKey(event.externalKey, type: "event", calendar: event.calendarIdentifier, identifier: event.identifier)
            var stored = event
            // (Only when it changes: the setter copies the event's shared fields.)
            if identifier != event.identifier { stored.identifier = identifier }
            let repeats = stored.recurrenceRule != nil || !stored.extraDates.isEmpty
            var detached: [Event] = []
            if repeats, let previous = try? self.event(identifier: identifier), let shift = Self.wallShift(from: previous.start, to: stored.start),
               shift != 0 {
                stored = try moved(stored, previous: previous, by: shift)
                detached = try moveDetached(of: identifier, from: nil, to: identifier, by: shift)
            }
            let range = try StoreError.wrap { try eventRange(stored) }
            let detachedRanges = try StoreError.wrap { try detached.map { try eventRange($0) } }
            try requireMovable(identifier, to: event.calendarIdentifier)
            let changed = stored
            try perform(commit: commit) { db in
                // A new event has no detached occurrences to move or drop (a large batch saves only new ones).
                guard try !self.write(changed, range: range, in: db) else { return }
                if repeats {
                    for (occurrence, range) in zip(detached, detachedRanges) { try self.write(occurrence, range: range, in: db) }
                    // A series moves to another calendar with its detached occurrences.
                    try db.execute("UPDATE items SET calendar_id = ? WHERE series_id = ? AND calendar_id != ?",
                                   [changed.calendarIdentifier.rawValue, changed.identifier.rawValue, changed.calendarIdentifier.rawValue])
                } else {
                    // No longer a series (`chime edit --repeat none`): its one event is all there is.
                    try db.execute("DELETE FROM items WHERE series_id = ?", [changed.identifier.rawValue])
                }
            }
            return identifier
        }
        let series = try self.event(identifier: seriesIdentifier)
        let wholeSeries = span == .futureEvents && originalStart == series.start.wallClock
        if event.calendarIdentifier != series.calendarIdentifier && !wholeSeries {
            throw .invalid(ValidationError(field: "calendar", value: event.calendarIdentifier.rawValue,
                                           reason: "differs from its series'; occurrences stay with their series, which moves as a whole"))
        }
        switch span {
        case .thisEvent:
            let existing: String? = try StoreError.wrap {
                try database.scalar("SELECT id FROM items WHERE series_id = ? AND original_start = ?",
                                    [seriesIdentifier.rawValue, originalStart.localSeconds])
            }
            var detached = event
            detached.identifier = existing.flatMap(ItemIdentifier.init) ?? (event.identifier == seriesIdentifier ? .random() : event.identifier)
            detached.recurrenceRule = nil
            // The key names the series; the detached occurrence is found through it.
            detached.externalKey = nil
            detached.exceptionDates = []
            detached.extraDates = []
            if existing == nil { detached.alarms = Self.copies(of: detached.alarms, ownedBy: series) }
            let range = try StoreError.wrap { try eventRange(detached) }
            try perform(commit: commit) { db in try self.write(detached, range: range, in: db) }
            return detached.identifier
        case .futureEvents:
            var following = event
            following.seriesIdentifier = nil
            following.originalStart = nil
            // The shift the caller gave this occurrence's start, from where
            // it was (a detached occurrence's own start, or the series').
            let before = try occurrence(of: seriesIdentifier, originalStart: originalStart)
            let shift = Self.wallShift(from: before.start, to: event.start)
            // An event made from a detached occurrence has no rule or dates of
            // its own: where the caller left them so, it goes on with the series'.
            if before.identifier != seriesIdentifier {
                if following.recurrenceRule == nil { following.recurrenceRule = series.recurrenceRule }
                if following.exceptionDates == before.exceptionDates { following.exceptionDates = series.exceptionDates }
                if following.extraDates == before.extraDates { following.extraDates = series.extraDates }
            }
            if wholeSeries {
                following.identifier = series.identifier
                if let shift {
                    let start = Self.moved(series.start, by: shift, like: following.start)
                    following = try StoreError.wrap { [following] in try moving(following, to: start) }
                }
                return try save(following, commit: commit)
            }
            following.identifier = .random()
            following.externalKey = nil
            // (A detached occurrence's alarms are its own: the new series gets copies of those too.)
            following.alarms = Self.copies(of: Self.copies(of: following.alarms, ownedBy: series), ownedBy: before)
            let (earlier, later) = try split(series, at: originalStart, following: following, shift: shift ?? 0)
            // A later part that does not repeat (the last RDATE, past the rule's end) is all there is from the cut on.
            let laterRepeats = later.recurrenceRule != nil || !later.extraDates.isEmpty
            var detached = laterRepeats ? try moveDetached(of: series.identifier, from: originalStart, to: later.identifier, by: shift ?? 0) : []
            // The detached occurrence the change was made to shows it, as it stays detached.
            if let index = detached.firstIndex(where: { $0.identifier == before.identifier }) {
                var edited = event
                edited.identifier = before.identifier
                edited.seriesIdentifier = later.identifier
                edited.originalStart = detached[index].originalStart
                edited.recurrenceRule = nil
                edited.externalKey = nil
                edited.exceptionDates = []
                edited.extraDates = []
                detached[index] = edited
            }
            let ranges = try StoreError.wrap { (try eventRange(earlier), try eventRange(later), try detached.map { try eventRange($0) }) }
            try perform(commit: commit) { db in
                try self.write(earlier, range: ranges.0, in: db)
                try self.write(later, range: ranges.1, in: db)
                for (occurrence, range) in zip(detached, ranges.2) { try self.write(occurrence, range: range, in: db) }
                if !laterRepeats {
                    try db.execute("DELETE FROM items WHERE series_id = ? AND original_start >= ?",
                                   [series.identifier.rawValue, originalStart.localSeconds])
                }
            }
            return later.identifier
        }
    }

    /// Alarms for a new item made from `owner`: the same triggers under new
    /// identifiers where they are the owner's (alarm identifiers are unique).
    static func copies(of alarms: [Alarm], ownedBy owner: Event) -> [Alarm] {
        let owned = Set(owner.alarms.map(\.identifier))
        return alarms.map { owned.contains($0.identifier) ? $0.copy : $0 }
    }

    /// Removes an event. For an occurrence, `span` says whether only this
    /// occurrence goes (an exception is added) or this and all later ones
    /// (the series ends before it).
    public func remove(_ event: Event, span: Span = .thisEvent, commit: Bool = true) throws(StoreError) {
        try requireWritable(event.calendarIdentifier)
        guard let seriesIdentifier = event.seriesIdentifier, let originalStart = event.originalStart else {
            _ = try self.event(identifier: event.identifier)
            try perform(commit: commit) { db in try self.delete(event.identifier, in: db) }
            return
        }
        var series = try self.event(identifier: seriesIdentifier)
        if span == .futureEvents && originalStart == series.start.wallClock {
            try perform(commit: commit) { db in try self.delete(series.identifier, in: db) }
            return
        }
        if span == .thisEvent {
            series.exceptionDates.append(originalStart)
        } else {
            series = try split(series, at: originalStart, following: nil, shift: 0).0
        }
        let range = try StoreError.wrap { try eventRange(series) }
        let changed = series
        try perform(commit: commit) { db in
            try self.write(changed, range: range, in: db)
            let cut = span == .thisEvent ? "original_start = ?" : "original_start >= ?"
            for row in try db.query("SELECT id FROM items WHERE series_id = ? AND \(cut)", [seriesIdentifier.rawValue, originalStart.localSeconds]) {
                try self.delete(ItemIdentifier(try row.value(0))!, in: db)
            }
        }
    }

    /// The series cut before `originalStart`, and the one that carries on
    /// from it, its original starts moved by `shift` on the wall clock. The
    /// later part keeps the old rule (unless `following` brings a new one)
    /// from the rule's first occurrence at or after the cut, with COUNT
    /// reduced by the rule occurrences before the cut, excluded ones
    /// included: COUNT is applied before EXDATE (RFC 5545 §3.8.5.3), and
    /// RDATEs are not counted. A cut at an RDATE keeps that date an RDATE
    /// of the later part; when the rule has no occurrence left there, the
    /// later part is its dates alone.
    private func split(_ series: Event, at originalStart: LocalDateTime, following: Event?,
                       shift: Int64) throws(StoreError) -> (Event, Event) {
        guard let rule = series.recurrenceRule else { throw .notAnOccurrence(identifier: series.identifier.rawValue, start: originalStart.description) }
        // The rule alone: every occurrence COUNT counts, and none besides.
        let ruleOnly: Recurrence = try StoreError.wrap {
            try self.recurrence(rule: rule, start: series.start, workdays: try self.workdaySchedule(for: rule))
        }
        let cutInstant = ruleOnly.timeZone.resolve(originalStart).instant
        var used = 0
        var firstLater: Occurrence?
        if rule.count != nil {
            // The occurrences before the cut are counted: at most the
            // expansion bound, as the store refuses a COUNT past it.
            for occurrence in ruleOnly.occurrences() {
                if occurrence.instant >= cutInstant {
                    firstLater = occurrence
                    break
                }
                used += 1
            }
        } else {
            // Nothing to count: seek, however far the cut is from the start
            // (a walk from a SECONDLY start years back takes billions of steps).
            firstLater = ruleOnly.occurrences(after: cutInstant - 1).first { _ in true }
        }
        var earlier = series
        do {
            // A rule that ended before the cut stays as it was: an UNTIL at the cut would extend it.
            if firstLater != nil {
                if series.isAllDay {
                    earlier.recurrenceRule = try rule.ending(.until(.date(originalStart.date.adding(days: -1))))
                } else {
                    earlier.recurrenceRule = try rule.ending(.until(.utc(LocalDateTime(localSeconds: cutInstant - 1))))
                }
            }
        } catch {
            throw .invalid(ValidationError(field: "recurrence rule", value: rule.rfc5545, reason: "cannot be split: \(error)"))
        }
        earlier.exceptionDates = series.exceptionDates.filter { $0 < originalStart }
        earlier.extraDates = series.extraDates.filter { $0 < originalStart }
        var later = following ?? series
        if following == nil {
            later.identifier = .random()
            later.alarms = Self.copies(of: series.alarms, ownedBy: series)
        }
        func moved(_ time: LocalDateTime) -> LocalDateTime { LocalDateTime(localSeconds: time.localSeconds + shift) }
        later.exceptionDates = series.exceptionDates.filter { $0 >= originalStart }.map(moved)
        later.extraDates = series.extraDates.filter { $0 >= originalStart }.map(moved)
        let keepsRule = following == nil || later.recurrenceRule == rule
        if keepsRule && later.start.isDateOnly == series.start.isDateOnly {
            if let firstLater {
                // The rule goes on from its own next occurrence, not from an RDATE it never made.
                let start = Self.moved(.floating(firstLater.scheduledTime), by: shift, like: later.start)
                later = try StoreError.wrap { try moving(later, to: start) }
                var carried = rule
                if let count = rule.count { carried = (try? rule.ending(.count(max(1, count - used)))) ?? rule }
                later.recurrenceRule = try StoreError.wrap { try Self.shiftedUntil(of: carried, by: shift, start: series.start, zone: ruleOnly.timeZone) }
            } else {
                later.recurrenceRule = nil
                later = try StoreError.wrap { try moving(later, to: Self.moved(.floating(originalStart), by: shift, like: later.start)) }
                let first = later.start.wallClock
                later.extraDates.removeAll { $0 == first }
            }
        }
        return (earlier, later)
    }

    /// How far `new` moved from `old` on the wall clock, in seconds (whole
    /// days for dates); nil when one is a date and the other a time.
    static func wallShift(from old: ItemTime, to new: ItemTime) -> Int64? {
        guard old.isDateOnly == new.isDateOnly else { return nil }
        return new.wallClock.localSeconds - old.wallClock.localSeconds
    }

    /// `time`'s wall clock moved by `shift`, as a time of `like`'s kind and zone.
    static func moved(_ time: ItemTime, by shift: Int64, like: ItemTime) -> ItemTime {
        like.withWallClock(LocalDateTime(localSeconds: time.wallClock.localSeconds + shift))
    }

    /// A series saved with a start `shift` seconds from `previous`'s on the
    /// wall clock: its exception and extra dates and a date-time UNTIL
    /// moved as well, where the save left them as they were.
    func moved(_ event: Event, previous: Event, by shift: Int64) throws(StoreError) -> Event {
        var moved = event
        func shifted(_ time: LocalDateTime) -> LocalDateTime { LocalDateTime(localSeconds: time.localSeconds + shift) }
        if event.exceptionDates == previous.exceptionDates { moved.exceptionDates = event.exceptionDates.map(shifted) }
        if event.extraDates == previous.extraDates { moved.extraDates = event.extraDates.map(shifted) }
        if let rule = event.recurrenceRule, rule == previous.recurrenceRule {
            moved.recurrenceRule = try StoreError.wrap {
                try Self.shiftedUntil(of: rule, by: shift, start: previous.start, zone: try zone(of: previous.start))
            }
        }
        return moved
    }

    /// `rule` with its UNTIL moved by `shift` on the wall clock, so that a
    /// moved series keeps its last occurrence. A date UNTIL on a timed
    /// series moves to the day its start's time of day lands on.
    static func shiftedUntil(of rule: RecurrenceRule, by shift: Int64, start: ItemTime, zone: TimeZoneRules) throws -> RecurrenceRule {
        guard shift != 0, let until = rule.until else { return rule }
        let moved: RecurrenceRule.Until
        switch until {
        case .local(let time): moved = .local(LocalDateTime(localSeconds: time.localSeconds + shift))
        case .utc(let time):
            let wall = zone.localTime(at: time.localSeconds).localSeconds + shift
            moved = .utc(LocalDateTime(localSeconds: zone.resolve(local: wall).instant))
        case .date(let day):
            let clock = start.wallClock
            let last = LocalDateTime(date: day, hour: clock.hour, minute: clock.minute, second: clock.second)!
            moved = .date(LocalDateTime(localSeconds: last.localSeconds + shift).date)
        }
        return try rule.ending(.until(moved))
    }

    /// `event` starting at `start` instead, with its length kept: its days
    /// for an all-day event, else its elapsed time.
    func moving(_ event: Event, to start: ItemTime) throws -> Event {
        var moved = event
        switch (event.start, event.end, start) {
        case (.date(let first), .date(let last), .date(let day)):
            moved.end = .date(day.adding(days: last.dayNumber - first.dayNumber))
        case (.floating(let first), .floating(let last), .floating(let new)):
            moved.end = .floating(LocalDateTime(localSeconds: new.localSeconds + last.localSeconds - first.localSeconds))
        default:
            let (begin, end) = try occupied(event)
            let instant = start.resolution(in: try zone(of: start)).instant + end - begin
            let endZone = try zone(of: event.end)
            moved.end = event.end.zoneName == nil ? .floating(endZone.localTime(at: instant)) : .zoned(at: instant, in: endZone)
        }
        moved.start = start
        return moved
    }

    /// The detached occurrences of `series` from `cut` on (all with nil),
    /// made over to `owner` with their original starts moved by `shift`;
    /// one that was not moved on its own (it starts at its original start)
    /// moves with them. In the order that rewrites them one by one without
    /// two ever sharing an original start.
    private func moveDetached(of series: ItemIdentifier, from cut: LocalDateTime?, to owner: ItemIdentifier,
                              by shift: Int64) throws(StoreError) -> [Event] {
        var found = try StoreError.wrap {
            try fetchItems(where: "series_id = ? AND original_start >= ?", [series.rawValue, cut?.localSeconds ?? Int64.min],
                           as: { try self.event($0) })
        }
        guard !found.isEmpty, shift != 0 || owner != series else { return [] }
        found.sort { a, b in shift > 0 ? a.originalStart! > b.originalStart! : a.originalStart! < b.originalStart! }
        return try StoreError.wrap {
            try found.map { occurrence in
                var moved = occurrence
                moved.seriesIdentifier = owner
                if let original = occurrence.originalStart {
                    moved.originalStart = LocalDateTime(localSeconds: original.localSeconds + shift)
                    if shift != 0 && occurrence.start.wallClock == original {
                        moved = try moving(moved, to: Self.moved(occurrence.start, by: shift, like: occurrence.start))
                    }
                }
                return moved
            }
        }
    }

    /// The longest a short event may be; longer ones are read by every query.
    static let shortEventLimit: Int64 = 7 * 86_400

    /// Where an event may lie in time: the span of instants it may occupy,
    /// widened for floating and all-day times (whose instants follow the
    /// machine's zone), with no end for series that have none.
    struct EventRange: Sendable {
        var low: Int64
        var high: Int64?
        var isLong: Bool
    }

    func eventRange(_ event: Event) throws -> EventRange {
        let pad: Int64 = event.start.zoneName == nil ? 50_400 : 0
        let (start, end) = try occupied(event)
        guard event.recurrenceRule != nil || !event.extraDates.isEmpty else {
            return EventRange(low: start - pad, high: end + pad, isLong: end + pad - (start - pad) > Self.shortEventLimit)
        }
        // A workday rule may move an occurrence up to a year and a day off
        // its scheduled time, and the holiday data may change after this
        // save: widen the range by that much on the side it moves to.
        let reach = Int64(WorkdayRule.longestReach) * 86_400
        let before = event.recurrenceRule?.workdayRule == .backward ? reach : 0
        let after = event.recurrenceRule?.workdayRule == .forward ? reach : 0
        if let rule = event.recurrenceRule, rule.end == nil { return EventRange(low: start - pad - before, high: nil, isLong: true) }
        let recurrence = try recurrence(of: event)
        // Every event written meets the bound, whoever wrote it: a command, a file, a server.
        if let rule = event.recurrenceRule, rule.count != nil, recurrence.boundError != nil {
            throw ValidationError(field: "recurrence rule", value: rule.rfc5545,
                                  reason: "is too costly to expand: it has more than \(Recurrence.expansionBound) occurrences before year 10000, "
                                      + "the most Chime expands of a COUNT rule; give it a smaller COUNT, an UNTIL, or no end")
        }
        let duration = end - start
        // Occurrences come in instant order: the first is the earliest. The
        // last is found from the series' end, not by walking to it.
        var iterator = recurrence.occurrences().makeIterator()
        let first = min(start, iterator.next()?.instant ?? start)
        let last = recurrence.lastOccurrence()?.instant ?? start
        return EventRange(low: first - pad - before, high: last + duration + pad + after, isLong: true)
    }

    static let eventRow = ItemRowStatements(type: "event", columns: [
        "calendar_id", "title", "location", "notes", "url", "start_kind", "start_local", "start_zone", "end_kind", "end_local", "end_zone",
        "rrule", "exdates", "rdates", "external_key", "series_id", "original_start", "range_low", "range_high", "is_long", "has_alarms",
        "structured_title", "structured_latitude", "structured_longitude", "structured_radius",
        "ical_sequence", "ical_last_modified", "ical_unmodelled",
    ])

    /// Returns whether the event is new to the store.
    @discardableResult
    func write(_ event: Event, range: EventRange, in db: Database) throws -> Bool {
        try writeItem(Self.row(of: event, range: range), in: db)
    }

    /// The event's row, ready to write; see `ItemRow` for `freshAlarmIdentifiers`.
    static func row(of event: Event, range: EventRange, freshAlarmIdentifiers: Bool = false) -> ItemRow {
        // By position: this is the statement a large batch runs once per event.
        let start = Self.timeColumns(event.start), end = Self.timeColumns(event.end)
        var values: [DatabaseValue] = [
            .text(event.calendarIdentifier.rawValue), .text(event.title), .text(event.location), .text(event.notes), event.url.databaseValue,
            start.kind.databaseValue, start.local.databaseValue, start.zone.databaseValue,
            end.kind.databaseValue, end.local.databaseValue, end.zone.databaseValue,
            event.recurrenceRule.map { .text($0.rfc5545) } ?? .null,
            .text(Self.dateList(event.exceptionDates)), .text(Self.dateList(event.extraDates)),
            event.externalKey.databaseValue, event.seriesIdentifier.map { .text($0.rawValue) } ?? .null,
            event.originalStart.map { .integer($0.localSeconds) } ?? .null,
            .integer(range.low), range.high.databaseValue, range.isLong.databaseValue, (!event.alarms.isEmpty).databaseValue,
        ]
        values.reserveCapacity(Self.eventRow.columns.count)
        Self.appendStructuredLocation(event.structuredLocation, to: &values)
        Self.appendOrigin(event.origin, to: &values)
        return ItemRow(event.identifier, Self.eventRow, values, alarms: event.alarms, freshAlarmIdentifiers: freshAlarmIdentifiers)
    }

    func delete(_ identifier: ItemIdentifier, in db: Database) throws {
        try db.execute("DELETE FROM items WHERE id = ?", [identifier.rawValue])
    }
}

extension CalendarStore {
    /// An item from outside changed here is a revision of this machine's:
    /// its LAST-MODIFIED becomes now (a second later than the one it had, if
    /// the clock says less), so that an export or an upload says it is
    /// newer than the copy it came as, and that copy coming back is not
    /// taken for a later one (`ICalendarOrigin.compareRevisions`). An item
    /// saved for the first time keeps the origin it was given (callers
    /// look), and the import writes its origins as they came, without this.
    func modifiedHere(_ origin: ICalendarOrigin?) -> ICalendarOrigin? {
        guard var origin else { return nil }
        let second = Int64(now().timeIntervalSince1970.rounded(.down))
        origin.lastModified = max(second, (origin.lastModified ?? .min) + 1)
        return origin
    }
}
