import CalendarModel
import CalendarStore
import Foundation
import Geofencing
import HolidayCalendars
import RecurrenceEngine

/// Plans alarms: for every time-based alarm of every item in a store, the
/// firings after a reference instant, in order. Pure apart from reading
/// the store: the clock reading is an argument.
///
/// - An absolute alarm rings once, at its instant.
/// - A relative alarm rings at each occurrence's start (events) or at the
///   due time (reminders) plus its offset; an all-day item's occurrences
///   start at the local midnight of their day.
/// - A reminder's alarms ring only while it is incomplete: for its due
///   time, and a repeating one's for every occurrence from its due time
///   on, whether or not the earlier ones were completed (an occurrence not
///   completed when the next comes due is passed over; see `Reminder`).
/// - An occurrence that was changed on its own (detached) rings through
///   its own item, not the series'.
/// - Location alarms are not time-based: the geofencing plans those.
public struct FiringPlanner {
    public let store: CalendarStore
    /// Where the snoozes come from: they ring once more at their new time.
    public let ledger: AlarmLedger
    /// The most firings a single alarm may contribute to one plan: a
    /// minutely rule must not crowd out everything else.
    public var perAlarmLimit = 1000

    public init(store: CalendarStore, ledger: AlarmLedger? = nil) {
        self.store = store
        self.ledger = ledger ?? AlarmLedger(reading: store)
    }

    /// The first `count` firings strictly after `instant`, in order.
    public func firings(after instant: Int64, count: Int) throws(StoreError) -> [Firing] {
        guard count > 0 else { return [] }
        var sources: [FiringSource] = []
        var reminders = Set<ItemIdentifier>()
        var places: [ItemIdentifier: Alarm] = [:]
        try store.forEachAlarmedItem(after: instant) { item throws(StoreError) in
            if case .reminder = item { reminders.insert(item.identifier) }
            for alarm in item.alarms { if case .proximity = alarm.trigger { places[alarm.identifier] = alarm } }
            sources += try self.sources(of: item, after: instant)
        }
        // Snoozed firings ring once more at their new time.
        let snoozed = try ledger.snoozes(after: instant).map {
            Firing(snoozed: $0, kind: reminders.contains($0.item) ? .reminder : .event, alarm: places[$0.alarm])
        }
        return merge(sources, snoozed, count: count)
    }

    /// A k-way merge: each source yields its firings in order.
    private func merge(_ sources: [FiringSource], _ extra: [Firing], count: Int) -> [Firing] {
        var sources = sources
        var heap = MinHeap<Pending>()
        for index in sources.indices {
            if let first = sources[index].next() { heap.push(Pending(firing: first, source: index)) }
        }
        for firing in extra { heap.push(Pending(firing: firing, source: -1)) }
        var result: [Firing] = []
        var taken = [Int](repeating: 0, count: sources.count)
        while result.count < count, let pending = heap.pop() {
            result.append(pending.firing)
            let index = pending.source
            guard index >= 0 else { continue }
            taken[index] += 1
            if taken[index] < perAlarmLimit, let next = sources[index].next() { heap.push(Pending(firing: next, source: index)) }
        }
        return result
    }

    /// A firing waiting in the merge, with the source it came from.
    private struct Pending: Comparable {
        var firing: Firing
        var source: Int
        static func < (lhs: Pending, rhs: Pending) -> Bool { lhs.firing < rhs.firing }
    }

    /// One source per time-based alarm of an item.
    func sources(of item: CalendarStore.AlarmedItem, after instant: Int64) throws(StoreError) -> [FiringSource] {
        guard let anyAlarm = item.alarms.first else { return [] }
        // What every firing of the item says; each source puts its own alarm in.
        let rule: RecurrenceRule?, occurrences: Occurrences.Source?
        var about: Firing
        var detached: Set<LocalDateTime> = [], firstDay: CivilDate?
        switch item {
        case .event(let event, let detachedTimes):
            rule = event.recurrenceRule
            detached = detachedTimes
            firstDay = event.start.wallClock.date
            about = Firing(instant: 0, alarm: anyAlarm, kind: .event, itemIdentifier: event.identifier, title: event.title,
                           location: event.location, notes: event.notes)
            let isRecurring = rule != nil || !event.extraDates.isEmpty
            let relative = event.alarms.contains { if case .relative = $0.trigger { true } else { false } }
            // Only relative alarms need the occurrences; a single event's is its start.
            occurrences = !relative ? nil
                : isRecurring ? .recurrence(try store.recurrence(ofEvent: event)) : .single(try store.occurrence(at: event.start))
        case .reminder(let reminder):
            rule = reminder.recurrenceRule
            firstDay = reminder.due?.wallClock.date
            about = Firing(instant: 0, alarm: anyAlarm, kind: .reminder, itemIdentifier: reminder.identifier,
                           title: reminder.title, location: reminder.location, notes: reminder.notes)
            // A reminder rings for its due time; a repeating one for every occurrence from it on.
            if rule != nil, let recurrence = try store.recurrence(ofReminder: reminder) {
                occurrences = .recurrence(recurrence)
            } else if let due = reminder.due {
                occurrences = .single(try store.occurrence(at: due))
            } else {
                occurrences = nil
            }
        }
        // Set in place, and only where it holds: a copy of the template per item cost the daemon's start 13 %.
        if let rule, rule.scale == .chinese { about.countsInChineseCalendar = true }
        let workdays = try calendar(for: rule)
        return item.alarms.compactMap { alarm in
            FiringSource(alarm: alarm, item: about, occurrences: occurrences, detached: detached, workdays: workdays, after: instant,
                         firstDay: firstDay)
        }
    }

    private func calendar(for rule: RecurrenceRule?) throws(StoreError) -> WorkdayCalendar? {
        guard let rule, rule.workdayRule != nil else { return nil }
        return try store.workdayCalendar(region: rule.workdayRegion ?? "cn")
    }
}

extension Firing {
    /// A snoozed firing ringing once more at its new time. A location
    /// alarm's (`alarm`, when the item still has it) keeps its crossing, so
    /// that it still says "left Office at 17:32".
    init(snoozed snooze: AlarmLedger.Snooze, kind: ItemKind, alarm: Alarm? = nil) {
        self.init(instant: snooze.fireAt, alarm: Alarm(identifier: snooze.alarm, trigger: .absolute(Date(timeIntervalSince1970: TimeInterval(snooze.fireAt)))),
                  kind: kind, itemIdentifier: snooze.item, title: snooze.title, occurrence: nil, explanation: "snoozed",
                  snoozedFrom: snooze.firingKey)
        if let alarm, case .proximity(let place, let proximity) = alarm.trigger,
           case .crossing(proximity, let second) = snooze.firingKey.occurrence {
            crossing = proximity.rawValue + "@" + String(second)
            crossingPlace = Self.placeName(place)
            explanation = Self.crossingText(proximity, place)
        }
    }

    /// What a location firing says happened: "left Office", "arrived at Office".
    public static func crossingText(_ proximity: Alarm.Proximity, _ place: StructuredLocation) -> String {
        proximity == .leave ? "left \(placeName(place))" : "arrived at \(placeName(place))"
    }

    /// A place as a firing names it: its title, else its coordinates and radius.
    public static func placeName(_ place: StructuredLocation) -> String {
        place.title.isEmpty ? "\(GeoPoint(place)) (\(Int(place.radius.rounded())) m)" : place.title
    }
}

/// The successive firings of one alarm.
struct FiringSource {
    let alarm: Alarm
    /// What every firing of the alarm says (item, title, location, notes):
    /// each firing is this with its instant, occurrence and explanation.
    let template: Firing
    let offset: Int64
    let workdays: WorkdayCalendar?
    private var once: Int64?
    private var iterator: AnyIterator<Occurrence>?
    /// A snooze made on another device, until it is handed out.
    private var snoozed: Candidate?
    /// The scheduled candidate read past while handing out `snoozed`.
    private var held: Candidate?
    private let detached: Set<LocalDateTime>
    /// The last occurrence handed out, for explaining the days passed over;
    /// nil before the first.
    private var previous: Int64?
    /// The day the series starts: nothing before it was passed over.
    private let firstDay: CivilDate?

    init?(alarm: Alarm, item about: Firing, occurrences: Occurrences.Source?, detached: Set<LocalDateTime>, workdays: WorkdayCalendar?,
          after instant: Int64, firstDay: CivilDate? = nil) {
        // Firings up to an acknowledgement (here or on another device) were answered.
        let instant = max(instant, alarm.acknowledged.map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .min)
        self.alarm = alarm
        var template = about
        template.alarm = alarm
        self.template = template
        self.detached = detached
        self.workdays = workdays
        self.firstDay = firstDay
        let snoozed = Self.snoozedElsewhere(alarm, occurrences: occurrences, after: instant)
        switch alarm.trigger {
        case .proximity:
            return nil
        case .absolute(let date):
            let at = Int64(date.timeIntervalSince1970.rounded(.down))
            guard at > instant || snoozed != nil else { return nil }
            once = at > instant ? at : nil
            offset = 0
        case .relative(let seconds):
            offset = Int64(seconds)
            switch occurrences {
            case nil:
                return nil
            case .single(let occurrence):
                if occurrence.instant + offset > instant {
                    iterator = AnyIterator([occurrence].makeIterator())
                } else if snoozed == nil {
                    return nil
                }
            case .recurrence(let recurrence):
                iterator = AnyIterator(recurrence.occurrences(after: instant - offset).makeIterator())
            }
        }
        self.snoozed = snoozed
    }

    /// The firing a snooze made on another device brings back (Thunderbird's
    /// X-MOZ-SNOOZE-TIME), under the key of the occurrence it was of, when
    /// it rings after `instant` (which is past the alarm's acknowledgement).
    private static func snoozedElsewhere(_ alarm: Alarm, occurrences: Occurrences.Source?, after instant: Int64) -> Candidate? {
        guard let snooze = alarm.snoozedElsewhere else { return nil }
        let until = Int64(snooze.until.timeIntervalSince1970.rounded(.down))
        guard until > instant else { return nil }
        var occurrence: Occurrence?
        switch (alarm.trigger, occurrences) {
        case (.absolute, _):
            break
        case (.relative, .single(let only)?):
            occurrence = only
        case (.relative, .recurrence(let recurrence)?):
            guard let start = snooze.occurrence.map({ Int64($0.timeIntervalSince1970.rounded(.down)) }) else { return nil }
            // The occurrence that starts then, or none: a snooze of one the series no longer has rings nothing.
            var after = recurrence.occurrences(after: start - 1).makeIterator()
            guard let found = after.next(), found.instant == start else { return nil }
            occurrence = found
        default:
            return nil
        }
        let key = FiringKey(alarm: alarm.identifier, occurrence: occurrence.map { .scheduled($0.scheduledTime.localSeconds) } ?? .once)
        return Candidate(instant: until, occurrence: occurrence, snoozedFrom: key)
    }

    /// A firing to come, before it is made into a `Firing`: its instant is
    /// all that planning reads, and the explanation is built only for
    /// firings that are due or listed (`firing(_:)`).
    struct Candidate {
        var instant: Int64
        var occurrence: Occurrence?
        /// The occurrence handed out before it, which the explanation counts from.
        var previous: Int64?
        /// For a snooze made on another device: the firing it brings back.
        var snoozedFrom: FiringKey?
    }

    /// The next firing's instant and occurrence, or nil when there are no more:
    /// the scheduled ones, with a snooze made elsewhere in its place among them.
    mutating func nextCandidate() -> Candidate? {
        let scheduled = held ?? nextScheduled()
        held = nil
        if let snooze = snoozed, scheduled.map({ snooze.instant <= $0.instant }) ?? true {
            snoozed = nil
            held = scheduled
            return snooze
        }
        return scheduled
    }

    private mutating func nextScheduled() -> Candidate? {
        if let at = once {
            once = nil
            return Candidate(instant: at)
        }
        // Detached occurrences ring through their own item; a bound keeps
        // a series detached everywhere from spinning.
        var passed = 0
        while passed < 10_000, let occurrence = iterator?.next() {
            passed += 1
            if !detached.isEmpty && detached.contains(occurrence.scheduledTime) { continue }
            defer { previous = occurrence.instant }
            return Candidate(instant: occurrence.instant + offset, occurrence: occurrence, previous: previous)
        }
        return nil
    }

    /// The next firing, or nil when there are no more.
    mutating func next() -> Firing? { nextCandidate().map(firing) }

    /// The whole firing of a candidate, with its explanation.
    func firing(_ candidate: Candidate) -> Firing {
        var firing = template
        firing.instant = candidate.instant
        firing.occurrence = candidate.occurrence
        if let root = candidate.snoozedFrom {
            firing.snoozedFrom = root
            firing.explanation = "snoozed on another device"
        } else if let occurrence = candidate.occurrence {
            // Why that day: its Chinese date for a rule counted in that calendar, the workday's reasons for a workday rule.
            let lunar = template.countsInChineseCalendar ? ChineseCalendar.date(of: occurrence.scheduledTime.date).map(\.lunarMonthAndDay) : nil
            let why = [lunar, explain(occurrence, after: candidate.previous)].compactMap { $0 }
            firing.explanation = why.isEmpty ? nil : why.joined(separator: "; ")
        }
        return firing
    }

    /// For a workday rule: the day's reason, the move, and the days off
    /// passed over since the previous firing of this alarm (`previous`).
    private func explain(_ occurrence: Occurrence, after previous: Int64?) -> String? {
        guard let workdays else { return nil }
        let day = occurrence.day
        var parts: [String] = []
        let answer = workdays.answer(on: day)
        // Days are judged as the engine judged this occurrence: in the half
        // of the day it was scheduled in, an all-day one by the whole day.
        let half = workdays.half(of: occurrence.scheduledTime)
        let worked = { (date: CivilDate) in occurrence.isAllDay ? workdays.isWorkday(date) : workdays.isWorkday(date, in: half) }
        // A day named by the person or a makeup notice says so; an ordinary workday is just that.
        switch answer.reason {
        case .work: parts.append("\(answer.reason)")
        case .leave(_, half: _?) where answer.isWorkday: parts.append("workday (\(answer.reason))")
        default: parts.append(answer.isMakeupWorkday ? "\(answer.reason)" : answer.isWorkday ? "workday" : "day off (\(answer.reason))")
        }
        if occurrence.daysMoved != 0 {
            let from = occurrence.scheduledTime.date
            parts.append("moved from \(Self.short(from)) (\(workdays.answer(on: from).reason))")
        }
        // Days off between the previous occurrence and this one.
        var offDays: [CivilDate] = []
        if let previous {
            // The day after the previous one, on the occurrence's own wall clock.
            let local = previous + Int64(occurrence.utcOffset)
            let since = Int((local >= 0 ? local : local - 86_399) / 86_400) + 1
            if since < day.dayNumber {
                offDays = (since..<day.dayNumber).map(CivilDate.init(dayNumber:)).filter { !worked($0) }
            }
        } else {
            // The first firing planned: the previous occurrence is not at hand,
            // so the days off just before this one, back to the series' start
            // (the query's instant says nothing about what was skipped).
            var back = day.dayNumber - 1
            while day.dayNumber - back < 370, back >= firstDay?.dayNumber ?? .min,
                  !worked(CivilDate(dayNumber: back)) {
                offDays.insert(CivilDate(dayNumber: back), at: 0)
                back -= 1
            }
        }
        if let first = offDays.first, let last = offDays.last, offDays.count < 370 {
            // A holiday's name, or the leave's, says more than "weekend".
            let reason = offDays.map { workdays.answer(on: $0).reason }.first { $0 != .weekend }
            let range = first == last ? Self.short(first) : "\(Self.short(first))…\(Self.short(last))"
            parts.append("skipped \(range) (\(reason.map { "\($0)" } ?? "weekend"))")
        }
        if let missing = workdays.answer(on: day).missingYear { parts.append("no holiday data for \(missing): ordinary week") }
        return parts.joined(separator: "; ")
    }

    static func short(_ date: CivilDate) -> String {
        (date.month < 10 ? "0" : "") + "\(date.month)-" + (date.day < 10 ? "0" : "") + "\(date.day)"
    }
}

extension Occurrences {
    /// Where a planner takes an item's occurrences from: its recurrence, or
    /// the one occurrence of an item that does not repeat.
    enum Source {
        case recurrence(Recurrence)
        case single(Occurrence)
    }
}
