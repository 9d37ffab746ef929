import CalendarModel
import CalendarStore
import Foundation
import HolidayCalendars
import TestSupport
import Testing

/// Workday rules in the store: expanded against the store's workday
/// calendar (bundled years, imported ones in their place, the ordinary week).
@Suite("Workday rules in the store")
struct WorkdayStoreTests {
    func starts(_ events: [Event]) -> [String] { events.map { $0.start.wallClock.description } }

    @Test("an every-workday event skips the National Day days off and rings on the makeup Saturday")
    func nationalDay2026() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let start = try StoreFixture.zoned("2026-09-24T08:50:00")
        let end = try StoreFixture.zoned("2026-09-24T09:00:00")
        try store.save(Event(calendarIdentifier: calendar, title: "Clock in", start: start, end: end,
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        let range = try StoreFixture.date("2026-09-24T00:00:00+08:00")..<StoreFixture.date("2026-10-13T00:00:00+08:00")
        #expect(starts(try store.events(overlapping: range)) == [
            "2026-09-24T08:50:00",  // Thu
            // 09-25..09-27 中秋节
            "2026-09-28T08:50:00", "2026-09-29T08:50:00", "2026-09-30T08:50:00",
            // 10-01..10-07 国庆节
            "2026-10-08T08:50:00", "2026-10-09T08:50:00",
            "2026-10-10T08:50:00",  // Sat, makeup workday for 国庆节
            "2026-10-12T08:50:00",
        ])
    }

    @Test("importing a year and changing the ordinary week change what a stored workday series gives")
    func calendarChanges() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.save(Event(calendarIdentifier: calendar, title: "Clock in", start: try StoreFixture.zoned("2026-12-28T08:50:00"),
                             end: try StoreFixture.zoned("2026-12-28T09:00:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        let newYearWeek = try StoreFixture.date("2026-12-31T00:00:00+08:00")..<StoreFixture.date("2027-01-05T00:00:00+08:00")
        // 2027 has no data: the ordinary week (2027-01-01 is a Friday).
        #expect(starts(try store.events(overlapping: newYearWeek)) == ["2026-12-31T08:50:00", "2027-01-01T08:50:00", "2027-01-04T08:50:00"])
        let source = HolidaySource(format: .holidayCNJSON, location: "test")
        let year2027 = try HolidayYear(region: "cn", year: 2027, entries: [
            HolidayEntry(date: CivilDate(year: 2027, month: 1, day: 1)!, isOffDay: true, name: "元旦"),
            HolidayEntry(date: CivilDate(year: 2027, month: 1, day: 2)!, isOffDay: true, name: "元旦"),
            HolidayEntry(date: CivilDate(year: 2027, month: 1, day: 3)!, isOffDay: true, name: "元旦"),
        ], source: source)
        let changes = try store.importHolidayYears([year2027])
        #expect(changes.map(\.kind) == [.new])
        #expect(starts(try store.events(overlapping: newYearWeek)) == ["2026-12-31T08:50:00", "2027-01-04T08:50:00"])
        // The same data again is no change.
        #expect(try store.importHolidayYears([year2027]).map(\.kind) == [.unchanged])
        try store.setOrdinaryWeek(OrdinaryWeek(workingDays: [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday]))
        let week = try StoreFixture.date("2027-01-04T00:00:00+08:00")..<StoreFixture.date("2027-01-11T00:00:00+08:00")
        #expect(try store.events(overlapping: week).count == 6)
        // Another process's store sees the same calendar.
        let other = try fixture.open()
        #expect(try other.events(overlapping: week).count == 6)
        #expect(try other.workdayCalendar().isWorkday(CivilDate(year: 2027, month: 1, day: 9)!))
    }

    @Test("days of leave: a workday series passes over them, another process sees them, the workday data token changes; given back, the series rings again")
    func leave() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.save(Event(calendarIdentifier: calendar, title: "Clock in", start: try StoreFixture.zoned("2026-12-07T08:50:00"),
                             end: try StoreFixture.zoned("2026-12-07T09:00:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        let week = try StoreFixture.date("2026-12-07T00:00:00+08:00")..<StoreFixture.date("2026-12-14T00:00:00+08:00")
        #expect(starts(try store.events(overlapping: week)).count == 5)
        let token = try store.workdayDataToken()
        // Wednesday to Friday, 2026-12-09..11.
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-11"), kind: .leave, name: "年假") == 3)
        #expect(starts(try store.events(overlapping: week)) == ["2026-12-07T08:50:00", "2026-12-08T08:50:00"])
        #expect(try store.workdayDataToken() != token)
        #expect(try fixture.open().workdayCalendar().answer(on: day("2026-12-10")).reason == .leave("年假"))
        // Again over the same days and one more: one new, the names kept without a new one, replaced with one.
        #expect(try store.addPersonalDays(day("2026-12-11")...day("2026-12-12"), kind: .leave) == 1)
        #expect(try store.personalDays().map(\.name) == ["年假", "年假", "年假", ""])
        #expect(try store.addPersonalDays(day("2026-12-12")...day("2026-12-12"), kind: .leave, name: "搬家") == 0)
        #expect(try store.personalDays(in: day("2026-12-11")...day("2026-12-31")) == [PersonalDay(date: day("2026-12-11"), kind: .leave, name: "年假"),
                                                                                      PersonalDay(date: day("2026-12-12"), kind: .leave, name: "搬家")])
        // A name alone moves no firing: the token stays.
        let named = try store.workdayDataToken()
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave, name: "病假") == 0)
        #expect(try store.workdayDataToken() == named)
        #expect(try store.removePersonalDays(day("2026-12-10")...day("2026-12-31"), kind: .leave) == 3)
        #expect(starts(try store.events(overlapping: week)) == ["2026-12-07T08:50:00", "2026-12-08T08:50:00",
                                                                 "2026-12-10T08:50:00", "2026-12-11T08:50:00"])
        #expect(try store.removePersonalDays(day("2026-12-10")...day("2026-12-31"), kind: .leave) == 0)
    }

    @Test("days worked: a workday series rings on them and a makeup-day series too where the week has them off, the token changes; a date is leave or work, and giving back one kind leaves the other")
    func work() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        for (title, rule) in [("Clock in", "FREQ=DAILY;X-WORKDAY=SKIP"), ("Makeup", "FREQ=DAILY;X-WORKDAY=MAKEUP")] {
            try store.save(Event(calendarIdentifier: calendar, title: title, start: try StoreFixture.zoned("2026-12-07T08:50:00"),
                                 end: try StoreFixture.zoned("2026-12-07T09:00:00"), recurrenceRule: try RecurrenceRule(rfc5545: rule)))
        }
        let week = try StoreFixture.date("2026-12-07T00:00:00+08:00")..<StoreFixture.date("2026-12-14T00:00:00+08:00")
        func titled(_ title: String) throws -> [String] { starts(try store.events(overlapping: week).filter { $0.title == title }) }
        #expect(try titled("Makeup").isEmpty)
        let token = try store.workdayDataToken()
        // Saturday 2026-12-12 worked; Friday 2026-12-11 first taken as leave, then worked.
        #expect(try store.addPersonalDays(day("2026-12-11")...day("2026-12-11"), kind: .leave, name: "年假") == 1)
        #expect(try store.addPersonalDays(day("2026-12-11")...day("2026-12-12"), kind: .work, name: "加班") == 2)
        #expect(try store.workdayDataToken() != token)
        #expect(try titled("Clock in") == ["2026-12-07T08:50:00", "2026-12-08T08:50:00", "2026-12-09T08:50:00", "2026-12-10T08:50:00",
                                           "2026-12-11T08:50:00", "2026-12-12T08:50:00"])
        #expect(try titled("Makeup") == ["2026-12-12T08:50:00"])
        #expect(try store.personalDays() == [PersonalDay(date: day("2026-12-11"), kind: .work, name: "加班"),
                                             PersonalDay(date: day("2026-12-12"), kind: .work, name: "加班")])
        // Leave again over the Friday, without a name: the work's name does not carry over.
        #expect(try store.addPersonalDays(day("2026-12-11")...day("2026-12-11"), kind: .leave) == 1)
        #expect(try store.personalDays(kinds: [.leave]) == [PersonalDay(date: day("2026-12-11"), kind: .leave, name: "")])
        #expect(try fixture.open().workdayCalendar().answer(on: day("2026-12-12")).reason == .work("加班"))
        // Giving back work over both days takes the Saturday only; the Friday stays leave.
        #expect(try store.removePersonalDays(day("2026-12-11")...day("2026-12-12"), kind: .work) == 1)
        #expect(try store.personalDays().map(\.kind) == [.leave])
        #expect(try titled("Clock in").count == 4)
        #expect(try titled("Makeup").isEmpty)
    }

    @Test("half days: a clock-in at 08:50 passes over a morning of leave and rings on a Saturday morning worked, a clock-out at 18:00 the other way round; the half is kept, replaced and in the token")
    func halfDays() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        for (title, time) in [("Clock in", "08:50"), ("Clock out", "18:00")] {
            try store.save(Event(calendarIdentifier: calendar, title: title, start: try StoreFixture.zoned("2026-12-07T\(time):00"),
                                 end: try StoreFixture.zoned("2026-12-07T\(time):00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        }
        let week = try StoreFixture.date("2026-12-07T00:00:00+08:00")..<StoreFixture.date("2026-12-14T00:00:00+08:00")
        func days(_ title: String) throws -> [String] { starts(try store.events(overlapping: week).filter { $0.title == title }).map { String($0.prefix(10)) } }
        let token = try store.workdayDataToken()
        // Wednesday 2026-12-09: the morning off; Saturday 2026-12-12: the morning worked.
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave, half: .morning, name: "看牙") == 1)
        #expect(try store.addPersonalDays(day("2026-12-12")...day("2026-12-12"), kind: .work, half: .morning) == 1)
        let halves = try store.workdayDataToken()
        #expect(halves != token)
        #expect(try days("Clock in") == ["2026-12-07", "2026-12-08", "2026-12-10", "2026-12-11", "2026-12-12"])
        #expect(try days("Clock out") == ["2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11"])
        #expect(try store.personalDays() == [PersonalDay(date: day("2026-12-09"), kind: .leave, name: "看牙", half: .morning),
                                             PersonalDay(date: day("2026-12-12"), kind: .work, name: "", half: .morning)])
        #expect(try fixture.open().workdayCalendar().answer(on: day("2026-12-09")).description == "workday (leave in the morning: 看牙)")
        // The same half again changes nothing; the other half replaces it, and so does the whole day.
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave, half: .morning) == 0)
        #expect(try store.workdayDataToken() == halves)
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave, half: .afternoon) == 1)
        #expect(try store.workdayDataToken() != halves)
        #expect(try days("Clock in").contains("2026-12-09") && !(try days("Clock out")).contains("2026-12-09"))
        #expect(try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave) == 1)
        #expect(try store.personalDays(kinds: [.leave]) == [PersonalDay(date: day("2026-12-09"), kind: .leave, name: "看牙")])
        #expect(try !days("Clock in").contains("2026-12-09") && !(try days("Clock out")).contains("2026-12-09"))
    }

    @Test("the morning's end: 12:00 until set; set to 12:30, a lunch clock-out at 12:30 is the morning's on an afternoon of leave; in the token, kept by the store, refused past 23:58")
    func morningEnd() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        try store.save(Event(calendarIdentifier: calendar, title: "Lunch clock-out", start: try StoreFixture.zoned("2026-12-07T12:30:00"),
                             end: try StoreFixture.zoned("2026-12-07T12:30:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        let week = try StoreFixture.date("2026-12-07T00:00:00+08:00")..<StoreFixture.date("2026-12-12T00:00:00+08:00")
        func days() throws -> [String] { starts(try store.events(overlapping: week)).map { String($0.prefix(10)) } }
        // Wednesday 2026-12-09: the afternoon off.
        try store.addPersonalDays(day("2026-12-09")...day("2026-12-09"), kind: .leave, half: .afternoon)
        #expect(try store.morningEnd() == 720)
        #expect(try days() == ["2026-12-07", "2026-12-08", "2026-12-10", "2026-12-11"])
        let token = try store.workdayDataToken()
        try store.setMorningEnd(12 * 60 + 30)
        #expect(try store.workdayDataToken() != token)
        #expect(try days() == ["2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11"])
        #expect(try fixture.open().morningEnd() == 750)
        #expect(try fixture.open().workdayCalendar().morningEnd == 750)
        let before = try store.changeCounter()
        #expect(throws: StoreError.self) { try store.setMorningEnd(DayHalf.latestMorningEnd + 1) }
        #expect(throws: StoreError.self) { try store.setMorningEnd(-1) }
        #expect(try store.changeCounter() == before && (try store.morningEnd()) == 750)
    }

    @Test("leave longer than a year at a time, or outside 1970–2199, is refused and nothing is written")
    func leaveRefused() throws {
        let store = try StoreFixture().open()
        let before = try store.changeCounter()
        #expect(throws: StoreError.self) { try store.addPersonalDays(day("2026-01-01")...day("2027-01-02"), kind: .leave) }
        #expect(throws: StoreError.self) { try store.addPersonalDays(day("1969-12-31")...day("1970-01-01"), kind: .leave) }
        #expect(throws: StoreError.self) { try store.removePersonalDays(day("2199-12-31")...day("2200-01-01"), kind: .leave) }
        do {
            try store.addPersonalDays(day("2026-01-01")...day("2027-01-02"), kind: .leave)
        } catch {
            #expect(error.description.contains("is 367 days; give at most 366 at a time"))
        }
        #expect(try store.personalDays().isEmpty)
        #expect(try store.changeCounter() == before)
        #expect(try store.addPersonalDays(day("2026-01-01")...day("2027-01-01"), kind: .leave) == 366)
    }

    @Test("a clock-in reminder saved on a day off is due on the next workday, and completing moves it past the holiday")
    func clockInReminder() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open(now: { Date(timeIntervalSince1970: 1_790_000_000) })
        let calendar = try store.defaultCalendarForNewReminders().identifier
        // Saturday 2026-09-26 is in the Mid-Autumn break.
        let clockIn = Reminder(calendarIdentifier: calendar, title: "Clock in", due: try StoreFixture.zoned("2026-09-26T08:50:00"),
                               recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                               alarms: [Alarm(trigger: .relative(seconds: 0))])
        try store.save(clockIn)
        #expect(try store.reminder(identifier: clockIn.identifier).due == (try StoreFixture.zoned("2026-09-28T08:50:00")))
        for expected in ["2026-09-29T08:50:00", "2026-09-30T08:50:00", "2026-10-08T08:50:00", "2026-10-09T08:50:00", "2026-10-10T08:50:00"] {
            try store.complete(clockIn.identifier)
            #expect(try store.reminder(identifier: clockIn.identifier).due == (try StoreFixture.zoned(expected)))
        }
        #expect(try store.reminders(.completed(from: nil, to: nil)).count == 5)
    }

    @Test("leave taken over a repeating reminder's due time after it was saved: it is shown at, and completing completes, its first occurrence still to come, not the day of leave")
    func leaveOverTheDueTime() throws {
        let fixture = try StoreFixture()
        let now = try StoreFixture.date("2026-12-07T10:00:00+08:00")   // Monday
        let store = try fixture.open(now: { now })
        let clockOut = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Clock out",
                                due: try StoreFixture.zoned("2026-12-07T18:00:00"), recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"))
        try store.save(clockOut)
        // The afternoon of Monday 2026-12-07 off: its 18:00 is no occurrence now.
        try store.addPersonalDays(day("2026-12-07")...day("2026-12-07"), kind: .leave, half: .afternoon)
        #expect(try store.reminder(identifier: clockOut.identifier).due == (try StoreFixture.zoned("2026-12-07T18:00:00")))
        let at = Int64(now.timeIntervalSince1970)
        #expect(try store.current(store.reminder(identifier: clockOut.identifier), through: at).reminder.due == (try StoreFixture.zoned("2026-12-08T18:00:00")))
        let week = try store.reminders(.incomplete(dueFrom: now, dueTo: try StoreFixture.date("2026-12-14T00:00:00+08:00")))
        #expect(week.map(\.identifier) == [clockOut.identifier])
        let today = try store.reminders(.incomplete(dueFrom: now, dueTo: try StoreFixture.date("2026-12-08T00:00:00+08:00")))
        #expect(today.isEmpty)
        try store.complete(clockOut.identifier)
        #expect(try store.reminders(.completed(from: nil, to: nil)).map(\.due) == [try StoreFixture.zoned("2026-12-08T18:00:00")])
        #expect(try store.reminder(identifier: clockOut.identifier).due == (try StoreFixture.zoned("2026-12-09T18:00:00")))
    }

    @Test("a workday rule naming a region without data is refused, and nothing is written")
    func unknownRegion() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        let time = try StoreFixture.zoned("2026-12-01T08:50:00")
        let event = Event(calendarIdentifier: calendar, title: "Clock in", start: time, end: time,
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=JP"))
        #expect {
            try store.save(event)
        } throws: { error in
            "\(error)".contains("JP") && "\(error)".contains("no holiday data")
        }
        #expect(try store.summary().events == 0)
    }
}

@Suite("Workday rules that move occurrences, in range queries")
struct WorkdayMoveRangeTests {
    @Test("a BACKWARD series whose start falls on a day off is found where it moved, before its start")
    func backwardBeforeStart() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        // The 1st of each month at 10:00, moved back to the previous workday:
        // 2026-10-01 is National Day, so the first occurrence is Wednesday 2026-09-30.
        try store.save(Event(calendarIdentifier: calendar, title: "Pay rent", start: try StoreFixture.zoned("2026-10-01T10:00:00"),
                             end: try StoreFixture.zoned("2026-10-01T10:30:00"),
                             recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=MONTHLY;X-WORKDAY=BACKWARD")))
        // The range ends before the scheduled start, as a day view of 09-30 would.
        let september = try StoreFixture.date("2026-09-30T00:00:00+08:00")..<StoreFixture.date("2026-10-01T00:00:00+08:00")
        #expect(try store.events(overlapping: september).map { $0.start.wallClock.description } == ["2026-09-30T10:00:00"])
        // 2026-11-01 is a Sunday: back to Friday 2026-10-30.
        let monthEnd = try StoreFixture.date("2026-10-29T00:00:00+08:00")..<StoreFixture.date("2026-11-03T00:00:00+08:00")
        #expect(try store.events(overlapping: monthEnd).map { $0.start.wallClock.description } == ["2026-10-30T10:00:00"])
    }
}

/// An ISO date literal.
private func day(_ iso: String) -> CivilDate { CivilDate(parsing: iso)! }
