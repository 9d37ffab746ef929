import Foundation
import CalendarModel

extension ICalendarItems {
    /// Reads a VCALENDAR's VEVENTs and VTODOs into items of the calendar
    /// `calendarIdentifier`, TZIDs resolved through `zones`.
    ///
    /// Times: a TZID time is zoned in the zone `zones` gives; a UTC time is
    /// zoned in "UTC" (the instant stays exact); a floating time is zoned in
    /// `zones.floatingZone` when there is one, else floating. An all-day
    /// DTEND is exclusive in iCalendar and Chime's all-day end is the last
    /// day, inclusive: one day is taken off. With neither DTEND nor
    /// DURATION a date lasts one day and a time no time.
    ///
    /// RECURRENCE-ID;RANGE=THISANDFUTURE splits the series (see `split`).
    /// A component given again (the same UID without RECURRENCE-ID, or the
    /// same RECURRENCE-ID) is a revision of it: the later one by SEQUENCE,
    /// then LAST-MODIFIED, stands, the later in the file on a tie. An
    /// occurrence whose series excludes its RECURRENCE-ID with EXDATE is
    /// left out with a warning.
    /// Components other than VEVENT, VTODO and VTIMEZONE (VJOURNAL,
    /// VFREEBUSY, …) are reported as problems, so nothing is silently lost.
    ///
    /// The calendar is taken: each component is let go once mapped, so
    /// that a caller that passes its last copy holds the tree and the items
    /// together only briefly.
    public static func read(calendar: consuming ICalendarComponent, into calendarIdentifier: ItemIdentifier,
                            zones: some ICalendarZoneResolving) -> Result {
        var gathering = Gathering(into: calendarIdentifier, zones: zones)
        let bound = min(calendar.components.count, 1_000_000)
        for index in 0..<bound {
            let component = calendar.components[index]
            calendar.components[index].properties = []
            calendar.components[index].components = []
            gathering.add(component)
        }
        return gathering.finish()
    }

    /// `read(calendar:into:zones:)` a component at a time, for a reader
    /// that hands a VCALENDAR's components over as it reads them (so that
    /// the file's whole tree is never held): `add` each in file order, then
    /// `finish`. The occurrences (RECURRENCE-ID) are held until `finish`,
    /// as their series may come after them; with a survey, only until the
    /// last of their UID's components has come.
    public struct Gathering<Zones: ICalendarZoneResolving> {
        private var result = Result()
        private var masters: [String: Int] = [:]
        /// The occurrences in file order; nil where one was settled early (see `settle`).
        private var overrides: [(String, ICalendarComponent)?] = []
        /// With a survey: where each UID's occurrences stand in `overrides`,
        /// and how many of its components have come, for UIDs not final once mapped.
        private var overridesByUID: [String: [Int]] = [:]
        private var arrived: [String: Int] = [:]
        private let rules = RuleCache()
        private let calendarIdentifier: ItemIdentifier
        private let zones: Zones
        /// How many components were added: past a million the rest are ignored, as `read` reads no more.
        private var added = 0
        private let survey: Survey?
        /// Items the survey says are final, mapped and not yet taken.
        private var finals: [Entry] = []

        /// `survey`: the calendar surveyed beforehand (see `Survey`), so
        /// that its final items can be taken as they are mapped.
        public init(into calendarIdentifier: ItemIdentifier, zones: Zones, survey: Survey? = nil) {
            self.calendarIdentifier = calendarIdentifier
            self.zones = zones
            self.survey = survey
        }

        /// How many final items wait to be taken.
        public var finalCount: Int { finals.count }

        /// The final items mapped since the last call (see `Survey`): an
        /// item whose UID comes once, with no occurrences, as it is mapped;
        /// one whose UID comes again or has occurrences (RECURRENCE-ID),
        /// with its revisions settled and its occurrences (`detached`,
        /// `followingSeries`, or entries of their own when its series is not
        /// in the calendar), once the last of its components has come. What
        /// is not taken comes with the rest from `finish`.
        public mutating func takeFinal() -> [Entry] {
            defer { finals = [] }
            return finals
        }

        /// The next of the calendar's components in file order.
        public mutating func add(_ component: ICalendarComponent) {
            guard added < 1_000_000 else { return }
            added += 1
            let uid = component["UID"].map { ICalendarText.unescape($0.value) }
            place(component, uid: uid)
            guard let uid, component.name == "VEVENT" || component.name == "VTODO", let survey,
                  let expected = survey.componentCount(ofPending: uid) else { return }
            let count = arrived[uid, default: 0] + 1
            if count < expected {
                arrived[uid] = count
            } else {
                arrived[uid] = nil
                settle(uid)
            }
        }

        /// Maps a component, or holds it as an occurrence, or reports it.
        private mutating func place(_ component: ICalendarComponent, uid: String?) {
            func problem(_ reason: String) {
                result.problems.append(Problem(component: component.name, line: component.line, uid: uid, reason: reason))
            }
            switch component.name {
            case "VTIMEZONE":
                return
            case "VEVENT", "VTODO":
                break
            default:
                problem("is a component Chime has no place for")
                return
            }
            let key = uid ?? derivedUID(of: component)
            if component["RECURRENCE-ID"] != nil {
                guard uid != nil else { problem("has a RECURRENCE-ID but no UID to name its series"); return }
                if survey != nil { overridesByUID[key, default: []].append(overrides.count) }
                overrides.append((key, component))
                return
            }
            let repeated = masters[key]
            if let repeated, result.entries[repeated].item.isEvent != (component.name == "VEVENT") {
                problem("repeats the UID of an earlier component of the other kind"); return
            }
            do throws(MappingError) {
                let mapper = Mapper(calendar: calendarIdentifier, uid: key, zones: zones, rules: rules)
                defer { result.warnings += mapper.warnings.list }
                let item: Item = component.name == "VEVENT"
                    ? .event(try mapper.event(component, keepsUID: uid == nil))
                    : .reminder(try mapper.reminder(component, keepsUID: uid == nil))
                if repeated == nil, let survey, survey.isFinal(key) {
                    finals.append(Entry(uid: key, item: item))
                    return
                }
                if let repeated {
                    // The item again (a file that gathered its revisions): the later one stands, the later in the file on a tie.
                    if !ICalendarItems.isEarlier(item.origin, than: result.entries[repeated].item.origin) { result.entries[repeated].item = item }
                    return
                }
                masters[key] = result.entries.count
                result.entries.append(Entry(uid: key, item: item))
            } catch {
                problem(error.reason)
            }
        }

        /// The last of `uid`'s components has come: its occurrences are
        /// placed (as `finish` places them) and it is final, with them.
        private mutating func settle(_ uid: String) {
            let places = overridesByUID.removeValue(forKey: uid) ?? []
            var components: [(String, ICalendarComponent)] = []
            for place in places {
                if let held = overrides[place] { components.append(held) }
                overrides[place] = nil
            }
            let firstNew = result.entries.count
            for (uid, component) in Self.inPlacingOrder(components) { placeOccurrence(component, uid: uid) }
            // Its series' entry, and those of occurrences whose series is not in the calendar.
            var settled = Array(result.entries[firstNew...])
            result.entries.removeSubrange(firstNew...)
            if let index = masters.removeValue(forKey: uid) {
                settled.insert(result.entries.remove(at: index), at: 0)
                for (other, place) in masters where place > index { masters[other] = place - 1 }
            }
            finals += settled
        }

        /// Splits first, in order, so that single occurrences after a cut find the part they belong to.
        private static func inPlacingOrder(_ overrides: [(String, ICalendarComponent)]) -> [(String, ICalendarComponent)] {
            let isSplit = { (c: ICalendarComponent) in c["RECURRENCE-ID"]?[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE" }
            return overrides.filter { isSplit($0.1) }.sorted { ($0.1["RECURRENCE-ID"]?.value ?? "") < ($1.1["RECURRENCE-ID"]?.value ?? "") }
                + overrides.filter { !isSplit($0.1) }
        }

        /// The items of every component added, with what could not be mapped.
        public consuming func finish() -> Result {
            if !finals.isEmpty {
                // Before the series, which their occurrences find by place.
                result.entries.insert(contentsOf: takeFinal(), at: 0)
                for (index, entry) in result.entries.enumerated() { masters[entry.uid] = index }
            }
            for (uid, component) in Self.inPlacingOrder(overrides.compactMap { $0 }) { placeOccurrence(component, uid: uid) }
            // The occurrences were mapped after every series (some as their UID settled): back to the file's order.
            result.warnings.sort { $0.line < $1.line }
            result.problems.sort { $0.line < $1.line }
            return result
        }

        /// An occurrence (RECURRENCE-ID) onto its series, or an entry of its own without one.
        private mutating func placeOccurrence(_ component: ICalendarComponent, uid: String) {
            func problem(_ reason: String) {
                result.problems.append(Problem(component: component.name, line: component.line, uid: uid, reason: reason))
            }
            let mapper = Mapper(calendar: calendarIdentifier, uid: uid, zones: zones, rules: rules)
            do throws(MappingError) {
                // What its alarms' Chime fields warned of, read once with them (also when the rest then fails).
                defer { result.warnings += mapper.warnings.list }
                if component["RECURRENCE-ID"]?[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE" {
                    guard let index = masters[uid], case .event(let master) = result.entries[index].item, component.name == "VEVENT" else {
                        throw MappingError("is a THISANDFUTURE occurrence whose series is not in the file")
                    }
                    try split(&result.entries[index], master: master, at: component, mapper: mapper)
                    return
                }
                guard let index = masters[uid] else {
                    // An invitation to one occurrence: a plain event that keeps its UID and RECURRENCE-ID.
                    guard component.name == "VEVENT" else { throw MappingError("is an occurrence whose series is not in the file") }
                    var event = try mapper.event(component, keepsUID: true, keepsRecurrenceID: true)
                    guard let recurrenceID = component["RECURRENCE-ID"] else { throw MappingError("has no RECURRENCE-ID") }
                    let original = try mapper.time(recurrenceID).wallClock
                    // Keyed as a split's later part is: the series, when it comes, replaces it (see `Entry`).
                    event.externalKey = uid + "#" + original.basicFormat
                    event.identifier = identifier(calendar: calendarIdentifier, uid: uid, kind: "orphan", occurrence: original)
                    event.alarms = mapper.renumbered(event.alarms, item: event.identifier)
                    result.entries.append(Entry(uid: uid, item: .event(event)))
                    return
                }
                switch result.entries[index].item {
                case .reminder(var master):
                    guard component.name == "VTODO" else { throw MappingError("is a VEVENT occurrence of a VTODO") }
                    var origin = master.origin ?? ICalendarOrigin()
                    origin.unmodelled += component.unfoldedText
                    master.origin = origin
                    result.entries[index].item = .reminder(master)
                case .event(let master):
                    guard component.name == "VEVENT" else { throw MappingError("is a VTODO occurrence of a VEVENT") }
                    guard let recurrenceID = component["RECURRENCE-ID"] else { throw MappingError("has no RECURRENCE-ID") }
                    let original = try mapper.originalStart(recurrenceID, in: master.start)
                    var event = try mapper.event(component, keepsUID: false)
                    event.externalKey = nil
                    event.identifier = identifier(calendar: calendarIdentifier, uid: uid, kind: "occurrence", occurrence: original)
                    event.alarms = mapper.renumbered(event.alarms, item: event.identifier)
                    event.seriesIdentifier = master.identifier
                    event.originalStart = original
                    // After a cut it belongs to the later part in force, on that part's shifted wall clock.
                    let entry = result.entries[index]
                    for part in entry.followingSeries.reversed() {
                        if let shifted = ICalendarItems.originalStart(recurrenceID, onClockOf: part, mapper: mapper),
                           shifted >= part.start.wallClock {
                            event.seriesIdentifier = part.identifier
                            event.originalStart = shifted
                            break
                        }
                    }
                    let owner = entry.followingSeries.last { $0.identifier == event.seriesIdentifier } ?? master
                    if let start = event.originalStart, owner.exceptionDates.contains(start) {
                        // RECURRENCE-ID names an instance of the recurrence set (RFC 5545 §3.8.4.4), from which EXDATE took this one (§3.8.5.1).
                        result.warnings.append(Problem(component: component.name, line: component.line, uid: uid,
                                                       reason: "is an occurrence its series excludes (EXDATE \(start)): left out"))
                        return
                    }
                    if let earlier = entry.detached.firstIndex(where: { $0.identifier == event.identifier }) {
                        // The occurrence again: the later revision stands, the later in the file on a tie.
                        if !ICalendarItems.isEarlier(event.origin, than: entry.detached[earlier].origin) { result.entries[index].detached[earlier] = event }
                        return
                    }
                    result.entries[index].detached.append(event)
                }
            } catch {
                problem(error.reason)
            }
        }
    }

    /// Whether revision `a` is earlier than `b` by SEQUENCE, then LAST-MODIFIED (else DTSTAMP).
    static func isEarlier(_ a: ICalendarOrigin?, than b: ICalendarOrigin?) -> Bool {
        ICalendarOrigin.compareRevisions((a?.sequence ?? 0, a?.lastModified), (b?.sequence ?? 0, b?.lastModified)) == .earlier
    }

    /// Why a component cannot be mapped.
    struct MappingError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
        init(_ error: ICalendarValueError) { reason = error.description }
    }

    /// The original start a later part of a split carries on from: its
    /// kept RECURRENCE-ID on the part's own clock (its start's zone). Files
    /// mostly write it in the series' zone, which is the part's; one in UTC
    /// or another named zone is the same instant read there, or the part's
    /// occurrences would be counted an offset away (and drift by it on every
    /// import and export). A TZID that is no IANA name is read as written.
    static func cut(of part: Event) -> LocalDateTime? {
        guard let kept = try? ICalendarComponent.readUnmodelled(part.origin?.unmodelled ?? ""),
              let property = kept.properties.first(where: { $0.name == "RECURRENCE-ID" }),
              let value = try? ICalendarDateTime(property) else { return nil }
        guard case .zoned(_, let zone, _) = part.start, let rules = try? TimeZoneRules.named(zone) else { return value.wallClock }
        switch value {
        case .utc(let local) where zone != "UTC":
            return rules.localTime(at: local.localSeconds)
        case .zoned(let local, let tzid) where tzid != zone:
            guard let named = try? TimeZoneRules.named(tzid) else { return local }
            return rules.localTime(at: named.resolve(local).instant)
        default:
            return value.wallClock
        }
    }

    /// `recurrenceID`, an original start in the first series' recurrence
    /// set, on the clock of `part`, a later part of a split, which counts its
    /// occurrences on its own shifted clock (the part is in force there when
    /// the result is not before its start); nil when `part` is no later part.
    static func originalStart<Zones>(_ recurrenceID: ICalendarProperty, onClockOf part: Event, mapper: Mapper<Zones>) -> LocalDateTime? {
        guard let cut = cut(of: part), let reading = try? mapper.originalStart(recurrenceID, in: part.start) else { return nil }
        return LocalDateTime(localSeconds: reading.localSeconds + part.start.wallClock.localSeconds - cut.localSeconds)
    }

    /// RANGE=THISANDFUTURE: as Chime's save with span `.futureEvents`, the
    /// part in force at the cut ends before it with UNTIL (an earlier UNTIL
    /// stays) and a new series, the override, carries on from it with its
    /// own rule or else the cut part's, and the cut part's exception and
    /// extra dates from the cut on, moved by the override's shift. The new
    /// series' external key is the UID and the cut (`UID#20261207T090000`),
    /// so that a store keyed by it imports the split again as unchanged; its
    /// UID and RECURRENCE-ID stay in its unmodelled lines, so export writes
    /// it back as the same override.
    /// A COUNT rule is not split (that needs the recurrence engine to count
    /// what came before): a problem. The same cut given again is the same
    /// override in another revision (`revise`).
    static func split<Zones>(_ entry: inout Entry, master: Event, at component: ICalendarComponent, mapper: Mapper<Zones>) throws(MappingError) {
        guard let recurrenceID = component["RECURRENCE-ID"] else { throw MappingError("has no RECURRENCE-ID") }
        let cut = try mapper.originalStart(recurrenceID, in: master.start)
        let partIdentifier = identifier(calendar: master.calendarIdentifier, uid: entry.uid, kind: "following", occurrence: cut)
        if let same = entry.followingSeries.firstIndex(where: { $0.identifier == partIdentifier }) {
            let revision = try laterPart(component, uid: entry.uid, cut: cut, identifier: partIdentifier, mapper: mapper)
            return revise(&entry.followingSeries[same], with: revision, component: component)
        }
        var part = entry.followingSeries.last ?? master
        guard let rule = part.recurrenceRule else { throw MappingError("splits a series that does not repeat by a rule") }
        guard rule.count == nil else { throw MappingError("splits a COUNT rule, which Chime cannot cut without expanding it") }
        let partCut = entry.followingSeries.last.flatMap { Self.originalStart(recurrenceID, onClockOf: $0, mapper: mapper) } ?? cut
        // No occurrence is there to cut at: as a cut it would shift the rest of the series by the distance.
        guard partCut >= part.start.wallClock else {
            throw MappingError("cuts the series at \(partCut), before its start \(part.start.wallClock)")
        }
        guard partCut.date.year <= 9999 else {
            throw MappingError("cuts the series at \(cut), which its part from \(part.start.wallClock) counts as \(partCut), past year 9999")
        }
        let until: RecurrenceRule.Until
        let bound: Int64
        switch part.start {
        case .date:
            until = .date(partCut.date.adding(days: -1))
            bound = partCut.localSeconds - 1
        case .floating:
            until = .local(LocalDateTime(localSeconds: partCut.localSeconds - 1))
            bound = partCut.localSeconds - 1
        case .zoned(_, let zone, _):
            let instant = (try? TimeZoneRules.named(zone))?.resolve(partCut).instant ?? partCut.localSeconds
            until = .utc(LocalDateTime(localSeconds: instant - 1))
            bound = instant - 1
        }
        let existing: Int64? = switch rule.until {
        case .date(let date)?: LocalDateTime(date: date.adding(days: 1))!.localSeconds - 1
        case .local(let time)?, .utc(let time)?: time.localSeconds
        case nil: nil
        }
        var later = try laterPart(component, uid: entry.uid, cut: cut, identifier: partIdentifier, mapper: mapper)
        let shift = later.start.wallClock.localSeconds - partCut.localSeconds
        if later.recurrenceRule == nil {
            // The cut part's instances, moved by the override's shift (RFC
            // 5545 3.8.4.4): so is their UNTIL, or a series moved later
            // loses its last instance to the bound it had before the move.
            later.recurrenceRule = rule
            if shift != 0, let bound = rule.until {
                let moved: RecurrenceRule.Until = switch bound {
                case .date(let date): .date(date.adding(days: Int((Double(shift) / 86_400).rounded(.down))))
                case .local(let time): .local(LocalDateTime(localSeconds: time.localSeconds + shift))
                case .utc(let time): .utc(LocalDateTime(localSeconds: time.localSeconds + shift))
                }
                later.recurrenceRule = try? rule.ending(.until(moved))
                if later.recurrenceRule == nil { throw MappingError("cannot be moved: its series' UNTIL moved by the override's shift is no date") }
            }
        }
        if component["EXDATE"] == nil { later.exceptionDates = moved(part.exceptionDates.filter { $0 >= partCut }, by: shift) }
        if component["RDATE"] == nil { later.extraDates = moved(part.extraDates.filter { $0 >= partCut }, by: shift) }
        if existing.map({ $0 > bound }) ?? true {
            do { part.recurrenceRule = try rule.ending(.until(until)) } catch { throw MappingError("cannot be cut: \(error)") }
        }
        part.exceptionDates = part.exceptionDates.filter { $0 < partCut }
        part.extraDates = part.extraDates.filter { $0 < partCut }
        if entry.followingSeries.isEmpty {
            entry.item = .event(part)
        } else {
            entry.followingSeries[entry.followingSeries.count - 1] = part
        }
        entry.followingSeries.append(later)
    }

    /// The override `component` as the later part of a split at `cut`:
    /// keyed by the UID and the cut, its alarms numbered for it.
    static func laterPart<Zones>(_ component: ICalendarComponent, uid: String, cut: LocalDateTime, identifier: ItemIdentifier,
                                 mapper: Mapper<Zones>) throws(MappingError) -> Event {
        var later = try mapper.event(component, keepsUID: true, keepsRecurrenceID: true)
        later.externalKey = uid + "#" + cut.basicFormat
        later.identifier = identifier
        later.alarms = mapper.renumbered(later.alarms, item: identifier)
        return later
    }

    /// A THISANDFUTURE override at a cut already split: as an occurrence
    /// given twice, the later revision stands (the later in the file on a
    /// tie), in the place of the earlier. Splitting again would make a
    /// second part with the same identifier, and every occurrence after the
    /// cut would be written once after each (twice as many on each import
    /// and export). What the override does not give, it takes from the
    /// revision it replaces: the rule, and the exception and extra dates on
    /// its own shifted clock.
    static func revise(_ part: inout Event, with later: Event, component: ICalendarComponent) {
        guard !isEarlier(later.origin, than: part.origin) else { return }
        var revision = later
        if revision.recurrenceRule == nil { revision.recurrenceRule = part.recurrenceRule }
        let shift = revision.start.wallClock.localSeconds - part.start.wallClock.localSeconds
        if component["EXDATE"] == nil { revision.exceptionDates = moved(part.exceptionDates, by: shift) }
        if component["RDATE"] == nil { revision.extraDates = moved(part.extraDates, by: shift) }
        part = revision
    }

    /// A part's exception or extra dates on the clock of the part that
    /// carries on from it, `shift` seconds on. Those it moves outside years
    /// 0000–9999 are left out: no occurrence falls there, and iCalendar
    /// text cannot write them.
    static func moved(_ dates: [LocalDateTime], by shift: Int64) -> [LocalDateTime] {
        dates.map { LocalDateTime(localSeconds: $0.localSeconds + shift) }.filter { (0...9999).contains($0.date.year) }
    }
}
