@testable import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars
import SeededRandom
import TestSupport
import Testing

/// The daemon's standing plan: each item's next firing, kept up to date from
/// the store's change log rather than made again.
@Suite("The standing plan")
struct StandingPlanTests {
    let temporary = TemporaryFolder("chime-standing", create: false)
    var folder: String { temporary.path }

    /// What a plan must hold: every item's first firing after `instant`,
    /// found by asking the planner about every item with alarms, none left out.
    func everyItem(_ store: CalendarStore, after instant: Int64) throws -> [ItemIdentifier: Int64] {
        var result: [ItemIdentifier: Int64] = [:]
        let planner = FiringPlanner(store: store)
        try store.forEachAlarmedItem { item throws(StoreError) in
            if let first = try planner.firstInstant(of: item, after: instant) { result[item.identifier] = first }
        }
        return result
    }

    @Test("replaced and removed entries never come due; due items come out in order, once")
    func heapWithStaleEntries() {
        var plan = StandingPlan()
        let a = ItemIdentifier.random(), b = ItemIdentifier.random(), c = ItemIdentifier.random()
        plan.set(a, next: 100)
        plan.set(b, next: 50)
        plan.set(c, next: 70)
        plan.set(b, next: 300)      // moved later
        plan.remove(c)
        plan.set(a, next: nil)      // nothing more to come
        #expect(plan.earliest() == 300)
        #expect(plan.takeDue(through: 299) == [])
        #expect(plan.takeDue(through: 300) == [b])
        #expect(plan.takeDue(through: 1000) == [])
        #expect(plan.count == 0)
        // Thousands of changes to the same items keep the heap compact and correct.
        for round in 0..<5000 { plan.set(a, next: Int64(10_000 - round)) }
        #expect(plan.earliest() == 5001)
        #expect(plan.takeDue(through: .max) == [a])
    }

    @Test("kept up to date from the change log, the plan equals a plan made from scratch, through 150 random changes")
    func incrementalEqualsFull() throws {
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: zone)
        let events = try store.defaultCalendarForNewEvents().identifier
        let after = Int64(RFC3339.instant("2026-12-01T00:00:00+08:00")!)   // 2026-11-30T16:00:00Z
        var random = SplitMix64(seed: 0xC41E_2026)
        var plan = try StandingPlan.make(from: store, after: after)
        var eventIDs: [ItemIdentifier] = [], reminderIDs: [ItemIdentifier] = []
        let rules = ["FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=DAILY;COUNT=5", "FREQ=MONTHLY;BYMONTHDAY=1", "FREQ=DAILY;X-WORKDAY=SKIP"]

        func randomTime() -> LocalDateTime {
            zone.localTime(at: after + random.int64(-90 * 86_400...90 * 86_400) / 60 * 60)
        }
        func randomAlarm() -> Alarm {
            switch random.int(0...3) {
            case 0: Alarm(trigger: .absolute(Date(timeIntervalSince1970: TimeInterval(after + random.int64(-30 * 86_400...30 * 86_400)))))
            case 1: Alarm(trigger: .relative(seconds: random.int(10...20) * 86_400))      // long after the start
            default: Alarm(trigger: .relative(seconds: -random.int(0...7200)))
            }
        }
        func randomEvent(_ identifier: ItemIdentifier? = nil) throws -> Event {
            let start = randomTime()
            var event = Event(calendarIdentifier: events, title: "E", start: .zoned(start, zone: zone.identifier),
                              end: .zoned(LocalDateTime(localSeconds: start.localSeconds + 1800), zone: zone.identifier),
                              alarms: (0..<random.int(0...2)).map { _ in randomAlarm() })
            if let identifier { event.identifier = identifier }
            if random.chance(0.4) { event.recurrenceRule = try RecurrenceRule(rfc5545: random.element(rules)) }
            return event
        }

        for step in 0..<150 {
            switch random.int(0...9) {
            case 0...2:
                let event = try randomEvent()
                try store.save(event)
                eventIDs.append(event.identifier)
            case 3:
                var reminder = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "R",
                                        due: .zoned(randomTime(), zone: zone.identifier), alarms: [randomAlarm()])
                if random.chance(0.3) { reminder.recurrenceRule = try RecurrenceRule(rfc5545: "FREQ=DAILY") }
                try store.save(reminder)
                reminderIDs.append(reminder.identifier)
            case 4 where !eventIDs.isEmpty:
                // An edit: new times, new alarms.
                let identifier = random.element(eventIDs)
                if let current = try? store.event(identifier: identifier), current.seriesIdentifier == nil {
                    var edited = try randomEvent(identifier)
                    edited.calendarIdentifier = current.calendarIdentifier
                    try store.save(edited, span: .futureEvents)
                }
            case 5 where !eventIDs.isEmpty:
                let identifier = eventIDs.remove(at: random.int(0...(eventIDs.count - 1)))
                if let event = try? store.event(identifier: identifier) { try store.remove(event, span: .futureEvents) }
            case 6 where !reminderIDs.isEmpty:
                try store.complete(random.element(reminderIDs))
            case 7 where !eventIDs.isEmpty:
                // One occurrence of a series moved on its own, or taken out.
                let identifier = random.element(eventIDs)
                let window = Date(timeIntervalSince1970: TimeInterval(after - 100 * 86_400))..<Date(timeIntervalSince1970: TimeInterval(after + 100 * 86_400))
                if let series = try? store.event(identifier: identifier), series.recurrenceRule != nil,
                   let occurrence = try store.events(overlapping: window)
                       .filter({ $0.identifier == identifier && $0.originalStart != nil }).dropFirst(2).first {
                    if random.chance(0.5) {
                        var moved = occurrence
                        moved.start = .zoned(LocalDateTime(localSeconds: occurrence.start.wallClock.localSeconds + 3600), zone: zone.identifier)
                        moved.end = moved.start
                        moved.alarms = [randomAlarm()]
                        eventIDs.append(try store.save(moved, span: .thisEvent))
                    } else {
                        try store.remove(occurrence, span: .thisEvent)
                    }
                }
            case 8:
                // A change with no alarms in it still goes through the log.
                let start = ItemTime.zoned(randomTime(), zone: zone.identifier)
                try store.save(Event(calendarIdentifier: events, title: "Quiet", start: start, end: start))
            default:
                if random.chance(0.2) {
                    try store.setOrdinaryWeek(random.chance(0.5) ? OrdinaryWeek()
                                              : OrdinaryWeek(workingDays: [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday]))
                } else if random.chance(0.25) {
                    // Days of leave or of work added or taken away move the workday rules' firings.
                    let first = zone.localTime(at: after + Int64(random.int(0...60)) * 86_400).date
                    let days = first...first.adding(days: random.int(0...4))
                    let kind: PersonalDay.Kind = random.chance(0.5) ? .leave : .work
                    if random.chance(0.6) { try store.addPersonalDays(days, kind: kind) } else { try store.removePersonalDays(days, kind: kind) }
                }
            }
            try plan.update(from: store, after: after)
            let expected = try everyItem(store, after: after)
            #expect(plan.entries == expected, "step \(step)")
            #expect(try StandingPlan.make(from: store, after: after).entries == expected, "step \(step)")
        }
        #expect(plan.count > 10)
    }

    @Test("a change the log no longer holds makes the plan start over instead of missing it")
    func prunedLog() throws {
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: zone)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let after = Int64(RFC3339.instant("2026-12-01T00:00:00+08:00")!)
        var plan = try StandingPlan.make(from: store, after: after)
        let due = zone.localTime(at: after + 3600)
        let first = Reminder(calendarIdentifier: calendar, title: "First", due: .zoned(due, zone: zone.identifier),
                             alarms: [Alarm(trigger: .relative(seconds: 0))])
        try store.save(first)
        for index in 0..<20_010 { try store.save(Reminder(calendarIdentifier: calendar, title: "Bulk \(index)"), commit: false) }
        try store.commit()
        try plan.update(from: store, after: after)
        #expect(plan.entries == [first.identifier: after + 3600])
    }

    @Test("wake after wake on the daemon's planning path, the clock-in reminder rings on every workday for a year with nobody completing it, through the National Day week and on its makeup Saturday")
    func clockInEveryWorkday() throws {
        let zone = try TimeZoneRules.named("Asia/Shanghai")
        // Saved on Monday 2026-09-28, 07:00 in Shanghai, as `chime add reminder 'Clock in' --due 08:50 --repeat workdays --alarm 0`.
        let start = Int64(RFC3339.instant("2026-09-28T07:00:00+08:00")!)
        let store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: zone, now: { Date(timeIntervalSince1970: TimeInterval(start)) })
        try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Clock in",
                                due: .zoned(LocalDateTime(parsing: "2026-09-28T08:50:00")!, zone: "Asia/Shanghai"),
                                recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                alarms: [Alarm(trigger: .relative(seconds: 0))]))
        // What Daemon.settle does at each wake, the timer set for the plan's earliest instant.
        let end = Int64(RFC3339.instant("2027-09-28T00:00:00+08:00")!)
        var settled = start
        var plan = try StandingPlan.make(from: store, after: settled)
        let ledger = try AlarmLedger(store: store)
        var shown: [String] = []
        for _ in 0..<1000 {
            guard let now = plan.earliest(), now < end else { break }
            try plan.update(from: store, after: settled)
            let sorted = try CatchUp.settle(&plan, store: store, ledger: ledger, settled: settled, now: now, window: CatchUp.defaultWindow)
            settled = now
            #expect(sorted.missed.isEmpty)
            try ledger.record(sorted.late.map { AlarmLedger.Delivery($0, outcome: .delivered, at: now) })
            shown += sorted.late.map { "\(zone.localTime(at: $0.instant))" }
        }
        // 10-01…10-07 (2026) are the National Day days off, 10-10 (a Saturday) its makeup workday.
        #expect(Array(shown.prefix(11)) == [
            "2026-09-28T08:50:00", "2026-09-29T08:50:00", "2026-09-30T08:50:00",
            "2026-10-08T08:50:00", "2026-10-09T08:50:00", "2026-10-10T08:50:00",
            "2026-10-12T08:50:00", "2026-10-13T08:50:00", "2026-10-14T08:50:00", "2026-10-15T08:50:00", "2026-10-16T08:50:00",
        ])
        let calendar = try store.workdayCalendar(region: "cn")
        let workdays = (CivilDate(year: 2026, month: 9, day: 28)!.dayNumber...CivilDate(year: 2027, month: 9, day: 27)!.dayNumber)
            .map(CivilDate.init(dayNumber:)).filter { calendar.isWorkday($0) }
        #expect(shown == workdays.map { "\(LocalDateTime(date: $0, hour: 8, minute: 50, second: 0)!)" })
        #expect(shown.count > 240)
    }
}
