import CalendarModel
import CalendarStore
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
        /// What is left to write: with an `ImportWriter`, the items it has
        /// not written already (see `streamedEvents`); else all of them.
        public var items: CalendarItems
        /// What an `ImportWriter` wrote of the part while it was read: how
        /// many events and reminders, and what became of them (nil when it
        /// only counted).
        public var streamedEvents = 0
        public var streamedReminders = 0
        /// The detached occurrences of the series the writer wrote.
        public var streamedOccurrences = 0
        /// The pieces' source, whose report the writer keeps (see `apply`).
        var streamedSource: ImportWriter.Source?

        public init(calendar: ItemCalendar, isNew: Bool, items: CalendarItems) {
            self.calendar = calendar
            self.isNew = isNew
            self.items = items
        }

        /// The part's series and single events (with the later parts of splits), written or not.
        public var eventCount: Int { streamedEvents + items.events.count }
        public var reminderCount: Int { streamedReminders + items.reminders.count }
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

        /// Every event, detached occurrences included, written or not.
        public var eventCount: Int { parts.reduce(0) { $0 + $1.streamedEvents + $1.streamedOccurrences + $1.items.allEvents.count } }
        public var reminderCount: Int { parts.reduce(0) { $0 + $1.reminderCount } }
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

    /// The first reading of a file that a writer takes in pieces (see
    /// `plan`): its VCALENDARs without their items (their whole contexts),
    /// the kinds of items each holds, and each one's survey of its items.
    /// It needs no store, so that it can be made while the store is opened.
    public struct Surveyed: Sendable {
        var reading: ICalendarReader.Reading
        var kinds: [Int: ItemKinds]
        var calendars: [Int: ICalendarItems.Survey]
    }

    /// Whether a component is one of the items a plan maps (VEVENT, VTODO).
    static func isItem(_ component: ICalendarComponent) -> Bool { component.name == "VEVENT" || component.name == "VTODO" }

    /// Which kinds of items a VCALENDAR holds.
    struct ItemKinds: Sendable {
        var events = false
        var reminders = false

        mutating func note(_ item: ICalendarComponent) {
            if item.name == "VEVENT" { events = true } else { reminders = true }
        }
    }

    /// The survey `plan` makes of `bytes` before it maps them with a
    /// writer: the items skimmed for their UIDs, the rest read whole. A
    /// file the reader refuses as a whole throws, as `plan` does.
    public static func survey(_ bytes: [UInt8], source: String, limits: ICalendarReader.Limits = .standard) throws(ImportFault) -> Surveyed {
        var kinds: [Int: ItemKinds] = [:]
        var calendars: [Int: ICalendarItems.Survey] = [:]
        // The VCALENDAR under way kept apart, put in the dictionaries when
        // another begins and at the end: looked up by its line for each
        // item, it was two hashes an item (a fifth of the survey's own work).
        var current: (line: Int, kinds: ItemKinds, survey: ICalendarItems.Survey)?
        func putCurrent() {
            guard let done = current else { return }
            current = nil
            kinds[done.line] = done.kinds
            calendars[done.line] = done.survey
        }
        do {
            let reading = try ICalendarReader(limits: limits).read(bytes, skimmingItems: true) { component, calendar in
                guard isItem(component) else { return false }
                if current?.line != calendar.line {
                    putCurrent()
                    // Taken out, not copied: a copy would copy its counts as they change.
                    current = (calendar.line, kinds.removeValue(forKey: calendar.line) ?? ItemKinds(),
                               calendars.removeValue(forKey: calendar.line) ?? ICalendarItems.Survey())
                }
                current!.kinds.note(component)
                current!.survey.add(component)
                return true
            }
            putCurrent()
            return Surveyed(reading: reading, kinds: kinds, calendars: calendars)
        } catch {
            throw ImportFault(source: source, line: error.line, reason: error.reason)
        }
    }

    /// Writes the plans' parts in one transaction: calendars made first,
    /// then each part upserted by UID. All or nothing.
    /// With the `writer` the plans were made with, what it wrote is not
    /// written again, its failure is thrown, and each part's report holds
    /// what it wrote; the caller's transaction must hold the plans' making
    /// too (see `ImportWriter`). A writer does not remove what is missing.
    public static func apply(_ plans: [Plan], store: CalendarStore, removingMissing: Bool = false,
                             asSubscriptionRefresh: Bool = false, writer: ImportWriter? = nil) throws(StoreError) -> [ImportReport] {
        if let failure = writer?.failure { throw failure }
        // One transaction: each part's own upsert runs inside it as a savepoint.
        do {
            return try store.transaction { () throws(StoreError) -> [ImportReport] in
            var reports: [ImportReport] = []
            var saved = writer?.made ?? []
            for plan in plans {
                for part in plan.parts {
                    if part.isNew, saved.insert(part.calendar.identifier).inserted {
                        try store.save(part.calendar)
                    }
                    var report = part.streamedSource.flatMap { writer?.report(of: $0) } ?? ImportReport()
                    report.append(try store.importItems(part.items, into: part.calendar.identifier, removingMissing: removingMissing,
                                                        asSubscriptionRefresh: asSubscriptionRefresh, lookup: writer == nil ? .calendar : .uids))
                    reports.append(report)
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
