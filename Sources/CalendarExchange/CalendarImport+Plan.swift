import CalendarModel
import CalendarStore
import Foundation
import ICalendar
import Synchronization

extension CalendarImport {
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
        var planner = Planner(source: source, fixed: fixed, calendarName: calendarName, defaultCalendar: defaultCalendar,
                              reminderCalendar: reminderCalendar, store: store, limits: limits, writer: writer,
                              itemYears: ItemYears(bytes: copy bytes, limits: limits))
        var reading: ICalendarReader.Reading
        if writer != nil {
            let first = if let surveyed { surveyed } else { try survey(bytes, source: source, limits: limits) }
            (reading, planner.kinds, planner.surveys) = (first.reading, first.kinds, first.calendars)
        } else {
            reading = try planner.mapWhileReading(bytes)
        }
        planner.report(reading)
        let calendars = reading.components.filter { $0.name == "VCALENDAR" }
        let noCalendar = calendars.isEmpty
            ? ImportFault(source: source, line: reading.components.first?.line ?? 0, reason: "holds no VCALENDAR: it is not an iCalendar file")
            : nil
        reading.components = []
        // A survey maps nothing: the second pass maps everything, in the whole contexts.
        let settled = planner.surveys == nil && planner.mappedInWholeContexts(calendars)
        if !settled { planner.forgetMappings() }
        let order = planner.prepareWholeContexts(calendars)
        let skimmed = planner.surveys != nil
        planner.surveys = nil
        planner.planNumber = writer?.beginPlan() ?? 0
        if !settled {
            let again = try planner.mapAgain(bytes)
            if skimmed { planner.report(again) }
        }
        if let noCalendar { planner.plan.faults.append(noCalendar) }
        bytes = []
        planner.itemYears.release()
        for line in order {
            // The last piece: what was final after the one before.
            planner.write(line)
            planner.finish(line)
        }
        planner.plan.faults.sort { $0.line < $1.line }
        return planner.plan
    }

    /// A plan in the making: what `plan` learns of a file as it reads it
    /// once or twice, and each step it takes with that.
    private struct Planner {
        let source: String
        /// The calendar every item goes to, whatever the file says (a subscription's).
        let fixed: ItemCalendar?
        let calendarName: String?
        let defaultCalendar: ItemCalendar
        let reminderCalendar: ItemCalendar?
        let store: CalendarStore
        let limits: ICalendarReader.Limits
        let writer: ImportWriter?
        /// The items' years, read from the bytes if a TZID comes to need them.
        let itemYears: ItemYears

        var plan: Plan
        /// Which kinds of items each VCALENDAR holds, by the line of its BEGIN.
        var kinds: [Int: ItemKinds] = [:]
        /// Calendars made by this plan, by title: two VCALENDARs naming one go to one.
        var made: [String: ItemCalendar] = [:]
        /// Each VCALENDAR's mapping, by the line of its BEGIN, with where its items go.
        var gatherings: [Int: Gathered] = [:]
        /// With a writer, each VCALENDAR's survey, by the line of its BEGIN,
        /// until its mapping is set out.
        var surveys: [Int: ICalendarItems.Survey]?
        /// What the writer wrote of each VCALENDAR, by the line of its BEGIN.
        var streamed: [Int: Part] = [:]
        /// Final entries that did not make a batch of their own, for the
        /// rest (never seen: a series' occurrences all name it).
        var unwritten: [Int: [ICalendarItems.Entry]] = [:]
        /// The writer's number for this plan's pieces.
        var planNumber = 0

        init(source: String, fixed: ItemCalendar?, calendarName: String?, defaultCalendar: ItemCalendar, reminderCalendar: ItemCalendar?,
             store: CalendarStore, limits: ICalendarReader.Limits, writer: ImportWriter?, itemYears: ItemYears) {
            self.source = source
            self.fixed = fixed
            self.calendarName = calendarName
            self.defaultCalendar = defaultCalendar
            self.reminderCalendar = reminderCalendar
            self.store = store
            self.limits = limits
            self.writer = writer
            self.itemYears = itemYears
            plan = Plan(source: source, parts: [], faults: [], warnings: [], feedName: nil)
            surveys = writer == nil ? nil : [:]
        }

        /// Where a VCALENDAR's items go in `context`, and whether this plan makes that calendar.
        mutating func target(for context: MappingContext) -> (calendar: ItemCalendar, isNew: Bool) {
            let chosen = fixed ?? (context.remindersOnly ? reminderCalendar ?? defaultCalendar : defaultCalendar)
            guard fixed == nil, let title = context.title, !title.isEmpty else { return (chosen, false) }
            if let existing = made[title] { return (existing, true) }
            let stored = writer.map { $0.onStore { [store] in try? store.calendar(named: title) } } ?? (try? store.calendar(named: title))
            if let existing = stored { return (existing, false) }
            let calendar = ItemCalendar(title: title)
            made[title] = calendar
            return (calendar, true)
        }

        /// A new mapping of `calendar`'s items in `context`.
        mutating func gathered(_ context: MappingContext, zones calendar: ICalendarComponent) -> Gathered {
            let (target, isNew) = target(for: context)
            let survey = surveys.map { $0[calendar.line] ?? ICalendarItems.Survey() }
            let line = calendar.line
            let zones = ICalendarZones(calendar: calendar, itemYears: { [itemYears] in itemYears.span(ofCalendarAt: line) })
            let gathering = ICalendarItems.Gathering(into: target.identifier, zones: zones, survey: survey)
            return Gathered(gathering: gathering, target: target, isNew: isNew, context: context)
        }

        /// The first reading without a writer: each item mapped as the
        /// reader closes it, in the context its VCALENDAR has shown so far.
        mutating func mapWhileReading(_ bytes: [UInt8]) throws(ImportFault) -> ICalendarReader.Reading {
            do {
                return try ICalendarReader(limits: limits).read(bytes) { component, calendar in
                    guard isItem(component) else { return false }
                    kinds[calendar.line, default: ItemKinds()].note(component)
                    if gatherings[calendar.line] == nil {
                        let context = MappingContext(calendar, remindersOnly: component.name == "VTODO", calendarName: calendarName)
                        let mapping = gathered(context, zones: calendar)
                        gatherings[calendar.line] = mapping
                    }
                    gatherings[calendar.line]?.gathering.add(component)
                    return true
                }
            } catch {
                throw ImportFault(source: source, line: error.line, reason: error.reason)
            }
        }

        /// A reading's problems and warnings, as the plan's faults and warnings (replacing an earlier reading's).
        mutating func report(_ reading: ICalendarReader.Reading) {
            plan.faults = reading.problems.map {
                ImportFault(source: source, line: $0.line, component: $0.component, uid: $0.uid, reason: $0.reason)
            }
            plan.warnings = reading.warnings.map { ImportFault(source: source, line: $0.line, reason: $0.reason) }
        }

        /// `calendar`'s context once it has been read to its end.
        func wholeContext(_ calendar: ICalendarComponent) -> MappingContext {
            MappingContext(calendar, remindersOnly: kinds[calendar.line].map { $0.reminders && !$0.events } ?? false, calendarName: calendarName)
        }

        /// Whether the first reading mapped each VCALENDAR in its whole context.
        func mappedInWholeContexts(_ calendars: [ICalendarComponent]) -> Bool {
            calendars.allSatisfy { calendar in gatherings[calendar.line].map { $0.context == wholeContext(calendar) } ?? true }
        }

        /// Drops the first reading's mappings, and the calendars they would make, for a second reading.
        mutating func forgetMappings() {
            gatherings = [:]
            made = [:]
        }

        /// Sets out each VCALENDAR's mapping in its whole context where the
        /// first reading has none, and gives it what that reading kept
        /// besides the items (VTIMEZONEs, components Chime has no place
        /// for), to be reported as before. The lines of their BEGINs, in file order.
        mutating func prepareWholeContexts(_ calendars: [ICalendarComponent]) -> [Int] {
            var order: [Int] = []
            for component in calendars {
                let line = component.line
                if plan.feedName == nil, let named = MappingContext.name(of: component), !named.isEmpty { plan.feedName = named }
                if gatherings[line] == nil {
                    let mapping = gathered(wholeContext(component), zones: component)
                    gatherings[line] = mapping
                }
                for child in component.components { gatherings[line]?.gathering.add(child) }
                order.append(line)
            }
            return order
        }

        /// The second reading: every item mapped in its VCALENDAR's whole
        /// context, the writer taking a piece whenever enough are final.
        mutating func mapAgain(_ bytes: [UInt8]) throws(ImportFault) -> ICalendarReader.Reading {
            do {
                return try ICalendarReader(limits: limits).read(bytes) { component, calendar in
                    guard isItem(component) else { return false }
                    if let index = gatherings.index(forKey: calendar.line) {
                        // In place, through the dictionary's values: through the optional subscript, the
                        // mapping under way was moved out and back for each item (3,000 instructions an item).
                        gatherings.values[index].gathering.add(component)
                        if let writer, gatherings.values[index].gathering.finalCount >= writer.pieceSize { write(calendar.line) }
                    }
                    return true
                }
            } catch {
                throw ImportFault(source: source, line: error.line, reason: error.reason)
            }
        }

        /// Hands what is final of a VCALENDAR's mapping to the writer, as one piece (with no writer, nothing).
        mutating func write(_ line: Int) {
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

        /// Ends a VCALENDAR's mapping: what the writer has not taken becomes its part of the plan, with its faults and warnings.
        mutating func finish(_ line: Int) {
            guard let gathered = gatherings.removeValue(forKey: line) else { return }
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
}
