import CalendarModel
import CalendarStore
import Foundation
import ICalendar
import Synchronization

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

    /// Reads and maps a file's bytes. The calendar is `calendarName` (made
    /// when missing), else the one the file names in X-WR-CALNAME (made when
    /// missing), else `defaultCalendar`. A file the reader refuses as a
    /// whole (too large, nested too deep, not UTF-8) throws.
    /// `into` fixes the calendar whatever the file says (a subscription's).
    /// A VCALENDAR of reminders alone, naming no calendar, goes to
    /// `reminderCalendar` when given (the default for new reminders).
    /// The bytes are taken (a temporary is not copied) and let go once
    /// read; each event and reminder is mapped as it is read, so that the
    /// whole tree is never held: an import's memory is the file's and the
    /// items'. A file whose VTIMEZONEs or calendar name come after its
    /// items is read twice.
    ///
    /// With a `writer`, the file is always read twice: first to survey it
    /// (`ICalendarItems.Survey`: its whole contexts, and which items are
    /// final once mapped; its items skimmed for their UIDs, so that the
    /// faults and warnings are the second reading's), then to map it, the
    /// writer taking the final items as they come, in pieces (a series
    /// with occurrences once the last component of its UID has come); only
    /// the rest is held (`Part.items`). Called inside the writer's
    /// `concurrently`, the plan runs on a thread of its own: its store
    /// calls go through the writer (`onStore`).
    ///
    /// `surveyed`: the survey of these very bytes, made beforehand
    /// (`survey`, `SurveyedFile`), which a plan with a writer then does
    /// not make again.
    public static func plan(_ bytes: consuming [UInt8], source: String, into fixed: ItemCalendar? = nil, calendarName: String? = nil,
                            defaultCalendar: ItemCalendar, reminderCalendar: ItemCalendar? = nil, store: CalendarStore,
                            limits: ICalendarReader.Limits = .standard, writer: ImportWriter? = nil,
                            surveyed: Surveyed? = nil) throws(ImportFault) -> Plan {
        // A VCALENDAR's items are mapped in its context: the calendar its
        // name or its kinds of items choose, its VTIMEZONEs and X-WR-TIMEZONE.
        // So that the file's whole tree is never held, one pass maps each
        // event and reminder as the reader closes it, in the context its
        // VCALENDAR has shown so far; when a VCALENDAR's whole context turns
        // out other (a VTIMEZONE after the items that use it, a name after
        // them, an event after a first reminder), a second pass maps every
        // item again in the whole contexts the first one found.
        var kinds: [Int: ItemKinds] = [:]
        // Calendars made by this plan, by title: two VCALENDARs naming one go to one.
        var made: [String: ItemCalendar] = [:]
        func target(for context: MappingContext) -> (calendar: ItemCalendar, isNew: Bool) {
            let chosen = fixed ?? (context.remindersOnly ? reminderCalendar ?? defaultCalendar : defaultCalendar)
            guard fixed == nil, let title = context.title, !title.isEmpty else { return (chosen, false) }
            if let existing = made[title] { return (existing, true) }
            let stored = writer.map { $0.onStore { try? store.calendar(named: title) } } ?? (try? store.calendar(named: title))
            if let existing = stored { return (existing, false) }
            let calendar = ItemCalendar(title: title)
            made[title] = calendar
            return (calendar, true)
        }
        // Each VCALENDAR's mapping, by the line of its BEGIN, with where its items go.
        var gatherings: [Int: Gathered] = [:]
        // With a writer, each VCALENDAR's survey, by the line of its BEGIN.
        var surveys: [Int: ICalendarItems.Survey]? = writer == nil ? nil : [:]
        // The items' years, read from the bytes if a TZID comes to need them.
        let itemYears = ItemYears(bytes: copy bytes, limits: limits)
        func gathered(_ context: MappingContext, zones calendar: ICalendarComponent) -> Gathered {
            let (target, isNew) = target(for: context)
            let survey = surveys.map { $0[calendar.line] ?? ICalendarItems.Survey() }
            let line = calendar.line
            let zones = ICalendarZones(calendar: calendar, itemYears: { itemYears.span(ofCalendarAt: line) })
            let gathering = ICalendarItems.Gathering(into: target.identifier, zones: zones, survey: survey)
            return Gathered(gathering: gathering, target: target, isNew: isNew, context: context)
        }
        var reading: ICalendarReader.Reading
        if writer != nil {
            let first = if let surveyed { surveyed } else { try survey(bytes, source: source, limits: limits) }
            (reading, kinds, surveys) = (first.reading, first.kinds, first.calendars)
        } else {
            do {
                reading = try ICalendarReader(limits: limits).read(bytes) { component, calendar in
                    guard isItem(component) else { return false }
                    kinds[calendar.line, default: ItemKinds()].note(component)
                    if gatherings[calendar.line] == nil {
                        let context = MappingContext(calendar, remindersOnly: component.name == "VTODO", calendarName: calendarName)
                        gatherings[calendar.line] = gathered(context, zones: calendar)
                    }
                    gatherings[calendar.line]?.gathering.add(component)
                    return true
                }
            } catch {
                throw ImportFault(source: source, line: error.line, reason: error.reason)
            }
        }
        var plan = Plan(source: source, parts: [], faults: [], warnings: [], feedName: nil)
        func report(_ reading: ICalendarReader.Reading) {
            plan.faults = reading.problems.map {
                ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason)
            }
            plan.warnings = reading.warnings.map { ImportFault(source: source, line: $0.line, reason: $0.reason) }
        }
        report(reading)
        let calendars = reading.components.filter { $0.name == "VCALENDAR" }
        let noCalendar = calendars.isEmpty
            ? ImportFault(source: source, line: reading.components.first?.line ?? 0, reason: "holds no VCALENDAR: it is not an iCalendar file")
            : nil
        reading.components = []
        func wholeContext(_ calendar: ICalendarComponent) -> MappingContext {
            MappingContext(calendar, remindersOnly: kinds[calendar.line].map { $0.reminders && !$0.events } ?? false, calendarName: calendarName)
        }
        // A survey maps nothing: the second pass maps everything, in the whole contexts.
        let settled = surveys == nil
            && calendars.allSatisfy { calendar in gatherings[calendar.line].map { $0.context == wholeContext(calendar) } ?? true }
        if !settled {
            gatherings = [:]
            made = [:]
        }
        var order: [Int] = []
        for component in calendars {
            let line = component.line
            if plan.feedName == nil, let named = MappingContext.name(of: component), !named.isEmpty { plan.feedName = named }
            if gatherings[line] == nil { gatherings[line] = gathered(wholeContext(component), zones: component) }
            // What the first pass kept besides the items (VTIMEZONEs, components Chime has no place for), to be reported as before.
            for child in component.components { gatherings[line]?.gathering.add(child) }
            order.append(line)
        }
        let skimmed = surveys != nil
        surveys = nil
        // What the writer wrote of each VCALENDAR, by the line of its BEGIN.
        var streamed: [Int: Part] = [:]
        // Final entries that did not make a batch of their own, for the rest (never seen: a series' occurrences all name it).
        var unwritten: [Int: [ICalendarItems.Entry]] = [:]
        let planNumber = writer?.beginPlan() ?? 0
        func write(_ line: Int) {
            guard let writer, let gathered = gatherings[line] else { return }
            let entries = gatherings[line]!.gathering.takeFinal()
            guard !entries.isEmpty else { return }
            var items = CalendarItems()
            for entry in entries {
                switch entry.item {
                case .event(let event) where entry.detached.isEmpty && entry.followingSeries.isEmpty:
                    items.events.append(CalendarItems.Series(event: event))
                case .event(let event):
                    // A series settled with its occurrences and the later parts of its splits.
                    guard let series = try? CalendarItems(events: [event] + entry.followingSeries + entry.detached) else {
                        unwritten[line, default: []].append(entry)
                        continue
                    }
                    items.events += series.events
                case .reminder(let reminder): items.reminders.append(reminder)
                }
            }
            var part = streamed[line] ?? Part(calendar: gathered.target, isNew: gathered.isNew, items: CalendarItems())
            part.streamedEvents += items.events.count
            part.streamedOccurrences += items.events.reduce(0) { $0 + $1.detached.count }
            part.streamedReminders += items.reminders.count
            let source = ImportWriter.Source(plan: planNumber, calendarLine: line)
            writer.write(items, into: gathered.target, isNew: gathered.isNew, from: source)
            part.streamedSource = source
            streamed[line] = part
        }
        if !settled {
            do {
                let again = try ICalendarReader(limits: limits).read(bytes) { component, calendar in
                    guard isItem(component) else { return false }
                    if let index = gatherings.index(forKey: calendar.line) {
                        // In place, through the dictionary's values: through the optional subscript, the
                        // mapping under way was moved out and back for each item (3,000 instructions an item).
                        gatherings.values[index].gathering.add(component)
                        if let writer, gatherings.values[index].gathering.finalCount >= writer.pieceSize { write(calendar.line) }
                    }
                    return true
                }
                if skimmed { report(again) }
            } catch {
                throw ImportFault(source: source, line: error.line, reason: error.reason)
            }
        }
        if let noCalendar { plan.faults.append(noCalendar) }
        bytes = []
        itemYears.release()
        for line in order {
            // The last piece: what was final after the one before.
            write(line)
            guard let gathered = gatherings.removeValue(forKey: line) else { continue }
            let (target, isNew) = (gathered.target, gathered.isNew)
            var result = gathered.gathering.finish()
            result.entries += unwritten[line] ?? []
            plan.warnings += result.warnings.map { ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason) }
            plan.faults += result.problems.map {
                ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason)
            }
            do {
                var part = streamed[line] ?? Part(calendar: target, isNew: isNew, items: CalendarItems())
                part.items = try CalendarItems(events: result.events, reminders: result.reminders)
                plan.parts.append(part)
            } catch {
                plan.faults.append(ImportFault(source: source, line: line, component: "VCALENDAR", reason: error.description))
            }
        }
        plan.faults.sort { $0.line < $1.line }
        return plan
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

    /// What a VCALENDAR's items are mapped in (see `plan`): where they go, and the zones they are read in.
    private struct MappingContext: Equatable {
        var title: String?
        var remindersOnly: Bool
        var zones: [ICalendarComponent]
        var floatingZone: String?

        init(_ calendar: ICalendarComponent, remindersOnly: Bool, calendarName: String?) {
            title = calendarName ?? Self.name(of: calendar)
            self.remindersOnly = remindersOnly
            zones = calendar.components(named: "VTIMEZONE")
            floatingZone = calendar["X-WR-TIMEZONE"]?.value
        }

        /// The calendar's own name (X-WR-CALNAME).
        static func name(of calendar: ICalendarComponent) -> String? {
            calendar["X-WR-CALNAME"].map { ICalendarText.unescape($0.value).trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The years each VCALENDAR's items span, by the line of its BEGIN
    /// (see `ICalendarZones.init`): a reading of the file of its own, made
    /// the first time a TZID is matched by its VTIMEZONE (files that name
    /// IANA zones never ask, and a large import's survey skims past the
    /// times), while the plan still holds the bytes. Each item is handed
    /// over and let go, so that the tree is not held.
    private final class ItemYears: Sendable {
        private let state: Mutex<(bytes: [UInt8], spans: [Int: ClosedRange<Int>]?)>
        private let limits: ICalendarReader.Limits

        init(bytes: [UInt8], limits: ICalendarReader.Limits) {
            state = Mutex((bytes, nil))
            self.limits = limits
        }

        static var currentYear: Int { LocalDateTime(localSeconds: Int64(Date().timeIntervalSince1970)).date.year }

        func span(ofCalendarAt line: Int) -> ClosedRange<Int>? {
            state.withLock { state in
                if state.spans == nil, !state.bytes.isEmpty {
                    var tallies: [Int: ICalendarItems.YearSpan] = [:]
                    // The mapping's own reading reports whatever is wrong; this one only counts years.
                    _ = try? ICalendarReader(limits: limits).read(state.bytes) { component, calendar in
                        tallies[calendar.line, default: ICalendarItems.YearSpan()].add(component)
                        return true
                    }
                    let year = Self.currentYear
                    state.spans = tallies.compactMapValues { $0.years(currentYear: year) }
                    state.bytes = []
                }
                return state.spans?[line]
            }
        }

        /// Lets the bytes go: a span not asked for by now is not known.
        func release() {
            state.withLock { $0.bytes = [] }
        }
    }

    /// A VCALENDAR's mapping under way, where its items go, and in what context they were mapped.
    private struct Gathered {
        var gathering: ICalendarItems.Gathering<ICalendarZones>
        var target: ItemCalendar
        var isNew: Bool
        var context: MappingContext
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
