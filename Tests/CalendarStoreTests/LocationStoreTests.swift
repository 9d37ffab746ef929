import CalendarModel
import CalendarStore
import Foundation
import Geofencing
import TestSupport
import Testing

@Suite("the store's location state")
struct LocationStoreTests {
    @Test("the monitor's snapshot and the newest position survive closing and reopening the store")
    func roundTrip() throws {
        let fixture = try StoreFixture()
        var store = try fixture.open()
        #expect(try store.geofenceSnapshot() == GeofenceMonitor.Snapshot())
        #expect(try store.latestPosition() == nil)
        let snapshot = GeofenceMonitor.Snapshot(latestFixTime: 1_796_112_000.25, states: [
            String(repeating: "a", count: 32): GeofenceState(presence: .inside, lastFixTime: 1_796_112_000.25, dwellStartedAt: 1_796_111_990),
            String(repeating: "b", count: 32): GeofenceState(presence: .outside, lastFixTime: 1_796_111_000, lastFiredAt: 1_796_111_000),
            String(repeating: "c", count: 32): GeofenceState(),
        ])
        try store.replaceGeofenceSnapshot(snapshot)
        // 2026-12-01T08:00:00.25Z
        let fix = try Fix(latitude: -33.8688, longitude: 151.2093, accuracy: 7.5, time: 1_796_112_000.25)
        #expect(try store.keepPosition(fix))
        store = try fixture.open()
        #expect(try store.geofenceSnapshot() == snapshot)
        #expect(try store.latestPosition()?.fix == fix)

        // An older position does not replace a newer one.
        #expect(try !store.keepPosition(try Fix(latitude: 0, longitude: 0, time: 1_796_111_999)))
        #expect(try store.latestPosition()?.fix == fix)

        // A save changes the states given, drops the removed ones and keeps the rest.
        try store.saveGeofenceStates([String(repeating: "b", count: 32): GeofenceState(presence: .inside, lastFixTime: 1_796_112_100,
                                                                                      lastFiredAt: 1_796_111_000)],
                                     removed: [String(repeating: "c", count: 32)], latestFixTime: 1_796_112_100)
        let after = try fixture.open().geofenceSnapshot()
        #expect(after.latestFixTime == 1_796_112_100)
        #expect(after.states.keys.sorted() == [String(repeating: "a", count: 32), String(repeating: "b", count: 32)])
        #expect(after.states[String(repeating: "b", count: 32)]?.presence == .inside)
        #expect(after.states[String(repeating: "a", count: 32)] == snapshot.states[String(repeating: "a", count: 32)])
    }

    @Test("states saved with their firings: the firings are in the delivery log as being shown, in the same write")
    func firingsRecordedWithStates() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let alarm = ItemIdentifier.random(), item = ItemIdentifier.random()
        let delivery = CalendarStore.Delivery(key: alarm.rawValue + "@leave@1796112000", alarm: alarm, item: item, title: "Buy milk",
                                              due: 1_796_112_000, outcome: .showing, recordedAt: Date())
        try store.saveGeofenceStates([alarm.rawValue: GeofenceState(presence: .outside, lastFiredAt: 1_796_112_000)],
                                     latestFixTime: 1_796_112_000, position: try Fix(latitude: 1, longitude: 2, time: 1_796_112_000),
                                     recording: [delivery])
        #expect(try store.recordedKeys(among: [delivery.key]) == [delivery.key])
        #expect(try store.deliveries().first?.outcome == .showing)
        #expect(try store.latestPosition()?.fix.position.longitude == 2)
    }

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
