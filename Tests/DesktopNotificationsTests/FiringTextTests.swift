@testable import AlarmScheduler
import CalendarModel
@testable import DesktopNotifications
import RecurrenceEngine
import Testing

/// Makes firings the way the planner does, for the text tests and the end-to-end ones.
enum Firings {
    static let shanghai = try! TimeZoneRules.named("Asia/Shanghai")

    /// A timed occurrence at a wall-clock time in Shanghai (UTC+8, no DST).
    static func timed(_ title: String, at local: String, kind: ItemKind = .event, alarmOffset: Int64 = 0,
                      location: String = "", notes: String = "", alarm: Alarm = .relative(seconds: 0)) -> Firing {
        let time = LocalDateTime(parsing: local)!
        let instant = time.localSeconds - 8 * 3600
        let occurrence = Occurrence(instant: instant, utcOffset: 8 * 3600, scheduledTime: time, isAllDay: false)
        return Firing(instant: instant + alarmOffset, alarm: alarm, kind: kind, itemIdentifier: .random(), title: title,
                      occurrence: occurrence, explanation: nil, snoozedFrom: nil, location: location, notes: notes)
    }

    static func allDay(_ title: String, on day: String) -> Firing {
        let time = LocalDateTime(parsing: day + "T00:00:00")!
        let occurrence = Occurrence(instant: time.localSeconds - 8 * 3600, utcOffset: 8 * 3600, scheduledTime: time, isAllDay: true)
        return Firing(instant: occurrence.instant - 3600, alarm: .relative(seconds: -3600), kind: .reminder,
                      itemIdentifier: .random(), title: title, occurrence: occurrence)
    }

    /// Unix seconds of a Shanghai wall-clock time.
    static func instant(_ local: String) -> Int64 { LocalDateTime(parsing: local)!.localSeconds - 8 * 3600 }
}

@Suite("What a notification says: escaped markup, when, where, notes")
struct FiringTextTests {
    let zone = Firings.shanghai

    @Test("&, < and > are escaped for the body markup; quotes and other text pass through")
    func escaping() {
        #expect(FiringText.escapeMarkup("<b>Tom & Jerry</b> \"quoted\" 'single' 下班") ==
                "&lt;b&gt;Tom &amp; Jerry&lt;/b&gt; \"quoted\" 'single' 下班")
        #expect(FiringText.escapeMarkup("&amp;") == "&amp;amp;")
        #expect(FiringText.escapeMarkup("a\u{0}b") == "a\u{FFFD}b")
    }

    @Test("the body is when, then location, then notes, one line each, each escaped")
    func bodyLines() {
        // 2026-12-01 is a Tuesday.
        let firing = Firings.timed("Stand-up", at: "2026-12-01T08:50:00", location: "Room 3 & <lobby>",
                                   notes: "  bring the R&D slides\n")
        let body = FiringText.body(for: firing, late: false, zone: zone, now: Firings.instant("2026-12-01T08:50:00"))
        #expect(body == "Tue 1 Dec 08:50\nRoom 3 &amp; &lt;lobby&gt;\nbring the R&amp;D slides")
    }

    @Test("an empty location or notes leaves no empty line")
    func emptyPieces() {
        let firing = Firings.timed("Stand-up", at: "2026-12-01T08:50:00", notes: "notes only")
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: Firings.instant("2026-12-01T08:00:00")) ==
                "Tue 1 Dec 08:50\nnotes only")
    }

    @Test("the time is the occurrence's, not the alarm's: an alarm 10 minutes early still shows 09:00")
    func occurrenceTime() {
        let firing = Firings.timed("Review", at: "2026-12-01T09:00:00", alarmOffset: -600)
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant) == "Tue 1 Dec 09:00")
    }

    @Test("times are read in the zone passed in: 08:50 in Shanghai is 01:50 in Berlin (UTC+1 in December)")
    func zonePassedIn() throws {
        let berlin = try TimeZoneRules.named("Europe/Berlin")
        let firing = Firings.timed("Stand-up", at: "2026-12-01T08:50:00")
        #expect(FiringText.body(for: firing, late: false, zone: berlin, now: firing.instant) == "Tue 1 Dec 01:50")
    }

    @Test("a late firing from today says 'missed, was due 08:50'; from another day it names the day")
    func late() {
        let firing = Firings.timed("Stand-up", at: "2026-12-01T08:50:00")
        #expect(FiringText.body(for: firing, late: true, zone: zone, now: Firings.instant("2026-12-01T11:00:00")) ==
                "missed, was due 08:50")
        // Seen the next morning, 2026-12-02.
        #expect(FiringText.body(for: firing, late: true, zone: zone, now: Firings.instant("2026-12-02T07:30:00")) ==
                "missed, was due Tue 1 Dec 08:50")
    }

    @Test("an all-day occurrence shows its day alone; another year adds the year")
    func allDayAndYear() {
        let firing = Firings.allDay("Pay rent", on: "2027-01-05") // a Tuesday
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: Firings.instant("2026-12-31T10:00:00")) ==
                "Tue 5 Jan 2027")
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: Firings.instant("2027-01-04T23:00:00")) ==
                "Tue 5 Jan")
        #expect(FiringText.body(for: firing, late: true, zone: zone, now: Firings.instant("2027-01-05T09:00:00")) ==
                "missed, was due Tue 5 Jan")
    }

    @Test("an absolute alarm, with no occurrence, shows its own instant")
    func absoluteAlarm() {
        var firing = Firings.timed("Call back", at: "2026-12-01T15:05:00")
        firing.occurrence = nil
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant) == "Tue 1 Dec 15:05")
    }

    @Test("a location alarm's body says which crossing and when, escaped: 'left Tom &amp; Jerry's at 17:32'")
    func crossing() {
        var firing = Firings.timed("Buy milk", at: "2026-12-01T17:32:00", kind: .reminder, notes: "2 litres")
        firing.occurrence = nil
        firing.crossing = "leave@\(firing.instant)"
        firing.crossingPlace = "Tom & Jerry's"
        firing.explanation = "left Tom & Jerry's"
        // 2026-12-01T17:32:00+08:00, shown the same day.
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant + 5) == "left Tom &amp; Jerry's at 17:32\n2 litres")
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant + 5, language: .simplifiedChinese)
                == "17:32 离开 Tom &amp; Jerry's\n2 litres")
        firing.crossing = "enter@\(firing.instant)"
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant + 5) == "arrived at Tom &amp; Jerry's at 17:32\n2 litres")
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant + 86_400, language: .traditionalChinese)
                == "12月1日 週二 17:32 到達 Tom &amp; Jerry's\n2 litres")
        // A record of an earlier version has the English text alone, and shows it.
        firing.crossingPlace = nil
        firing.explanation = "arrived at Tom & Jerry's"
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant + 5, language: .simplifiedChinese)
                == "arrived at Tom &amp; Jerry's at 17:32\n2 litres")
    }

    @Test("a snoozed location firing, ringing ten minutes on, still says 'left Office at 17:32': the crossing's time, not the snooze's")
    func snoozedCrossing() {
        var firing = Firings.timed("Buy milk", at: "2026-12-01T17:32:00", kind: .reminder)
        let left = firing.instant
        firing.occurrence = nil
        firing.crossing = "leave@\(left)"
        firing.crossingPlace = "Office"
        firing.explanation = "left Office"
        // Snoozed: rings again at 2026-12-01T17:42:00+08:00.
        firing.snoozedFrom = FiringKey(alarm: firing.alarm.identifier, occurrence: .crossing(.leave, left))
        firing.instant = left + 600
        #expect(FiringText.body(for: firing, late: false, zone: zone, now: firing.instant) == "left Office at 17:32")
    }

    @Test("the summary is the title as plain text (the spec gives it no markup); an empty title becomes '(untitled)'")
    func summary() {
        #expect(FiringText.summary(for: Firings.timed("<b>&", at: "2026-12-01T08:50:00")) == "<b>&")
        #expect(FiringText.summary(for: Firings.timed("  ", at: "2026-12-01T08:50:00")) == "(untitled)")
    }

    @Test("in Chinese, the notification's own words: the day as 12月1日 周二, the year when another, 已错过 for a late one, the buttons; the item's words as written",
          arguments: [
              (NotificationLanguage.simplifiedChinese, ["12月1日 周二 08:50", "已错过，原定 08:50", "已错过，原定 2026年12月1日 周二 08:50", "（无标题）",
                                                        "10分钟后提醒", "2小时后提醒", "90秒后提醒", "打开 完成 关闭", "再次显示：上次显示时 chimed 已停止"]),
              (NotificationLanguage.traditionalChinese, ["12月1日 週二 08:50", "已錯過，原定 08:50", "已錯過，原定 2026年12月1日 週二 08:50", "（無標題）",
                                                         "10分鐘後提醒", "2小時後提醒", "90秒後提醒", "打開 完成 關閉", "再次顯示：上次顯示時 chimed 已停止"]),
          ])
    func chineseWords(language: NotificationLanguage, expected: [String]) {
        let firing = Firings.timed("交周报", at: "2026-12-01T08:50:00", kind: .reminder, notes: "发给 <王经理>")
        var interrupted = firing
        interrupted.interrupted = true
        let sameDay = Firings.instant("2026-12-01T11:00:00"), yearOn = Firings.instant("2027-12-01T09:00:00")
        let labels = DesktopNotifier.actions(for: .reminder, snoozeSeconds: 600, language: language).filter { $0.id != "snooze" }.map(\.label)
        #expect([
            FiringText.body(for: firing, late: false, zone: zone, now: sameDay, language: language),
            FiringText.body(for: firing, late: true, zone: zone, now: sameDay, language: language),
            FiringText.body(for: firing, late: true, zone: zone, now: yearOn, language: language),
            FiringText.summary(for: Firings.timed(" ", at: "2026-12-01T08:50:00"), language: language),
            FiringText.snoozeLabel(seconds: 600, language: language), FiringText.snoozeLabel(seconds: 7200, language: language),
            FiringText.snoozeLabel(seconds: 90, language: language), labels.joined(separator: " "),
            FiringText.body(for: interrupted, late: false, zone: zone, now: sameDay, language: language).split(separator: "\n")[1].description,
        ] == expected.enumerated().map { index, line in index < 3 ? line + "\n发给 &lt;王经理&gt;" : line })
        #expect(FiringText.summary(for: firing, language: language) == "交周报")
        // An all-day one: the day alone.
        #expect(FiringText.body(for: Firings.allDay("年会", on: "2027-01-22"), late: false, zone: zone, now: sameDay, language: language)
                == "2027年1月22日 " + (language == .simplifiedChinese ? "周五" : "週五"))
    }

    @Test("an item that repeats by the Chinese calendar gives the occurrence's Chinese date beside its time (妈妈生日 2027-04-14, 农历三月初八; 腊月 in 2027-01-08's traditional script)",
          arguments: [
              (NotificationLanguage.english, "Wed 14 Apr 2027 09:00 (lunar 3/8)", "Fri 8 Jan 2027 (lunar 12/1)"),
              (NotificationLanguage.simplifiedChinese, "2027年4月14日 周三 09:00（农历三月初八）", "2027年1月8日 周五（农历腊月初一）"),
              (NotificationLanguage.traditionalChinese, "2027年4月14日 週三 09:00（農曆三月初八）", "2027年1月8日 週五（農曆臘月初一）"),
          ])
    func chineseCalendarDate(language: NotificationLanguage, timed: String, allDay: String) {
        var birthday = Firings.timed("妈妈生日", at: "2027-04-14T09:00:00", kind: .reminder)
        birthday.countsInChineseCalendar = true
        let now = Firings.instant("2026-12-07T10:00:00")
        #expect(FiringText.body(for: birthday, late: false, zone: zone, now: now, language: language) == timed)
        var firstDay = Firings.allDay("初一", on: "2027-01-08")
        firstDay.countsInChineseCalendar = true
        #expect(FiringText.body(for: firstDay, late: false, zone: zone, now: now, language: language) == allDay)
        // Other items say nothing of it.
        birthday.countsInChineseCalendar = false
        let plain = FiringText.body(for: birthday, late: false, zone: zone, now: now, language: language)
        #expect(!plain.contains("lunar") && !plain.contains("农历") && !plain.contains("農曆"))
    }

    @Test("the language is the messages locale's: LC_ALL, else LC_MESSAGES, else LANG, with LANGUAGE first unless C; English for any other",
          arguments: [
              (["LANG": "zh_CN.UTF-8"], NotificationLanguage.simplifiedChinese), (["LANG": "zh_TW.UTF-8"], .traditionalChinese),
              (["LANG": "zh_HK.Big5-HKSCS"], .traditionalChinese), (["LANG": "zh_SG.UTF-8"], .simplifiedChinese),
              (["LANG": "en_GB.UTF-8"], .english), (["LANG": "fr_FR.UTF-8"], .english), ([:], .english), (["LANG": "C.UTF-8"], .english),
              (["LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"], .simplifiedChinese),
              (["LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"], .english),
              (["LC_ALL": "", "LANG": "zh_CN.UTF-8"], .simplifiedChinese),
              (["LANG": "zh_CN.UTF-8", "LANGUAGE": "zh_TW:zh_CN:en"], .traditionalChinese),
              (["LANG": "zh_CN.UTF-8", "LANGUAGE": "fr:de"], .simplifiedChinese), (["LANG": "de_DE.UTF-8", "LANGUAGE": "fr:zh_CN"], .simplifiedChinese),
              (["LANG": "C", "LANGUAGE": "zh_CN"], .english), (["LANG": "zh_CN.UTF-8@latin"], .simplifiedChinese),
          ] as [([String: String], NotificationLanguage)])
    func languageFromTheEnvironment(environment: [String: String], expected: NotificationLanguage) {
        #expect(NotificationLanguage(environment: environment) == expected)
        #expect(DesktopNotifier.Options(environment: environment).language == expected)
    }

    @Test("the daemon's notices in each language: English as the log says them, Chinese in either script", arguments: [
        (DaemonNotice.missingHolidayData(region: "cn", year: 2027), ["No holiday data for 2027 (cn)", "缺少 2027 年的节假日数据（cn）", "缺少 2027 年的節假日資料（cn）"],
         ["workday rules follow the ordinary week in 2027 until its data is in; 'chime holidays update' fetches it",
          "在导入数据之前，2027 年的工作日规则按普通的一周计算；运行 'chime holidays update' 获取",
          "在匯入資料之前，2027 年的工作日規則按普通的一週計算；執行 'chime holidays update' 取得"]),
        (.holidayDataArrived(region: "cn", year: 2027, offDays: 33, makeupWorkdays: 7),
         ["Holiday data for 2027 is in (cn)", "2027 年的节假日数据已获取（cn）", "2027 年的節假日資料已取得（cn）"],
         ["33 days off and 7 makeup workdays; workday reminders in 2027 follow them, and 'chime holidays --year 2027' lists them",
          "33 天休息日，7 天调休补班；2027 年的工作日提醒按此计算，'chime holidays --year 2027' 会列出",
          "33 天休息日，7 天調休補班；2027 年的工作日提醒按此計算，'chime holidays --year 2027' 會列出"]),
        (.holidayDataChanged(region: "cn", year: 2026, offDays: 32, makeupWorkdays: 6),
         ["Holiday data for 2026 changed (cn)", "2026 年的节假日数据有变（cn）", "2026 年的節假日資料有變（cn）"],
         ["32 days off and 6 makeup workdays; workday reminders in 2026 follow them, and 'chime holidays --year 2026' lists them",
          "32 天休息日，6 天调休补班；2026 年的工作日提醒按此计算，'chime holidays --year 2026' 会列出",
          "32 天休息日，6 天調休補班；2026 年的工作日提醒按此計算，'chime holidays --year 2026' 會列出"]),
        (.syncConflicts(count: 2), ["Sync: 2 items were changed on both sides", "同步：2 个项目在两端都被修改", "同步：2 個項目在兩端都被修改"],
         ["the server's version is kept; Chime's is kept aside, and 'chime sync --status' lists it",
          "保留服务器上的版本；Chime 的版本另存，'chime sync --status' 会列出", "保留伺服器上的版本；Chime 的版本另存，'chime sync --status' 會列出"]),
        (.calendarKeptWhole(calendar: "手机"), ["Sync: 手机 kept", "同步：保留了 手机", "同步：保留了 手机"],
         ["the server lists none of its items any more, so nothing was removed here; if it was emptied on purpose, 'chime sync --allow-emptying' empties it here too",
          "服务器上已没有它的任何项目，因此这里没有删除任何内容；如果是有意清空，'chime sync --allow-emptying' 也会清空这里",
          "伺服器上已沒有它的任何項目，因此這裡沒有刪除任何內容；如果是有意清空，'chime sync --allow-emptying' 也會清空這裡"]),
    ] as [(DaemonNotice, [String], [String])])
    func notices(notice: DaemonNotice, titles: [String], bodies: [String]) {
        let languages: [NotificationLanguage] = [.english, .simplifiedChinese, .traditionalChinese]
        #expect(languages.map { $0.title(of: notice) } == titles)
        #expect(languages.map { $0.body(of: notice) } == bodies)
        #expect(notice.title == titles[0] && notice.body == bodies[0])
    }

    @Test("Snooze is labelled with its length")
    func snoozeLabel() {
        #expect(FiringText.snoozeLabel(seconds: 600) == "Snooze 10 min")
        #expect(FiringText.snoozeLabel(seconds: 7200) == "Snooze 2 h")
        #expect(FiringText.snoozeLabel(seconds: 90) == "Snooze 90 s")
    }

    @Test("reminders get Done, events and read-only reminders do not; every firing gets the default action, Snooze and Dismiss")
    func actions() {
        let event = DesktopNotifier.actions(for: .event, snoozeSeconds: 300).map(\.id)
        let reminder = DesktopNotifier.actions(for: .reminder, snoozeSeconds: 300)
        #expect(event == ["default", "snooze", "dismiss"])
        #expect(reminder.map(\.id) == ["default", "snooze", "done", "dismiss"])
        #expect(reminder[1].response == .snooze(seconds: 300))
        // A read-only calendar's reminder cannot be completed here.
        #expect(DesktopNotifier.actions(for: .reminder, readOnly: true, snoozeSeconds: 300).map(\.id) == ["default", "snooze", "dismiss"])
    }
}

@Suite("Finding the session bus without ever autolaunching one")
struct SessionBusTests {
    @Test("DBUS_SESSION_BUS_ADDRESS wins; else $XDG_RUNTIME_DIR/bus when it exists; else no bus")
    func resolution() throws {
        let exists: (String) -> Bool = { $0 == "/run/user/1000/bus" }
        #expect(try SessionBus.address(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/tmp/b",
                                                     "XDG_RUNTIME_DIR": "/run/user/1000"], fileExists: exists).get() == "unix:path=/tmp/b")
        #expect(try SessionBus.address(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], fileExists: exists).get() ==
                "unix:path=/run/user/1000/bus")
        #expect(throws: NotificationError.self) {
            try SessionBus.address(environment: ["XDG_RUNTIME_DIR": "/run/user/1001"], fileExists: exists).get()
        }
        #expect(throws: NotificationError.self) { try SessionBus.address(environment: [:], fileExists: exists).get() }
    }

    @Test("an address that asks for autolaunch counts as no bus")
    func autolaunchRefused() {
        let result = SessionBus.address(environment: ["DBUS_SESSION_BUS_ADDRESS": "autolaunch:"], fileExists: { _ in true })
        guard case .failure(.noBus(let reason)) = result else {
            Issue.record("expected noBus, got \(result)")
            return
        }
        #expect(reason.contains("autolaunch"))
    }

    @Test("odd bytes in the runtime folder are %-escaped in the address")
    func escaping() throws {
        #expect(try SessionBus.address(environment: ["XDG_RUNTIME_DIR": "/run/my user;x"], fileExists: { _ in true }).get() ==
                "unix:path=/run/my%20user%3Bx/bus")
    }
}
