@testable import AlarmScheduler
import CalendarModel
import CalendarStore
@testable import ChimedCommandLine
import Foundation
import Synchronization
import TestSupport
import Testing

/// chimed fetching the holiday data its workday rules need: a daemon in this
/// process on a manual clock, with the fetcher chimed is given, reading a
/// folder set as the store's holiday source.
@Suite("chimed fetches missing holiday data")
struct DaemonHolidayFetchTests {
    /// Records the notices; shows nothing.
    final class NoticeRecorder: Notifier {
        let notices = Mutex<[DaemonNotice]>([])
        func show(_ firing: Firing, late: Bool) throws {}
        func withdraw(key: String) {}
        func showNotice(_ notice: DaemonNotice) throws { notices.withLock { $0.append(notice) } }
    }

    /// 2031-10-15T08:00:00Z, a Wednesday: 2031 and 2032 have no data, and next year's is looked for from October.
    static let start = 1_949_817_600.0

    /// A made-up notice for 2032 (2032-01-01 is a Thursday, 01-03 a Saturday).
    static let notice2032 = Array("""
        {"year": 2032, "papers": [], "days": [
          {"name": "元旦", "date": "2032-01-01", "isOffDay": true},
          {"name": "元旦", "date": "2032-01-02", "isOffDay": true},
          {"name": "元旦", "date": "2032-01-03", "isOffDay": false}]}
        """.utf8)

    @Test("a source that cannot be read is tried again an hour later; the year that is published then arrives, is said, and workday rules follow it; an amended notice is checked for daily")
    func fetchedAfterARetry() throws {
        #expect(TimeZoneRules.utc.localTime(at: Int64(Self.start)).description == "2031-10-15T08:00:00")
        let scratch = TemporaryFolder("chime-holiday-fetch")
        let storePath = scratch.appending("chime.db"), source = scratch.appending("holidays")
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        try store.save(Reminder(calendarIdentifier: calendar, title: "Clock in",
                                due: .zoned(try #require(LocalDateTime(parsing: "2031-10-16T00:50:00")), zone: "UTC"),
                                recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP"),
                                alarms: [Alarm(trigger: .relative(seconds: 0))]))
        // The folder is not there yet: the first fetch fails.
        try store.setHolidayUpdateSource(.given(source))

        let runtime = scratch.appending("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var options = Daemon.Options(storePath: storePath, runtimeFolder: runtime + "/chime")
        options.handlesSignals = false
        options.machineZone = { .utc }
        let clock = ManualClock(now: Self.start)
        options.clock = clock
        options.holidays = HolidayRefresher(machineZone: { .utc })
        let notifier = NoticeRecorder()
        let lines = Mutex<[String]>([])
        let daemon = Daemon(options: options, notifier: notifier, log: { line in lines.withLock { $0.append(line) } })
        try daemon.start()
        defer { daemon.shutdown() }

        // The bounds only tell a hang from an answer.
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { daemon.holidayRetryTimer?.at == Self.start + 3600 } }, "\(lines.withLock { $0 })")
        // This year's absence is said at once; next year's not before December.
        #expect(notifier.notices.withLock { $0 } == [.missingHolidayData(region: "cn", year: 2031)])
        #expect(lines.withLock { $0 }.contains { $0.contains("2031, 2032 not fetched (tried again later)") && $0.contains("no such folder") },
                "\(lines.withLock { $0 })")

        // 2032's notice comes out; 2031's never will.
        try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
        try Data(Self.notice2032).write(to: URL(fileURLWithPath: source + "/2032.json"))
        clock.advance(by: 3600)
        #expect(waitUntil(seconds: 30) { notifier.notices.withLock { $0.count } == 2 }, "\(lines.withLock { $0 })")
        #expect(notifier.notices.withLock { $0 }.last == .holidayDataArrived(region: "cn", year: 2032, offDays: 2, makeupWorkdays: 1))
        // The import is a change, and so is a reminder added: the daemon
        // plans again and looks again, and does not ask for 2031 again that day.
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { !daemon.fetchingHolidays } })
        try store.save(Reminder(calendarIdentifier: calendar, title: "Tea", due: .zoned(try #require(LocalDateTime(parsing: "2031-10-16T08:00:00")), zone: "UTC"),
                                recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP")))
        #expect(try waitUntil(seconds: 30) {
            let counter = try store.changeCounter()
            return daemon.queue.sync { daemon.plan.plannedAtCounter == counter && !daemon.fetchingHolidays }
        }, "\(lines.withLock { $0 })")
        #expect(daemon.queue.sync { daemon.holidayRetryTimer == nil })
        #expect(lines.withLock { $0 }.filter { $0.contains("not published yet at \(source): 2031") }.count == 1, "\(lines.withLock { $0 })")
        let workdays = try store.workdayCalendar()
        #expect(workdays.hasData(forYear: 2032) && !workdays.hasData(forYear: 2031))
        #expect(!workdays.isWorkday(try #require(CivilDate(year: 2032, month: 1, day: 2))))  // Fri 2032-01-02, 元旦
        #expect(workdays.isWorkday(try #require(CivilDate(year: 2032, month: 1, day: 3))))   // Sat 2032-01-03, its makeup day

        // The next day 2031 is looked for again, and 2032 checked: unchanged, nothing is said twice.
        clock.advance(by: 86_400)
        #expect(waitUntil(seconds: 30) {
            lines.withLock { $0 }.filter { $0.contains("not published yet at \(source): 2031") }.count == 2
        }, "\(lines.withLock { $0 })")
        #expect(waitUntil(seconds: 30) { daemon.queue.sync { !daemon.fetchingHolidays } })
        #expect(notifier.notices.withLock { $0.count } == 2)

        // The notice is amended: the makeup Saturday dropped. The next day's check brings it, and says so.
        let amended = String(decoding: Self.notice2032, as: UTF8.self)
            .replacingOccurrences(of: ",\n  {\"name\": \"元旦\", \"date\": \"2032-01-03\", \"isOffDay\": false}", with: "")
        #expect(amended.utf8.count < Self.notice2032.count)
        try Data(amended.utf8).write(to: URL(fileURLWithPath: source + "/2032.json"))
        clock.advance(by: 86_400)
        #expect(waitUntil(seconds: 30) { notifier.notices.withLock { $0.count } == 3 }, "\(lines.withLock { $0 })")
        #expect(notifier.notices.withLock { $0 }.last == .holidayDataChanged(region: "cn", year: 2032, offDays: 2, makeupWorkdays: 0))
        #expect(try !store.workdayCalendar().isWorkday(try #require(CivilDate(year: 2032, month: 1, day: 3))))
    }

    @Test("with the source off, or for a region that has none, nothing is fetched and nothing is retried")
    func nothingToFetch() throws {
        let scratch = TemporaryFolder("chime-holiday-off")
        let storePath = scratch.appending("chime.db")
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
        let folder = scratch.appending("holidays")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.notice2032).write(to: URL(fileURLWithPath: folder + "/2032.json"))
        try store.setHolidayUpdateSource(.given(folder))
        let refresher = HolidayRefresher(machineZone: { .utc })
        // Another region: no source, no failure.
        #expect(refresher.fetch(years: [2032], region: "zz", storePath: storePath, log: { _ in })?.isEmpty == true)
        try store.setHolidayUpdateSource(.off)
        #expect(refresher.fetch(years: [2032], region: "cn", storePath: storePath, log: { _ in })?.isEmpty == true)
        #expect(try !store.workdayCalendar().hasData(forYear: 2032))
        // Back on: the same call imports it.
        try store.setHolidayUpdateSource(.given(folder))
        #expect(refresher.fetch(years: [2032], region: "cn", storePath: storePath, log: { _ in })?.map(\.kind) == [.new])
        #expect(try store.workdayCalendar().hasData(forYear: 2032))
    }
}
