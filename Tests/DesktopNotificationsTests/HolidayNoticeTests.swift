import AlarmScheduler
import CalendarModel
import CalendarStore
import DesktopNotifications
import Foundation
import HolidayCalendars
import Synchronization
import TestSupport
import Testing

extension DesktopNotifierTests {
    /// The daemon's notice of missing holiday data, from a daemon in this
    /// process (its clock passed in) to the tests' dunst. Region ZZ has data
    /// for 2030 alone, imported here: nothing depends on the bundled years
    /// or on today's date.
    @Suite("the missing-holiday-data notice on the desktop")
    struct HolidayNotice {
        let server: NotificationServer
        let fixture: StoreFixture
        let store: CalendarStore

        init() throws {
            server = try NotificationServer.shared.get()
            try server.reset()
            fixture = try StoreFixture.daemonFolder("chime-holiday-notice")
            store = try fixture.open()
            let source = HolidaySource(format: .holidayCNJSON, location: "test")
            _ = try store.importHolidayYears([try HolidayYear(region: "zz", year: 2030, entries: [
                HolidayEntry(date: CivilDate(year: 2030, month: 1, day: 1)!, isOffDay: true, name: "New Year"),
            ], source: source)])
            try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Clock in",
                                    due: .zoned(LocalDateTime(date: CivilDate(year: 2030, month: 12, day: 2)!, hour: 8, minute: 50)!, zone: "UTC"),
                                    recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=ZZ"),
                                    alarms: [Alarm(trigger: .relative(seconds: 0))]))
        }

        /// Runs a daemon in this process whose clock reads `now` (Unix
        /// seconds), and stops it: its start runs the first wake, which
        /// shows the notice.
        func runDaemon(at now: Double, language: NotificationLanguage = .english) throws -> [String] {
            var options = Daemon.Options(storePath: fixture.path, runtimeFolder: fixture.runtime + "/chime")
            options.handlesSignals = false
            options.machineZone = { .utc }
            options.clock = ManualClock(now: now)
            let lines = Mutex<[String]>([])
            // A notifier of its own, so that the server's answers stay with the server's.
            var desktop = server.notifier.options
            desktop.language = language
            let daemon = Daemon(options: options, notifier: DesktopNotifier(options: desktop),
                                log: { line in lines.withLock { $0.append(line) } })
            try daemon.start()
            daemon.shutdown()
            return lines.withLock { $0 }
        }

        /// How many notices of 2031 earlier tests of this process showed (the bus log is the process's).
        func shownBefore() -> Int {
            server.notifyCalls().filter { $0.summary == "No holiday data for 2031 (zz)" && $0.returnedID != nil }.count
        }

        @Test("in December, with next year's data missing, one desktop notice says so and how to fix it; not again after a restart")
        func december() throws {
            let earlier = shownBefore()
            // 2030-12-01T09:00:00Z
            let log = try runDaemon(at: 1_922_346_000)
            let call = try #require(server.notify(summary: "No holiday data for 2031 (zz)", skipping: earlier, within: 30), "chimed: \(log)")
            #expect(call.body.contains("chime holidays update"), "\(call.body)")
            #expect(call.hints["category"] == "x-chime.notice")
            #expect(log.contains { $0.hasPrefix("chimed: notice: No holiday data for 2031 (zz)") }, "chimed: \(log)")
            // The same December, started again: remembered in the store.
            // 2030-12-15T09:00:00Z
            let again = try runDaemon(at: 1_923_555_600)
            #expect(server.notify(summary: "No holiday data for 2031 (zz)", skipping: earlier + 1, within: 0.5) == nil)
            #expect(!again.contains { $0.contains("No holiday data") }, "chimed: \(again)")
        }

        @Test("under a Chinese locale the notice is in Chinese on the desktop, in English in the log")
        func chinese() throws {
            let summary = "缺少 2031 年的节假日数据（zz）"
            let earlier = server.notifyCalls().filter { $0.summary == summary && $0.returnedID != nil }.count
            // 2030-12-01T09:00:00Z
            let log = try runDaemon(at: 1_922_346_000, language: .simplifiedChinese)
            let call = try #require(server.notify(summary: summary, skipping: earlier, within: 30), "chimed: \(log)")
            #expect(call.body == "在导入数据之前，2031 年的工作日规则按普通的一周计算；运行 'chime holidays update' 获取")
            #expect(log.contains { $0.hasPrefix("chimed: notice: No holiday data for 2031 (zz)") }, "chimed: \(log)")
        }

        @Test("before December, next year's data missing is no news: no notice")
        func june() throws {
            let earlier = shownBefore()
            // 2030-06-16T09:00:00Z
            let log = try runDaemon(at: 1_907_830_800)
            #expect(server.notify(summary: "No holiday data for 2031 (zz)", skipping: earlier, within: 0.5) == nil)
            #expect(!log.contains { $0.contains("No holiday data") }, "chimed: \(log)")
        }
    }
}
