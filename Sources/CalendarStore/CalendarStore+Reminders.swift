import CalendarModel
import Foundation
import RecurrenceEngine
import SQLiteDatabase

extension CalendarStore {
    /// Which reminders a query wants, as EventKit's reminder predicates.
    public enum ReminderFilter: Sendable {
        /// Not completed, due in [from, to) where a missing bound is open
        /// (a repeating one: at its current occurrence, see `current`);
        /// with both bounds missing, reminders without a due date count too.
        case incomplete(dueFrom: Date?, dueTo: Date?)
        /// Completed in [from, to), either bound optional.
        case completed(from: Date?, to: Date?)
        case all
    }

    public func reminder(identifier: ItemIdentifier) throws(StoreError) -> Reminder {
        let found = try StoreError.wrap {
            try fetchItems(where: "id = ? AND type = 'reminder'", [identifier.rawValue], as: { try self.reminder($0) }).first
        }
        guard let found else { throw .notFound(kind: "reminder", identifier: identifier.rawValue) }
        return found
    }

    public func reminders(_ filter: ReminderFilter, calendars: [ItemIdentifier] = []) throws(StoreError) -> [Reminder] {
        var result: [Reminder] = []
        try enumerateReminders(filter, calendars: calendars) { reminder, _ in result.append(reminder) }
        return result
    }

    /// Walks the matching reminders, by due date (incomplete) or completion
    /// date (completed); set the flag to stop early.
    public func enumerateReminders(_ filter: ReminderFilter, calendars: [ItemIdentifier] = [],
                                   _ body: (Reminder, inout Bool) -> Void) throws(StoreError) {
        var conditions = ["type = 'reminder'"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        var bounds: (Int64?, Int64?) = (nil, nil)
        let order: String
        switch filter {
        case .incomplete(let from, let to):
            conditions.append("completed = 0")
            bounds = (from.map { Int64($0.timeIntervalSince1970.rounded(.up)) }, to.map { Int64($0.timeIntervalSince1970.rounded(.up)) })
            // due_instant is read on the machine's zone at save time: widen
            // by a day, then compare exactly below.
            // A repeating one is due at its current occurrence, later than the stored due time.
            if let low = bounds.0 { conditions.append("(due_instant >= ? OR rrule IS NOT NULL)"); arguments.append(low - 86_400) }
            if let high = bounds.1 { conditions.append("due_instant < ?"); arguments.append(high + 86_400) }
            order = "due_instant IS NULL, due_instant, title"
        case .completed(let from, let to):
            conditions.append("completed = 1")
            if let from { conditions.append("completion_date >= ?"); arguments.append(from.timeIntervalSince1970) }
            if let to { conditions.append("completion_date < ?"); arguments.append(to.timeIntervalSince1970) }
            order = "completion_date, title"
        case .all:
            order = "completed, due_instant IS NULL, due_instant, title"
        }
        if !calendars.isEmpty {
            conditions.append("calendar_id IN (" + calendars.map { _ in "?" }.joined(separator: ",") + ")")
            arguments += calendars.map(\.rawValue)
        }
        var stop = false
        let condition = conditions.joined(separator: " AND ")
        try StoreError.wrap {
            try forEachItem(where: condition, order: order, arguments) { row in
                let reminder = try self.reminder(row)
                if bounds.0 != nil || bounds.1 != nil {
                    let at = Int64(self.now().timeIntervalSince1970.rounded(.down))
                    let shown = reminder.recurrenceRule == nil ? reminder : try self.current(reminder, through: at).reminder
                    guard let due = shown.due, let instant = try? due.instant(machine: machineTimeZone) else { return true }
                    if let low = bounds.0, instant < low { return true }
                    if let high = bounds.1, instant >= high { return true }
                }
                body(reminder, &stop)
                return !stop
            }
        }
    }

    public func save(_ reminder: Reminder, commit: Bool = true) throws(StoreError) {
        do { try reminder.validate() } catch { throw .invalid(error) }
        try Self.validateOrigin(reminder.origin)
        try requireWritable(reminder.calendarIdentifier)
        var stored = reminder
        stored.identifier = try resolveExternalKey(reminder.externalKey, type: "reminder", calendar: reminder.calendarIdentifier,
                                                   identifier: reminder.identifier)
        if stored.origin != nil {
            let known: Int64? = try StoreError.wrap { try database.scalar("SELECT 1 FROM items WHERE id = ?", [stored.identifier.rawValue]) }
            if known != nil { stored.origin = modifiedHere(stored.origin) }
        }
        if stored.isCompleted && stored.completionDate == nil { stored.completionDate = now() }
        if !stored.isCompleted { stored.completionDate = nil }
        try validateWorkdayRegion(of: stored.recurrenceRule)
        // A rule with no occurrence known yet (the makeup workdays of a year
        // whose notice is not out) keeps the due time it was given.
        if let rule = stored.recurrenceRule, let due = stored.due, !stored.isCompleted,
           let first = try StoreError.wrap({ try firstDue(due, rule: rule) }) {
            if first != due, let start = stored.start {
                // Keep the distance from start to due.
                let shift = (try? first.instant(machine: machineTimeZone) - due.instant(machine: machineTimeZone)) ?? 0
                stored.start = Self.shifted(start, by: shift, machine: machineTimeZone)
            }
            stored.due = first
        }
        let due = try? stored.due?.instant(machine: machineTimeZone)
        try requireMovable(stored.identifier, to: stored.calendarIdentifier)
        let item = stored
        try perform(commit: commit) { db in try self.write(item, dueInstant: due, in: db) }
    }

    /// Completes a reminder now. A recurring one completes its current
    /// occurrence (the latest that has come due, or its due time when that
    /// is still to come): a completed copy keeps that due time, and the
    /// series moves on to its next occurrence (or is completed when there is
    /// none). The occurrences before the current one were passed over: the
    /// delivery log keeps them as not done, for `chime missed`.
    /// Committed at once, the reading and the writing are one transaction:
    /// two processes completing together complete two occurrences, never
    /// the same one twice.
    @discardableResult
    public func complete(_ identifier: ItemIdentifier, commit: Bool = true) throws(StoreError) -> [NotDone] {
        guard commit else { return try completeCurrent(identifier, commit: false) }
        return try StoreError.wrap { try transaction { () throws(StoreError) in try completeCurrent(identifier, commit: true) } }
    }

    private func completeCurrent(_ identifier: ItemIdentifier, commit: Bool) throws(StoreError) -> [NotDone] {
        var reminder = try reminder(identifier: identifier)
        try requireWritable(reminder.calendarIdentifier)
        let completedAt = now()
        guard let rule = reminder.recurrenceRule, let due = reminder.due, !reminder.isCompleted else {
            reminder.isCompleted = true
            reminder.completionDate = completedAt
            try save(reminder, commit: commit)
            return []
        }
        let atCurrent = try current(reminder, through: Int64(completedAt.timeIntervalSince1970.rounded(.down)))
        reminder = atCurrent.reminder
        let came = atCurrent.came
        let current = reminder.due ?? due
        var done = reminder
        done.identifier = .random()
        done.recurrenceRule = nil
        done.externalKey = nil
        done.isCompleted = true
        done.completionDate = completedAt
        done.alarms = reminder.alarms.map(\.copy)
        let passed = came.dropLast().map { NotDone(reminder: reminder.identifier, title: reminder.title, occurrence: $0) }
        // COUNT counts from the stored due time: the passed and the current one are used up.
        let remaining = rule.count.map { $0 - max(came.count, 1) }
        let next = remaining.map { $0 <= 0 } == true ? nil : try StoreError.wrap { try nextDue(after: current, rule: rule) }
        if let remaining, remaining > 0 { reminder.recurrenceRule = try? rule.ending(.count(remaining)) }
        if let next {
            if let start = reminder.start, let dueInstant = try? current.instant(machine: machineTimeZone),
               let nextInstant = try? next.instant(machine: machineTimeZone) {
                // Keep the distance from start to due.
                reminder.start = Self.shifted(start, by: nextInstant - dueInstant, machine: machineTimeZone)
            }
            reminder.due = next
            // An alarm at a fixed time at or before the occurrence done was
            // that occurrence's: the done copy keeps it; the series lets it
            // go, or it would ring still, for an occurrence not its own.
            if let doneInstant = try? current.instant(machine: machineTimeZone) {
                reminder.alarms.removeAll { alarm in
                    guard case .absolute(let date) = alarm.trigger else { return false }
                    return Int64(date.timeIntervalSince1970.rounded(.down)) <= doneInstant
                }
            }
            try save(done, commit: false)
        } else {
            // The last occurrence: the series itself is what gets completed.
            reminder.isCompleted = true
            reminder.completionDate = completedAt
        }
        try save(reminder, commit: commit)
        return passed
    }

    /// A reminder as of its current occurrence at `instant`, the one
    /// `complete` completes: a repeating reminder not completed has its due
    /// time (and its start, by the same distance) moved to the latest
    /// occurrence that came due by then, or, when none has, to the first
    /// still to come: its stored due time, unless that is no occurrence now
    /// (a workday rule passes over it since leave was taken, an EXDATE names
    /// it). What is shown is this, so that a reminder whose earlier
    /// occurrences were passed over is not shown as overdue since the first
    /// of them. `came`: the occurrences that came due, as `occurrencesDue`
    /// gives them.
    public func current(_ reminder: Reminder, through instant: Int64) throws(StoreError) -> (reminder: Reminder, came: [Occurrence]) {
        let (came, upcoming) = try occurrences(of: reminder, through: instant)
        guard let due = reminder.due, let last = came.last ?? upcoming else { return (reminder, came) }
        var moved = reminder
        let current = Self.time(last, like: due)
        if current != due, let start = reminder.start, let from = try? due.instant(machine: machineTimeZone),
           let to = try? current.instant(machine: machineTimeZone) {
            moved.start = Self.shifted(start, by: to - from, machine: machineTimeZone)
        }
        moved.due = current
        return (moved, came)
    }

    /// The most occurrences of one repeating reminder looked at for what
    /// came due: a year of a minutely rule is past it, and stops there.
    static let occurrencesDueLimit = 100_000

    /// The occurrences of a repeating reminder from its due time on that
    /// came due by `instant`: all but the last were passed over, the last is
    /// the current one. Empty when the due time is later, or the reminder
    /// does not repeat or is completed.
    public func occurrencesDue(of reminder: Reminder, through instant: Int64) throws(StoreError) -> [Occurrence] {
        try occurrences(of: reminder, through: instant).came
    }

    /// `occurrencesDue`, and when none came due, the first occurrence still to come.
    private func occurrences(of reminder: Reminder, through instant: Int64) throws(StoreError) -> (came: [Occurrence], upcoming: Occurrence?) {
        guard reminder.recurrenceRule != nil, !reminder.isCompleted, let recurrence = try recurrence(ofReminder: reminder) else { return ([], nil) }
        var came: [Occurrence] = []
        for occurrence in recurrence.occurrences() {
            guard occurrence.instant <= instant else { return (came, came.isEmpty ? occurrence : nil) }
            guard came.count < Self.occurrencesDueLimit else { break }
            came.append(occurrence)
        }
        return (came, nil)
    }

    /// An occurrence of a repeating reminder passed over: not completed
    /// before the next came due. Completing the reminder hands them to the
    /// scheduler's delivery log (`AlarmLedger`), which lists them as missed.
    public struct NotDone: Hashable, Sendable {
        public var reminder: ItemIdentifier
        public var title: String
        public var occurrence: Occurrence
    }

    /// The occurrences of repeating reminders passed over by `instant`
    /// (those of reminders not completed since), newest first, at most `limit`.
    public func occurrencesNotDone(through instant: Int64, limit: Int) throws(StoreError) -> [NotDone] {
        var found: [NotDone] = []
        try enumerateReminders(.incomplete(dueFrom: nil, dueTo: nil)) { reminder, _ in
            guard reminder.recurrenceRule != nil else { return }
            guard let came = try? self.occurrencesDue(of: reminder, through: instant) else { return }
            found += came.dropLast().suffix(limit).map { NotDone(reminder: reminder.identifier, title: reminder.title, occurrence: $0) }
        }
        let newestFirst = found.sorted {
            $0.occurrence.instant != $1.occurrence.instant ? $0.occurrence.instant > $1.occurrence.instant : $0.reminder < $1.reminder
        }
        return Array(newestFirst.prefix(limit))
    }

    /// The due time of the occurrence after `due`.
    private func nextDue(after due: ItemTime, rule: RecurrenceRule) throws -> ItemTime? {
        let recurrence = try recurrence(rule: rule, start: due, workdays: try workdaySchedule(for: rule))
        let instant = due.resolution(in: recurrence.timeZone).instant
        guard let next = recurrence.occurrences(after: instant).first(where: { _ in true }) else { return nil }
        return Self.time(next, like: due)
    }

    /// A workday rule may skip or move its own start: a reminder's due time
    /// is then its first real occurrence (a clock-in reminder saved on a
    /// Sunday is due on Monday, not on that Sunday).
    private func firstDue(_ due: ItemTime, rule: RecurrenceRule) throws -> ItemTime? {
        guard let workdays = try workdaySchedule(for: rule) else { return due }
        let recurrence = try recurrence(rule: rule, start: due, workdays: workdays)
        return recurrence.occurrences().first(where: { _ in true }).map { Self.time($0, like: due) }
    }

    /// An occurrence as an item time of the same kind as `like`.
    private static func time(_ next: Occurrence, like due: ItemTime) -> ItemTime {
        switch due {
        case .date: return .date(next.day)
        case .floating: return .floating(next.localTime)
        // Only the start itself can name a fold's later instant.
        case .zoned(let local, let name, let fold): return .zoned(next.localTime, zone: name, fold: next.localTime == local ? fold : .earlier)
        }
    }

    /// `time` moved by `seconds`, in its own zone and of its own kind.
    static func shifted(_ time: ItemTime, by seconds: Int64, machine: TimeZoneRules) -> ItemTime {
        guard seconds != 0, let instant = try? time.instant(machine: machine) else { return time }
        let zone = (try? time.timeZone(machine: machine)) ?? machine
        let moved = zone.localTime(at: instant + seconds)
        return switch time {
        case .date: .date(moved.date)
        case .floating: .floating(moved)
        case .zoned: .zoned(at: instant + seconds, in: zone)
        }
    }

    public func removeReminder(_ identifier: ItemIdentifier, commit: Bool = true) throws(StoreError) {
        let reminder = try reminder(identifier: identifier)
        try requireWritable(reminder.calendarIdentifier)
        try perform(commit: commit) { db in try self.delete(identifier, in: db) }
    }

    static let reminderRow = ItemRowStatements(type: "reminder", columns: [
        "calendar_id", "title", "notes", "priority", "start_kind", "start_local", "start_zone", "due_kind", "due_local", "due_zone",
        "rrule", "completed", "completion_date", "external_key", "due_instant", "has_alarms",
        "ical_sequence", "ical_last_modified", "ical_unmodelled", "location", "url",
    ])

    func write(_ reminder: Reminder, dueInstant: Int64?, in db: Database) throws {
        try writeItem(Self.row(of: reminder, dueInstant: dueInstant), in: db)
    }

    /// The reminder's row, ready to write; see `ItemRow` for `freshAlarmIdentifiers`.
    static func row(of reminder: Reminder, dueInstant: Int64?, freshAlarmIdentifiers: Bool = false) -> ItemRow {
        let start = Self.timeColumns(reminder.start), due = Self.timeColumns(reminder.due)
        var values: [DatabaseValue] = [
            .text(reminder.calendarIdentifier.rawValue), .text(reminder.title), .text(reminder.notes), .integer(Int64(reminder.priority)),
            start.kind.databaseValue, start.local.databaseValue, start.zone.databaseValue,
            due.kind.databaseValue, due.local.databaseValue, due.zone.databaseValue,
            reminder.recurrenceRule.map { .text($0.rfc5545) } ?? .null, reminder.isCompleted.databaseValue,
            reminder.completionDate.map { .real($0.timeIntervalSince1970) } ?? .null,
            reminder.externalKey.databaseValue, dueInstant.databaseValue, (!reminder.alarms.isEmpty).databaseValue,
        ]
        values.reserveCapacity(Self.reminderRow.columns.count)
        Self.appendOrigin(reminder.origin, to: &values)
        values.append(.text(reminder.location))
        values.append(reminder.url.databaseValue)
        return ItemRow(reminder.identifier, Self.reminderRow, values, alarms: reminder.alarms, freshAlarmIdentifiers: freshAlarmIdentifiers)
    }
}
