import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

@Suite("Alarms in range queries")
struct RangeQueryAlarmTests {
    @Test("occurrences carry their series' alarms in order, single events their own, and events without alarms none")
    func alarmsOnResults() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents().identifier
        func event(_ title: String, _ start: String, rule: String? = nil, alarms: [Alarm]) throws -> Event {
            Event(calendarIdentifier: calendar, title: title, start: try StoreFixture.zoned(start), end: try StoreFixture.zoned(start),
                  recurrenceRule: try rule.map { try RecurrenceRule(rfc5545: $0) }, alarms: alarms)
        }
        let twoAlarms = [Alarm(trigger: .relative(seconds: -600)), Alarm(trigger: .relative(seconds: -60))]
        try store.save(try event("Stand-up", "2026-11-30T08:50:00", rule: "FREQ=DAILY", alarms: twoAlarms), commit: false)
        try store.save(try event("Dentist", "2026-12-02T15:00:00", alarms: [Alarm(trigger: .absolute(Date(timeIntervalSince1970: 1_796_000_000)))]),
                       commit: false)
        try store.save(try event("Lunch", "2026-12-02T12:00:00", alarms: []), commit: false)
        try store.commit()
        let week = try StoreFixture.date("2026-12-01T00:00:00+08:00")..<StoreFixture.date("2026-12-03T00:00:00+08:00")
        let found = try store.events(overlapping: week)
        #expect(found.map(\.title) == ["Stand-up", "Stand-up", "Lunch", "Dentist"])
        #expect(found.filter { $0.title == "Stand-up" }.allSatisfy { $0.alarms.map(\.trigger) == twoAlarms.map(\.trigger) })
        #expect(found.first { $0.title == "Dentist" }?.alarms.map(\.trigger) == [.absolute(Date(timeIntervalSince1970: 1_796_000_000))])
        #expect(found.first { $0.title == "Lunch" }?.alarms.isEmpty == true)
    }
}
