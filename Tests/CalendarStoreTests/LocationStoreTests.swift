import CalendarModel
import CalendarStore
import Foundation
import Geofencing
import TestSupport
import Testing

@Suite("the store's location state")
struct LocationStoreTests {
    @Test("location alarms: those of incomplete reminders (with their dwell and first-fix choice), not of completed ones nor of events; a change moves the counter")
    func locationAlarms() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let office = try StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 150)
        let home = try StructuredLocation(title: "Home", latitude: 52.50, longitude: 13.30)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        let milk = Reminder(calendarIdentifier: calendar, title: "Buy milk", notes: "semi-skimmed",
                            alarms: [.proximity(office, .leave), .relative(seconds: 0),
                                     Alarm(trigger: .proximity(home, .enter), dwell: 120, firesOnFirstFix: true)])
        let done = Reminder(calendarIdentifier: calendar, title: "Done", alarms: [.proximity(office, .enter)])
        try store.save(milk)
        try store.save(done)
        try store.complete(done.identifier)
        try store.save(Event(calendarIdentifier: calendar, title: "Gym", start: try StoreFixture.zoned("2026-12-01T18:00"),
                             end: try StoreFixture.zoned("2026-12-01T19:00"), alarms: [.proximity(home, .leave)]))
        let alarms = try store.locationAlarms()
        #expect(Set(alarms.map(\.alarm)) == [milk.alarms[0], milk.alarms[2]])
        #expect(try store.reminder(identifier: milk.identifier).alarms == milk.alarms)
        #expect(alarms.allSatisfy { $0.item == milk.identifier && $0.title == "Buy milk" && $0.notes == "semi-skimmed" })
        #expect(try store.eventLocationAlarmCount() == 1)
        let counter = try store.changeCounter()
        try store.complete(milk.identifier)
        #expect(try store.changeCounter() > counter)
        #expect(try store.locationAlarms().isEmpty)
    }
}
