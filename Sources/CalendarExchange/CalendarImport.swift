import CalendarModel
import CalendarStore
import Foundation
import ICalendar

/// iCalendar files into the store, in two steps so that nothing is written
/// unless the whole of every file reads (or the caller chose to skip what
/// does not): `plan` reads and maps, `apply` writes in one transaction.
public enum CalendarImport {
    /// One VCALENDAR of a file, mapped for the calendar it goes to.
    public struct Part: Sendable {
        /// Where it goes; `isNew` when the import makes it.
        public var calendar: ItemCalendar
        public var isNew: Bool
        public var items: CalendarItems
    }

    /// What reading a file gave: its parts, and what could not be read.
    public struct Plan: Sendable {
        public var source: String
        public var parts: [Part]
        /// Broken components and those Chime cannot hold, in file order.
        public var faults: [ImportFault]
        /// What was read leniently (bad folding, text outside components, …).
        public var warnings: [ImportFault]
        /// The first calendar's own name (X-WR-CALNAME), if it gives one.
        public var feedName: String?

        public var eventCount: Int { parts.reduce(0) { $0 + $1.items.allEvents.count } }
        public var reminderCount: Int { parts.reduce(0) { $0 + $1.items.reminders.count } }
    }

    /// The bytes of a file, or of standard input for `-`, within the
    /// reader's size limit: an endless stream stops at it with an error.
    public static func bytes(of source: String, limits: ICalendarReader.Limits = .standard) throws(ImportFault) -> [UInt8] {
        do {
            return source == "-" ? try ICalendarReader.readBounded(fileDescriptor: 0, limit: limits.fileSize)
                                 : try ICalendarReader.readFile(path: source, limit: limits.fileSize)
        } catch {
            throw ImportFault(source: source, line: error.line, reason: error.reason)
        }
    }

    /// Reads and maps a file's bytes. The calendar is `calendarName` (made
    /// when missing), else the one the file names in X-WR-CALNAME (made when
    /// missing), else `defaultCalendar`. A file the reader refuses as a
    /// whole (too large, nested too deep, not UTF-8) throws.
    /// `into` fixes the calendar whatever the file says (a subscription's).
    /// A VCALENDAR of reminders alone, naming no calendar, goes to
    /// `reminderCalendar` when given (the default for new reminders).
    /// The bytes are taken (a temporary is not copied) and read twice, then
    /// let go: first for each VCALENDAR without its events and reminders,
    /// then for those, each mapped as it is read, so that the whole tree
    /// is never held: an import's memory is then the file's and the items'.
    public static func plan(_ bytes: consuming [UInt8], source: String, into fixed: ItemCalendar? = nil, calendarName: String? = nil,
                            defaultCalendar: ItemCalendar, reminderCalendar: ItemCalendar? = nil, store: CalendarStore,
                            limits: ICalendarReader.Limits = .standard) throws(ImportFault) -> Plan {
        // Two passes over the bytes, so that the file's whole tree is never
        // held: the first keeps each VCALENDAR without its events and
        // reminders (its own properties, its VTIMEZONEs, which may come after
        // the items that use them, and what is reported), the second hands
        // each event and reminder to its calendar's mapping as it is read.
        let isItem = { (component: ICalendarComponent) in component.name == "VEVENT" || component.name == "VTODO" }
        var kinds: [Int: (events: Bool, reminders: Bool)] = [:]
        var reading: ICalendarReader.Reading
        do {
            reading = try ICalendarReader(limits: limits).read(bytes) { component, calendarLine in
                guard isItem(component) else { return false }
                var seen = kinds[calendarLine] ?? (false, false)
                if component.name == "VEVENT" { seen.events = true } else { seen.reminders = true }
                kinds[calendarLine] = seen
                return true
            }
        } catch {
            throw ImportFault(source: source, line: error.line, reason: error.reason)
        }
        var plan = Plan(source: source, parts: [], faults: [], warnings: [], feedName: nil)
        plan.faults = reading.problems.map {
            ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason)
        }
        plan.warnings = reading.warnings.map { ImportFault(source: source, line: $0.line, reason: $0.reason) }
        let calendars = reading.components.filter { $0.name == "VCALENDAR" }
        if calendars.isEmpty {
            plan.faults.append(ImportFault(source: source, line: reading.components.first?.line ?? 0,
                                           reason: "holds no VCALENDAR: it is not an iCalendar file"))
        }
        reading.components = []
        // Calendars made by this plan, by title: two VCALENDARs naming one go to one.
        var made: [String: ItemCalendar] = [:]
        // Each VCALENDAR's mapping, by the line of its BEGIN, with where its items go.
        var gatherings: [Int: (gathering: ICalendarItems.Gathering<ICalendarZones>, target: ItemCalendar, isNew: Bool)] = [:]
        var order: [Int] = []
        for component in calendars {
            let line = component.line
            let named = component["X-WR-CALNAME"].map { ICalendarText.unescape($0.value).trimmingCharacters(in: .whitespaces) }
            if plan.feedName == nil, let named, !named.isEmpty { plan.feedName = named }
            let title = calendarName ?? named
            let remindersOnly = kinds[line].map { $0.reminders && !$0.events } ?? false
            var target = fixed ?? (remindersOnly ? reminderCalendar ?? defaultCalendar : defaultCalendar), isNew = false
            if fixed == nil, let title, !title.isEmpty {
                if let existing = made[title] {
                    (target, isNew) = (existing, true)
                } else if let existing = try? store.calendar(named: title) {
                    target = existing
                } else {
                    target = ItemCalendar(title: title)
                    made[title] = target
                    isNew = true
                }
            }
            var gathering = ICalendarItems.Gathering(into: target.identifier, zones: ICalendarZones(calendar: component))
            // What the first pass kept besides the items (VTIMEZONEs, components Chime has no place for), to be reported as before.
            for child in component.components { gathering.add(child) }
            gatherings[line] = (gathering, target, isNew)
            order.append(line)
        }
        if !gatherings.isEmpty {
            do {
                _ = try ICalendarReader(limits: limits).read(bytes) { component, calendarLine in
                    guard isItem(component) else { return false }
                    gatherings[calendarLine]?.gathering.add(component)
                    return true
                }
            } catch {
                throw ImportFault(source: source, line: error.line, reason: error.reason)
            }
        }
        bytes = []
        for line in order {
            guard let (gathering, target, isNew) = gatherings.removeValue(forKey: line) else { continue }
            let result = gathering.finish()
            plan.warnings += result.warnings.map { ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason) }
            plan.faults += result.problems.map {
                ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason)
            }
            do {
                let items = try CalendarItems(events: result.events, reminders: result.reminders)
                plan.parts.append(Part(calendar: target, isNew: isNew, items: items))
            } catch {
                plan.faults.append(ImportFault(source: source, line: line, component: "VCALENDAR", reason: error.description))
            }
        }
        plan.faults.sort { $0.line < $1.line }
        return plan
    }

    /// Writes the plans' parts in one transaction: calendars made first,
    /// then each part upserted by UID. All or nothing.
    public static func apply(_ plans: [Plan], store: CalendarStore, removingMissing: Bool = false,
                             asSubscriptionRefresh: Bool = false) throws(StoreError) -> [ImportReport] {
        // One transaction: each part's own upsert runs inside it as a savepoint.
        do {
            return try store.transaction { () throws(StoreError) -> [ImportReport] in
            var reports: [ImportReport] = []
            var saved: Set<ItemIdentifier> = []
            for plan in plans {
                for part in plan.parts {
                    if part.isNew, saved.insert(part.calendar.identifier).inserted {
                        try store.save(part.calendar)
                    }
                    reports.append(try store.importItems(part.items, into: part.calendar.identifier, removingMissing: removingMissing,
                                                         asSubscriptionRefresh: asSubscriptionRefresh))
                }
            }
            return reports
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .unusable(path: store.path, reason: String(describing: error))
        }
    }
}
