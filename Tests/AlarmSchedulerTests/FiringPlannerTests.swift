import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Testing

/// Planning with a fixed reference instant on a real store file.
@Suite("FiringPlanner: the coming firings of every alarm")
struct FiringPlannerTests {
    final class Fixture {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-plan-\(UUID().uuidString)").path
        let store: CalendarStore
        let calendar: ItemIdentifier
        init(now: Date = Date(timeIntervalSince1970: 0)) throws {
            store = try CalendarStore(path: folder + "/chime.db", machineTimeZone: try TimeZoneRules.named("Asia/Shanghai"), now: { now })
            calendar = try store.defaultCalendarForNewEvents().identifier
        }
        deinit { try? FileManager.default.removeItem(atPath: folder) }

        func zoned(_ text: String, _ zone: String = "Asia/Shanghai") -> ItemTime { .zoned(LocalDateTime(parsing: text)!, zone: zone) }

        func firings(after rfc3339: String, count: Int = 20) throws -> [Firing] {
            try FiringPlanner(store: store).firings(after: Int64(RFC3339.instant(rfc3339)!), count: count)
        }
    }

    /// Firings as `RFC 3339 title` in a zone, the way a person reads them.
    func readable(_ firings: [Firing], _ zone: String = "Asia/Shanghai") throws -> [String] {
        let rules = try TimeZoneRules.named(zone)
        return firings.map { firing in
            let local = rules.localTime(at: firing.instant)
            return "\(local) \(firing.title)"
        }
    }

    @Test("a relative alarm on a daily event in New York keeps its wall-clock time across the spring-forward night")
    func daylightSaving() throws {
        let fixture = try Fixture()
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Walk",
                                     start: fixture.zoned("2026-03-06T08:00:00", "America/New_York"),
                                     end: fixture.zoned("2026-03-06T08:30:00", "America/New_York"),
                                     recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: -900))]))
        let firings = try fixture.firings(after: "2026-03-06T00:00:00-05:00", count: 4)
        #expect(try readable(firings, "America/New_York") == [
            "2026-03-06T07:45:00 Walk", "2026-03-07T07:45:00 Walk",
            "2026-03-08T07:45:00 Walk",  // 2026-03-08 is the first day of EDT
            "2026-03-09T07:45:00 Walk",
        ])
        // 23 hours between the two around the change.
        #expect(firings[2].instant - firings[1].instant == 23 * 3600)
    }

    @Test("a reminder on a Chinese-calendar rule rings on its Chinese date each year (农历三月初八: 2027-04-14, 2028-04-02), its firings marked so that the notification names the date; others are not marked")
    func chineseCalendarRule() throws {
        let fixture = try Fixture()
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "妈妈生日", due: fixture.zoned("2027-04-14T09:00:00"),
                                        recurrenceRule: try RecurrenceRule(rfc5545: "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
                                        alarms: [Alarm(trigger: .relative(seconds: 0))]))
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Rent", due: fixture.zoned("2027-04-01T09:00:00"),
                                        recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=YEARLY"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let firings = try fixture.firings(after: "2027-01-01T00:00:00+08:00", count: 4)
        #expect(try readable(firings) == ["2027-04-01T09:00:00 Rent", "2027-04-14T09:00:00 妈妈生日", "2028-04-01T09:00:00 Rent",
                                          "2028-04-02T09:00:00 妈妈生日"])
        #expect(firings.map(\.countsInChineseCalendar) == [false, true, false, true])
        // Why that day: the Chinese date it falls on (农历三月初八 both years), for `chime next` and the daemon's answer.
        #expect(firings.map(\.explanation) == [nil, "农历三月初八", nil, "农历三月初八"])
    }

    @Test("a firing carries its item's location and notes, a reminder's as an event's, for the notification's body")
    func locationAndNotes() throws {
        let fixture = try Fixture()
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Pick up the parcel", notes: "bring ID",
                                        location: "Post office, 中山路", due: fixture.zoned("2026-12-08T17:00:00"),
                                        alarms: [Alarm(trigger: .relative(seconds: 0))]))
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Dentist", location: "Clinic", notes: "no coffee",
                                     start: fixture.zoned("2026-12-09T09:00:00"), end: fixture.zoned("2026-12-09T09:30:00"),
                                     alarms: [Alarm(trigger: .relative(seconds: -600))]))
        let firings = try fixture.firings(after: "2026-12-08T00:00:00+08:00", count: 2)
        #expect(firings.map { "\($0.title): \($0.location) / \($0.notes)" } == [
            "Pick up the parcel: Post office, 中山路 / bring ID", "Dentist: Clinic / no coffee",
        ])
    }

    @Test("firings due at or before an alarm's acknowledgement (another device's dismissal) are not planned; later ones are")
    func acknowledged() throws {
        let fixture = try Fixture()
        // Answered at 2026-12-03T09:00:00+08:00: the 8:50 firings of 12-01, 12-02 and 12-03 were answered.
        let answered = Date(timeIntervalSince1970: RFC3339.instant("2026-12-03T09:00:00+08:00")!)
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                                     end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=5"),
                                     alarms: [Alarm(trigger: .relative(seconds: -600), acknowledged: answered),
                                              Alarm(trigger: .absolute(answered.addingTimeInterval(-60)), acknowledged: answered)]))
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00"))
                == ["2026-12-04T08:50:00 Stand-up", "2026-12-05T08:50:00 Stand-up"])
    }

    @Test("a snooze made on another device rings once more at its time, in place among the alarm's firings, under the occurrence's key")
    func snoozedElsewhere() throws {
        let fixture = try Fixture()
        // Answered at 08:52 on 2026-12-02 and snoozed to 09:20: 12-02's 08:50 firing comes back at 09:20, nothing else moves.
        let answered = Date(timeIntervalSince1970: RFC3339.instant("2026-12-02T08:52:00+08:00")!)
        let secondStart = Date(timeIntervalSince1970: RFC3339.instant("2026-12-02T09:00:00+08:00")!)
        let until = Date(timeIntervalSince1970: RFC3339.instant("2026-12-02T09:20:00+08:00")!)
        let alarm = Alarm(trigger: .relative(seconds: -600), acknowledged: answered,
                          snoozedElsewhere: .init(occurrence: secondStart, until: until))
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                                     end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=4"),
                                     alarms: [alarm]))
        let firings = try fixture.firings(after: "2026-12-02T08:52:00+08:00")
        #expect(try readable(firings) == ["2026-12-02T09:20:00 Stand-up", "2026-12-03T08:50:00 Stand-up", "2026-12-04T08:50:00 Stand-up"])
        // The key of 12-02's firing (local 2026-12-02T09:00:00, 1796202000 as local seconds) snoozed until 09:20 (1796174400, 2026-12-02T01:20:00Z).
        #expect(firings.first?.key == "\(alarm.identifier)@1796202000~1796174400")
        #expect(firings.first?.explanation == "snoozed on another device")
        // Once past, or answered after it, it is gone.
        #expect(try readable(try fixture.firings(after: "2026-12-02T09:20:00+08:00", count: 1)) == ["2026-12-03T08:50:00 Stand-up"])
        // A snooze of an occurrence the series does not have (09:30 is none of its starts) rings nothing.
        let stray = Alarm(trigger: .relative(seconds: -600), snoozedElsewhere: .init(occurrence: secondStart.addingTimeInterval(1800), until: until))
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Retro", start: fixture.zoned("2026-12-01T09:00:00"),
                                     end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=4"),
                                     alarms: [stray]))
        #expect(try readable(try fixture.firings(after: "2026-12-02T08:52:00+08:00")).filter { $0.hasSuffix("Retro") }
                == ["2026-12-03T08:50:00 Retro", "2026-12-04T08:50:00 Retro"])
    }

    @Test("a snooze made elsewhere brings back an absolute alarm already past, and one answered after it rings nothing")
    func snoozedElsewhereAbsolute() throws {
        let fixture = try Fixture()
        let at = Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T07:00:00+08:00")!)
        let until = at.addingTimeInterval(900) // 2026-12-01T07:15:00+08:00
        let pending = Alarm(trigger: .absolute(at), acknowledged: at.addingTimeInterval(60), snoozedElsewhere: .init(until: until))
        let answered = Alarm(trigger: .absolute(at), acknowledged: until.addingTimeInterval(60), snoozedElsewhere: .init(until: until))
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Pills", alarms: [pending]))
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Answered", alarms: [answered]))
        let firings = try fixture.firings(after: "2026-12-01T07:05:00+08:00")
        #expect(try readable(firings) == ["2026-12-01T07:15:00 Pills"])
        #expect(firings.first?.key == "\(pending.identifier)@once~1796080500")
    }

    @Test("an absolute alarm rings once and not when past; a location alarm is not planned")
    func absoluteAndLocation() throws {
        let fixture = try Fixture()
        let at = Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T07:00:00+08:00")!)
        let place = try StructuredLocation(title: "Office", latitude: 31.23, longitude: 121.47, radius: 150)
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                                     end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"),
                                     alarms: [Alarm(trigger: .absolute(at)), Alarm(trigger: .proximity(place, .enter))]))
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00")) == ["2026-12-01T07:00:00 Stand-up"])
        #expect(try fixture.firings(after: "2026-12-01T07:00:00+08:00").isEmpty)
    }

    @Test("a repeating reminder rings for every occurrence with nobody completing it; completing one moves its due time, and a completed reminder is silent")
    func reminders() throws {
        let fixture = try Fixture(now: Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T09:00:00+08:00")!))
        let water = Reminder(calendarIdentifier: fixture.calendar, title: "Water plants", due: fixture.zoned("2026-12-01T18:00:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: -300))])
        try fixture.store.save(water)
        // 2026-12-01 … 12-03, none of them completed.
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00", count: 3)) == [
            "2026-12-01T17:55:00 Water plants", "2026-12-02T17:55:00 Water plants", "2026-12-03T17:55:00 Water plants",
        ])
        // Long after the due time, still ringing: 2027-03-01 is ninety days on.
        #expect(try readable(try fixture.firings(after: "2027-03-01T00:00:00+08:00", count: 1)) == ["2027-03-01T17:55:00 Water plants"])
        try fixture.store.complete(water.identifier)
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00", count: 1)) == ["2026-12-02T17:55:00 Water plants"])
        var once = Reminder(calendarIdentifier: fixture.calendar, title: "Call back", due: fixture.zoned("2026-12-01T12:00:00"),
                            alarms: [Alarm(trigger: .relative(seconds: 0))])
        try fixture.store.save(once)
        once.isCompleted = true
        try fixture.store.save(once)
        #expect(try readable(try fixture.firings(after: "2026-12-01T09:00:00+08:00", count: 1)) == ["2026-12-02T17:55:00 Water plants"])
    }

    /// The days of (`from`, `through`] the store's workday calendar counts as workdays, at 08:50 in Shanghai.
    static func workdaysAt0850(_ store: CalendarStore, from: CivilDate, through: CivilDate) throws -> [String] {
        let calendar = try store.workdayCalendar(region: "cn")
        return (from.dayNumber...through.dayNumber).map(CivilDate.init(dayNumber:)).filter { calendar.isWorkday($0) }
            .map { "\(LocalDateTime(date: $0, hour: 8, minute: 50, second: 0)!) Clock in" }
    }

    @Test("the clock-in reminder rings on every workday for a year with nobody completing it: through the National Day week and on its makeup Saturday")
    func clockInYear() throws {
        // Saved on Monday 2026-09-28, 07:00 in Shanghai.
        let fixture = try Fixture(now: Date(timeIntervalSince1970: RFC3339.instant("2026-09-28T07:00:00+08:00")!))
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Clock in", due: fixture.zoned("2026-09-28T08:50:00"),
                                        recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                        alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let firings = try fixture.firings(after: "2026-09-28T07:00:00+08:00", count: 400)
        let lines = try readable(firings)
        // 10-01…10-07 (2026) are the National Day days off, 10-10 (a Saturday) its makeup workday.
        #expect(Array(lines.prefix(7)) == [
            "2026-09-28T08:50:00 Clock in", "2026-09-29T08:50:00 Clock in", "2026-09-30T08:50:00 Clock in",
            "2026-10-08T08:50:00 Clock in", "2026-10-09T08:50:00 Clock in", "2026-10-10T08:50:00 Clock in",
            "2026-10-12T08:50:00 Clock in",
        ])
        // A year on, exactly the calendar's workdays rang, each once.
        let yearOn = "2027-09-27T08:50:00 Clock in"
        let firstYear = Array(lines.prefix { $0 <= yearOn })
        #expect(firstYear == (try Self.workdaysAt0850(fixture.store, from: CivilDate(year: 2026, month: 9, day: 28)!,
                                                        through: CivilDate(year: 2027, month: 9, day: 27)!)))
        #expect(firstYear.count > 240)
        #expect(Set(firings.map(\.key)).count == firings.count)
    }

    @Test("the first firing listed explains the days skipped since the occurrence before it, not since the query")
    func firstExplanation() throws {
        let fixture = try Fixture(now: Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T07:00:00+08:00")!))
        try fixture.store.save(Reminder(calendarIdentifier: fixture.calendar, title: "Clock in", due: fixture.zoned("2026-12-02T08:50:00"),
                                        recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                        alarms: [Alarm(trigger: .relative(seconds: 0))]))
        // Asked from 2026-09-24: the series starts 12-02, so nothing before it was skipped.
        let early = try fixture.firings(after: "2026-09-24T00:00:00+08:00", count: 1)
        #expect(try readable(early) == ["2026-12-02T08:50:00 Clock in"])
        #expect(early.first?.explanation == "workday")
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-09-28T09:30:00"),
                                     end: fixture.zoned("2026-09-28T09:45:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                     alarms: [Alarm(trigger: .relative(seconds: 0))]))
        // Asked from 2026-10-05, in the break: the occurrence before 10-08 was 09-30.
        let inBreak = try fixture.firings(after: "2026-10-05T12:00:00+08:00", count: 2)
        #expect(try readable(inBreak) == ["2026-10-08T09:30:00 Stand-up", "2026-10-09T09:30:00 Stand-up"])
        #expect(inBreak.map(\.explanation) == ["workday; skipped 10-01…10-07 (国庆节)", "workday"])
    }

    @Test("a snoozed location firing keeps its crossing: it still says where it was left, and when")
    func snoozedLocation() throws {
        let fixture = try Fixture()
        let office = try StructuredLocation(title: "Office", latitude: 31.2304, longitude: 121.4737, radius: 150)
        let alarm = Alarm(trigger: .proximity(office, .leave))
        let reminder = Reminder(calendarIdentifier: fixture.calendar, title: "Buy milk", alarms: [alarm])
        try fixture.store.save(reminder)
        // Left the office at 2026-12-01T17:32:00+08:00, shown, then snoozed ten minutes.
        let left = Int64(RFC3339.instant("2026-12-01T17:32:00+08:00")!)
        let key = alarm.identifier.rawValue + "@leave@" + String(left)
        try AlarmLedger(store: fixture.store).record([AlarmLedger.Delivery(key: try #require(FiringKey(key)), alarm: alarm.identifier, item: reminder.identifier, title: "Buy milk",
                                                         due: left, outcome: .delivered, recordedAt: left)])
        _ = try AlarmLedger(store: fixture.store).snooze(key, until: left + 600)
        let snoozed = try #require(try fixture.firings(after: "2026-12-01T17:33:00+08:00").first)
        #expect(snoozed.instant == left + 600)
        #expect(snoozed.key == key + "~" + String(left + 600))
        #expect(snoozed.crossing == "leave@" + String(left))
        #expect(snoozed.crossingInstant == left)
        #expect(snoozed.explanation == "left Office")
    }

    @Test("a detached occurrence rings through its own item at its new time, and the series skips it")
    func detached() throws {
        let fixture = try Fixture()
        let series = Event(calendarIdentifier: fixture.calendar, title: "Stand-up", start: fixture.zoned("2026-12-01T09:00:00"),
                           end: fixture.zoned("2026-12-01T09:15:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=3"),
                           alarms: [Alarm(trigger: .relative(seconds: -600))])
        try fixture.store.save(series)
        var moved = try fixture.store.occurrence(of: series.identifier, originalStart: LocalDateTime(parsing: "2026-12-02T09:00:00")!)
        moved.start = fixture.zoned("2026-12-02T11:00:00")
        moved.end = fixture.zoned("2026-12-02T11:15:00")
        moved.title = "Stand-up (late)"
        try fixture.store.save(moved, span: .thisEvent)
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00")) == [
            "2026-12-01T08:50:00 Stand-up", "2026-12-02T10:50:00 Stand-up (late)", "2026-12-03T08:50:00 Stand-up",
        ])
    }

    @Test("an all-day event's relative alarm counts from the local midnight of its day")
    func allDay() throws {
        let fixture = try Fixture()
        let day = CivilDate(year: 2026, month: 12, day: 24)!
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Christmas Eve", start: .date(day), end: .date(day),
                                     recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=YEARLY"),
                                     alarms: [Alarm(trigger: .relative(seconds: -3600 * 3))]))
        #expect(try readable(try fixture.firings(after: "2026-12-01T00:00:00+08:00", count: 2)) == [
            "2026-12-23T21:00:00 Christmas Eve", "2027-12-23T21:00:00 Christmas Eve",
        ])
    }

    @Test("a workday series says why each day rings: the makeup Saturday, the break passed over")
    func workdayExplanations() throws {
        let fixture = try Fixture()
        try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: "Clock in", start: fixture.zoned("2026-09-30T08:50:00"),
                                     end: fixture.zoned("2026-09-30T08:50:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                     alarms: [Alarm(trigger: .relative(seconds: 0))]))
        let firings = try fixture.firings(after: "2026-09-30T12:00:00+08:00", count: 3)
        #expect(try readable(firings) == ["2026-10-08T08:50:00 Clock in", "2026-10-09T08:50:00 Clock in", "2026-10-10T08:50:00 Clock in"])
        #expect(firings.map(\.explanation) == ["workday; skipped 10-01…10-07 (国庆节)", "workday", "makeup workday for 国庆节"])
        // The key names the alarm and the occurrence, so each rings once.
        #expect(Set(firings.map(\.key)).count == 3)
    }

    @Test("firings of many alarms come merged in order, and the count is honoured")
    func merged() throws {
        let fixture = try Fixture()
        for (title, time) in [("B", "2026-12-01T09:00:00"), ("A", "2026-12-01T08:00:00"), ("C", "2026-12-01T10:00:00")] {
            try fixture.store.save(Event(calendarIdentifier: fixture.calendar, title: title, start: fixture.zoned(time), end: fixture.zoned(time),
                                         recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), alarms: [Alarm(trigger: .relative(seconds: 0))]))
        }
        let firings = try fixture.firings(after: "2026-12-01T00:00:00+08:00", count: 7)
        #expect(firings.map(\.title) == ["A", "B", "C", "A", "B", "C", "A"])
        #expect(firings == firings.sorted())
    }
}
