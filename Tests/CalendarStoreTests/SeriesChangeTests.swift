import CalendarModel
import CalendarStore
import Foundation
import Synchronization
import TestSupport
import Testing

/// Splitting and moving series: COUNT across a split, exceptions and
/// detached occurrences that follow a moved start, and a start in the
/// second pass of a daylight-saving fold.
@Suite("Series split, moved and started in a fold")
struct SeriesChangeTests {
    static func daily(_ store: CalendarStore, _ rule: String, start: String = "2026-12-01T09:00:00", zone: String = "Asia/Shanghai",
                      exceptions: [String] = []) throws -> Event {
        let calendar = try store.defaultCalendarForNewEvents()
        let startTime = try StoreFixture.time(start)
        let event = Event(calendarIdentifier: calendar.identifier, title: "Walk",
                          start: .zoned(startTime, zone: zone), end: .zoned(LocalDateTime(localSeconds: startTime.localSeconds + 1800), zone: zone),
                          recurrenceRule: try RecurrenceRule(rfc5545: rule),
                          exceptionDates: try exceptions.map(StoreFixture.time))
        try store.save(event)
        return event
    }

    static func starts(_ store: CalendarStore, from: String = "2026-11-01T00:00:00Z", to: String = "2027-02-01T00:00:00Z") throws -> [String] {
        let range = try StoreFixture.date(from)..<StoreFixture.date(to)
        return try store.events(overlapping: range).map { "\($0.start.wallClock) \($0.title)" }
    }

    @Test("a split after a removed occurrence gives the later part what COUNT left, the removed one counted")
    func splitAfterRemoval() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let series = try Self.daily(store, "FREQ=DAILY;COUNT=5")
        try store.remove(try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00")), span: .thisEvent)
        var later = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-04T09:00:00"))
        later.title = "Run"
        let identifier = try store.save(later, span: .futureEvents)
        #expect(try store.event(identifier: identifier).recurrenceRule?.count == 2)
        #expect(try Self.starts(store) == [
            "2026-12-01T09:00:00 Walk", "2026-12-02T09:00:00 Walk", "2026-12-04T09:00:00 Run", "2026-12-05T09:00:00 Run",
        ])
    }

    @Test("a split of a rule without COUNT seeks to the cut: FREQ=SECONDLY from 2020 split in 2026 answers, and gives the two series")
    func splitSecondlySeeks() throws {
        let fixture = try StoreFixture(zone: "UTC")
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        // 2020-01-01T00:00:00Z, one second long, every second.
        let series = Event(calendarIdentifier: calendar.identifier, title: "Tick",
                           start: try StoreFixture.zoned("2020-01-01T00:00:00", "UTC"), end: try StoreFixture.zoned("2020-01-01T00:00:01", "UTC"),
                           recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=SECONDLY"))
        try store.save(series)
        // The walk this replaced took one step per second since 2020 (about 204 million,
        // minutes in a debug build): the deadline only tells a hang from an answer.
        let answer = Mutex<Result<ItemIdentifier, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let path = fixture.path, zone = fixture.zone
        // 2026-06-15T12:00:00Z.
        let cut = try StoreFixture.time("2026-06-15T12:00:00")
        Thread.detachNewThread {
            answer.withLock { $0 = Result { () throws -> ItemIdentifier in
                let store = try CalendarStore(path: path, machineTimeZone: zone, now: { Date() })
                var later = try store.occurrence(of: series.identifier, originalStart: cut)
                later.title = "Tock"
                return try store.save(later, span: .futureEvents)
            } }
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 60) == .success, "the split did not answer in 60 s")
        let identifier = try #require(try answer.withLock { $0 }?.get())
        #expect(try store.event(identifier: series.identifier).recurrenceRule?.rfc5545 == "FREQ=SECONDLY;UNTIL=20260615T115959Z")
        let later = try store.event(identifier: identifier)
        #expect(later.recurrenceRule?.rfc5545 == "FREQ=SECONDLY")
        #expect(later.start == (try StoreFixture.zoned("2026-06-15T12:00:00", "UTC")))
        // 2026-06-15T11:59:58Z to 12:00:02Z.
        #expect(try Self.starts(store, from: "2026-06-15T11:59:58Z", to: "2026-06-15T12:00:02Z") == [
            "2026-06-15T11:59:58 Tick", "2026-06-15T11:59:59 Tick", "2026-06-15T12:00:00 Tock", "2026-06-15T12:00:01 Tock",
        ])
    }

    @Test("a split at an RDATE keeps the rule's own times, and one after the rule ended does not extend it")
    func splitAtExtraDates() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var series = try Self.daily(store, "FREQ=DAILY;COUNT=3")
        series.extraDates = [try StoreFixture.time("2026-12-02T15:00:00"), try StoreFixture.time("2026-12-10T15:00:00")]
        try store.save(series)
        var atExtra = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-02T15:00:00"))
        atExtra.title = "Run"
        try store.save(atExtra, span: .futureEvents)
        #expect(try Self.starts(store) == [
            "2026-12-01T09:00:00 Walk", "2026-12-02T09:00:00 Walk", "2026-12-02T15:00:00 Run", "2026-12-03T09:00:00 Run",
            "2026-12-10T15:00:00 Run",
        ])
        // Past the rule's end: the earlier part keeps COUNT (an UNTIL at the cut would give it seven more days).
        let runs = try #require(try store.events(overlapping: try StoreFixture.date("2026-12-10T00:00:00+08:00")..<StoreFixture.date("2026-12-11T00:00:00+08:00")).first)
        var last = try store.occurrence(of: try #require(runs.seriesIdentifier), originalStart: try StoreFixture.time("2026-12-10T15:00:00"))
        last.title = "Swim"
        try store.save(last, span: .futureEvents)
        #expect(try Self.starts(store) == [
            "2026-12-01T09:00:00 Walk", "2026-12-02T09:00:00 Walk", "2026-12-02T15:00:00 Run", "2026-12-03T09:00:00 Run",
            "2026-12-10T15:00:00 Swim",
        ])
    }

    @Test("a split at a detached occurrence with alarms: the occurrence shows the change, the new series has alarms of its own")
    func splitAtDetached() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var series = try Self.daily(store, "FREQ=DAILY;COUNT=5")
        series.alarms = [Alarm(trigger: .relative(seconds: -600))]
        try store.save(series)
        var detached = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        detached.title = "Detached"
        detached.start = .zoned(try StoreFixture.time("2026-12-03T09:15:00"), zone: "Asia/Shanghai")
        detached.end = .zoned(try StoreFixture.time("2026-12-03T09:45:00"), zone: "Asia/Shanghai")
        try store.save(detached, span: .thisEvent)
        var changed = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        changed.title = "Run"
        let later = try store.save(changed, span: .futureEvents)
        #expect(try Self.starts(store) == [
            "2026-12-01T09:00:00 Walk", "2026-12-02T09:00:00 Walk", "2026-12-03T09:15:00 Run", "2026-12-04T09:00:00 Run",
            "2026-12-05T09:00:00 Run",
        ])
        let alarms = try store.event(identifier: later).alarms
        #expect(alarms.map(\.trigger) == [.relative(seconds: -600)])
        #expect(Set(alarms.map(\.identifier)).isDisjoint(with: try store.event(identifier: series.identifier).alarms.map(\.identifier)))
    }

    @Test("a split at a detached last RDATE past the rule's end lists that occurrence once, as edited")
    func splitAtLastDetachedExtraDate() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var series = try Self.daily(store, "FREQ=DAILY;COUNT=2")
        series.extraDates = [try StoreFixture.time("2026-12-10T15:00:00")]
        try store.save(series)
        var detached = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-10T15:00:00"))
        detached.title = "Detached"
        try store.save(detached, span: .thisEvent)
        var last = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-10T15:00:00"))
        last.notes = "the last one"
        try store.save(last, span: .futureEvents)
        let listed = try store.events(overlapping: try StoreFixture.date("2026-11-01T00:00:00Z")..<StoreFixture.date("2027-02-01T00:00:00Z"))
        #expect(listed.map { "\($0.start.wallClock) \($0.title) \($0.notes)" } == [
            "2026-12-01T09:00:00 Walk ", "2026-12-02T09:00:00 Walk ", "2026-12-10T15:00:00 Detached the last one",
        ])
    }

    @Test("a series whose start moves takes its exception, its UNTIL and its detached occurrence along")
    func moveKeepsExceptions() throws {
        let fixture = try StoreFixture(zone: "UTC")
        let store = try fixture.open()
        var series = try Self.daily(store, "FREQ=DAILY;COUNT=10", start: "2026-12-02T09:00:00", zone: "UTC", exceptions: ["2026-12-08T09:00:00"])
        var detached = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        detached.title = "detached one"
        try store.save(detached, span: .thisEvent)
        series.start = .zoned(try StoreFixture.time("2026-12-02T10:00:00"), zone: "UTC")
        series.end = .zoned(try StoreFixture.time("2026-12-02T10:30:00"), zone: "UTC")
        try store.save(series)
        #expect(try store.event(identifier: series.identifier).exceptionDates == [try StoreFixture.time("2026-12-08T10:00:00")])
        let listed = try Self.starts(store)
        #expect(listed.count == 9)
        #expect(!listed.contains("2026-12-08T10:00:00 Walk"))
        // The detached occurrence was not moved on its own: it moves with the series, once.
        #expect(listed.filter { $0.hasPrefix("2026-12-03") } == ["2026-12-03T10:00:00 detached one"])

        // A series with an UNTIL keeps its last occurrence when it moves later.
        let until = try Self.daily(store, "FREQ=DAILY;UNTIL=20261205T090000Z", start: "2026-12-01T09:00:00", zone: "UTC")
        var moved = until
        moved.start = .zoned(try StoreFixture.time("2026-12-01T11:00:00"), zone: "UTC")
        moved.end = .zoned(try StoreFixture.time("2026-12-01T11:30:00"), zone: "UTC")
        try store.save(moved)
        let ends = try store.events(overlapping: try StoreFixture.date("2026-12-01T00:00:00Z")..<StoreFixture.date("2026-12-07T00:00:00Z"))
            .filter { $0.seriesIdentifier == until.identifier }.map { "\($0.start.wallClock)" }
        #expect(ends == ["2026-12-01T11:00:00", "2026-12-02T11:00:00", "2026-12-03T11:00:00", "2026-12-04T11:00:00", "2026-12-05T11:00:00"])
    }

    @Test("a split with a new start moves the later exceptions and detached occurrences by the same shift")
    func splitWithNewStart() throws {
        let fixture = try StoreFixture(zone: "UTC")
        let store = try fixture.open()
        let series = try Self.daily(store, "FREQ=DAILY;COUNT=10", start: "2026-12-02T09:00:00", zone: "UTC", exceptions: ["2026-12-08T09:00:00"])
        var moved = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-06T09:00:00"))
        moved.title = "detached one"
        moved.start = .zoned(try StoreFixture.time("2026-12-06T09:15:00"), zone: "UTC")
        moved.end = .zoned(try StoreFixture.time("2026-12-06T09:45:00"), zone: "UTC")
        try store.save(moved, span: .thisEvent)
        var later = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-05T09:00:00"))
        later.start = .zoned(try StoreFixture.time("2026-12-05T10:00:00"), zone: "UTC")
        later.end = .zoned(try StoreFixture.time("2026-12-05T10:30:00"), zone: "UTC")
        let identifier = try store.save(later, span: .futureEvents)
        #expect(try store.event(identifier: identifier).exceptionDates == [try StoreFixture.time("2026-12-08T10:00:00")])
        // 12-06 was moved on its own: it keeps its own time, once.
        #expect(try Self.starts(store) == [
            "2026-12-02T09:00:00 Walk", "2026-12-03T09:00:00 Walk", "2026-12-04T09:00:00 Walk",
            "2026-12-05T10:00:00 Walk", "2026-12-06T09:15:00 detached one", "2026-12-07T10:00:00 Walk",
            "2026-12-09T10:00:00 Walk", "2026-12-10T10:00:00 Walk", "2026-12-11T10:00:00 Walk",
        ])
    }

    @Test("a series saved without a rule keeps no detached occurrences")
    func repeatNoneRemovesDetached() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        var series = try Self.daily(store, "FREQ=DAILY;COUNT=5")
        var detached = try store.occurrence(of: series.identifier, originalStart: try StoreFixture.time("2026-12-03T09:00:00"))
        detached.title = "detached one"
        let detachedIdentifier = try store.save(detached, span: .thisEvent)
        series.recurrenceRule = nil
        try store.save(series)
        #expect(try Self.starts(store) == ["2026-12-01T09:00:00 Walk"])
        #expect(throws: StoreError.self) { try store.event(identifier: detachedIdentifier) }
    }

    @Test("a start in the second pass of a fold keeps its instant; the series' other occurrences in a fold take the first")
    func foldStart() throws {
        let fixture = try StoreFixture(zone: "America/New_York")
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        let zone = try TimeZoneRules.named("America/New_York")
        // 1793514600 is 2026-11-01T06:30:00Z, 01:30 EST, the second 01:30 that night.
        let start = ItemTime.zoned(at: 1_793_514_600, in: zone)
        #expect(start == .zoned(try StoreFixture.time("2026-11-01T01:30:00"), zone: "America/New_York", fold: .later))
        // An hour of elapsed time later: 1793518200, 2026-11-01T07:30:00Z, 02:30 EST.
        let event = Event(calendarIdentifier: calendar.identifier, title: "Night shift", start: start,
                          end: .zoned(at: 1_793_518_200, in: zone),
                          recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU;COUNT=2"))
        try store.save(event)
        let stored = try store.event(identifier: event.identifier)
        #expect(stored.start.fold == .later)
        let found = try store.events(overlapping: try StoreFixture.date("2026-10-01T00:00:00Z")..<StoreFixture.date("2028-01-01T00:00:00Z"))
        // 2027-11-07T05:30:00Z (1825565400) is the first 01:30 of 2027's fold, the design rule's choice.
        #expect(try found.map { try $0.start.instant(machine: zone) } == [1_793_514_600, 1_825_565_400])
        #expect(try found.map { try $0.end.instant(machine: zone) } == [1_793_518_200, 1_825_569_000])
        let occurrence = try store.recurrence(ofEvent: stored).occurrences().first(where: { _ in true })
        #expect(occurrence?.instant == 1_793_514_600)
        // A one-off event in the fold keeps its instant too.
        let once = Event(calendarIdentifier: calendar.identifier, title: "Once", start: start, end: .zoned(at: 1_793_516_400, in: zone))
        try store.save(once)
        #expect(try store.occurrence(at: try store.event(identifier: once.identifier).start).instant == 1_793_514_600)
    }
}
