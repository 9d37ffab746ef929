@testable import AlarmScheduler
import CalendarModel
import DesktopNotifications
import Foundation
import Synchronization
import TestSupport
import Testing

/// The real notifier, through real libnotify and a real session bus, to a
/// real dunst (contrib/notification-server), read back with dbus-monitor
/// and answered through dunstctl. These fail, not skip, when dunst or Xvfb
/// is missing: contrib/setup installs them.
@Suite("Desktop notifications through libnotify to dunst", .serialized)
struct DesktopNotifierTests {
    let server: NotificationServer

    init() throws {
        server = try NotificationServer.shared.get()
        try server.reset()
    }

    @Test("summary, body, urgency, actions and hints arrive as sent")
    func arrives() throws {
        let firing = Firings.timed("Stand-up", at: "2026-12-01T08:50:00", location: "Room 3", notes: "bring slides")
        try server.notifier.show(firing, late: false)
        let call = try #require(server.notify(summary: "Stand-up"))
        #expect(call.appName == "Chime")
        #expect(call.replacesID == 0)
        #expect(call.body == "Tue 1 Dec 08:50\nRoom 3\nbring slides")
        #expect(Set(call.actions.map { "\($0.id)=\($0.label)" }) == ["default=Open", "snooze=Snooze 10 min", "dismiss=Dismiss"])
        #expect(call.hints["urgency"] == "2") // critical
        #expect(call.hints["category"] == "x-chime.alarm")
        #expect(call.hints["desktop-entry"] == "chime")
        #expect(call.hints["sound-name"] == "alarm-clock-elapsed")
        // libnotify 0.8.1 sends the icon as app_icon; later ones as the image-path hint.
        #expect(call.icon == "chime" || call.hints["image-path"] == "chime")
    }

    @Test("a reminder gets Done; a late one says it was missed")
    func reminderLate() throws {
        let firing = Firings.timed("Pay rent", at: "2026-12-01T08:50:00", kind: .reminder)
        try server.notifier.show(firing, late: true)
        let call = try #require(server.notify(summary: "Pay rent"))
        #expect(call.actions.map(\.id).contains("done"))
        #expect(call.body.hasPrefix("missed, was due "))
    }

    @Test("a late firing's body reads now from the notifier's clock: its day left out on its own day, its year given a year on")
    func bodyNowFromTheClock() throws {
        // The shared notifier's clock reads 2026-12-01T09:00:00Z, the firing's day in Shanghai.
        try server.notifier.show(Firings.timed("Rent, that day", at: "2026-12-01T08:50:00", kind: .reminder), late: true)
        #expect(try #require(server.notify(summary: "Rent, that day")).body.hasPrefix("missed, was due 08:50"))
        var options = server.notifier.options
        options.clock = ManualClock(now: 1_827_651_600)   // 2027-12-01T09:00:00Z
        try DesktopNotifier(options: options).show(Firings.timed("Rent, a year on", at: "2026-12-01T08:50:00", kind: .reminder), late: true)
        #expect(try #require(server.notify(summary: "Rent, a year on")).body.hasPrefix("missed, was due Tue 1 Dec 2026 08:50"))
    }

    @Test("in Chinese, the buttons, the day and 'missed' arrive in Chinese; the title as written")
    func chinese() throws {
        var options = server.notifier.options
        options.language = .simplifiedChinese
        let notifier = DesktopNotifier(options: options)
        try notifier.show(Firings.timed("打卡", at: "2026-12-01T08:50:00", kind: .reminder, location: "公司"), late: true)
        let call = try #require(server.notify(summary: "打卡"))
        #expect(call.body == "已错过，原定 08:50\n公司")
        #expect(Set(call.actions.map { "\($0.id)=\($0.label)" }) == ["default=打开", "snooze=10分钟后提醒", "done=完成", "dismiss=关闭"])
        try notifier.show(Firings.timed("周会", at: "2026-12-02T10:00:00"), late: false)
        #expect(try #require(server.notify(summary: "周会")).body == "12月2日 周三 10:00")
    }

    @Test("a title '<b>&' arrives as it is in the summary, and markup in the body arrives escaped")
    func escaped() throws {
        let firing = Firings.timed("<b>&", at: "2026-12-01T08:50:00", location: "Tom & <Jerry>", notes: "a<b")
        try server.notifier.show(firing, late: false)
        let call = try #require(server.notify(summary: "<b>&"))
        #expect(call.body == "Tue 1 Dec 08:50\nTom &amp; &lt;Jerry&gt;\na&lt;b")
    }

    @Test("showing a firing with the same root key again replaces the first notification")
    func replaces() throws {
        let first = Firings.timed("Replace me", at: "2026-12-01T08:50:00")
        try server.notifier.show(first, late: false)
        let shown = try #require(server.notify(summary: "Replace me"))
        var again = first
        again.snoozedFrom = first.firingKey
        again.instant += 600
        try server.notifier.show(again, late: false)
        let second = try #require(server.notify(summary: "Replace me", skipping: 1))
        #expect(shown.replacesID == 0)
        #expect(second.replacesID == shown.returnedID)
        #expect(second.returnedID == shown.returnedID)
    }

    @Test("choosing an action in dunst's context menu reports it with the key of the firing shown",
          arguments: [("snooze", NotificationResponse.snooze(seconds: 600)), ("done", .done), ("dismiss", .dismiss)])
    func contextMenu(action: String, expected: NotificationResponse) throws {
        let firing = Firings.timed("Menu \(action)", at: "2026-12-01T08:50:00", kind: .reminder)
        try server.notifier.show(firing, late: false)
        let id = try #require(server.notify(summary: "Menu \(action)")?.returnedID)
        try server.chooseInMenu("[\(id),\(action)]")
        try server.openContextMenu()
        #expect(server.response(for: firing.key) == expected)
        // One answer, reported once (dunst leaves it on screen; closing it is the daemon's part).
        usleep(200_000)
        #expect(server.responses.withLock { $0.filter { $0.key == firing.key }.count } == 1)
    }

    @Test("an answer to a replaced notification carries the key of the firing shown now")
    func answerAfterReplace() throws {
        let first = Firings.timed("Snoozed once", at: "2026-12-01T08:50:00")
        try server.notifier.show(first, late: false)
        var again = first
        again.snoozedFrom = first.firingKey
        again.instant += 600
        try server.notifier.show(again, late: false)
        let id = try #require(server.notify(summary: "Snoozed once", skipping: 1)?.returnedID)
        try server.chooseInMenu("[\(id),dismiss]")
        try server.openContextMenu()
        #expect(server.response(for: again.key) == .dismiss)
        #expect(server.responses.withLock { $0.contains { $0.key == first.key } } == false)
    }

    @Test("dunstctl action 0 (a click) reports .open")
    func defaultAction() throws {
        let firing = Firings.timed("Click me", at: "2026-12-01T08:50:00")
        try server.notifier.show(firing, late: false)
        _ = try #require(server.notify(summary: "Click me"))
        try server.dunstctl("action", "0")
        #expect(server.response(for: firing.key) == .open)
    }

    @Test("closing it in dunst without an answer reports .closed")
    func closedByPerson() throws {
        let firing = Firings.timed("Close me", at: "2026-12-01T08:50:00")
        try server.notifier.show(firing, late: false)
        _ = try #require(server.notify(summary: "Close me"))
        try server.dunstctl("close")
        #expect(server.response(for: firing.key) == .closed)
    }

    @Test("withdraw closes it on the server, and reports nothing")
    func withdraw() throws {
        let firing = Firings.timed("Withdraw me", at: "2026-12-01T08:50:00")
        try server.notifier.show(firing, late: false)
        let id = try #require(server.notify(summary: "Withdraw me")?.returnedID)
        server.notifier.withdraw(key: firing.key)
        #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(id) })
        usleep(200_000)
        #expect(server.response(for: firing.key, within: 0) == nil)
    }

    @Test("present says which notification shows a firing; a second notifier (a process started again) shows it in place, quietly, and its answers reach that notifier")
    func takenBack() throws {
        let firing = Firings.timed("Taken back", at: "2026-12-01T08:50:00", kind: .reminder)
        let shown = try #require(try server.notifier.present(firing, late: false, replacing: nil))
        let first = try #require(server.notify(summary: "Taken back"))
        #expect(shown.id == first.returnedID)
        let later = DesktopNotifier(options: server.notifier.options)
        let answers = Mutex<[NotificationResponse]>([])
        later.onResponse { key, response in if key == firing.key { answers.withLock { $0.append(response) } } }
        let again = try #require(try later.present(firing, late: false, replacing: shown))
        #expect(again == shown)
        let call = try #require(server.notify(summary: "Taken back", skipping: 1))
        #expect(call.replacesID == shown.id)
        #expect(call.hints["sound-name"] == nil)
        try server.chooseInMenu("[\(shown.id),done]")
        try server.openContextMenu()
        #expect(waitUntil(seconds: 30) { answers.withLock { $0 } == [.done] })
        later.withdraw(key: firing.key)
        #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(shown.id) })
    }

    @Test("an id another server gave (one started since) is not replaced: the firing is shown anew")
    func otherServersID() throws {
        let firing = Firings.timed("Other server", at: "2026-12-01T08:50:00")
        let shown = try #require(try server.notifier.present(firing, late: false, replacing: ShownNotificationID(id: 1, server: ":9.999")))
        let call = try #require(server.notify(summary: "Other server"))
        #expect(call.replacesID == 0)
        #expect(call.returnedID == shown.id)
    }

    @Test("close takes an earlier process's notification off the server by its id")
    func closeByID() throws {
        let firing = Firings.timed("Close by id", at: "2026-12-01T08:50:00")
        let shown = try #require(try server.notifier.present(firing, late: false, replacing: nil))
        DesktopNotifier(options: server.notifier.options).close(shown)
        #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(shown.id) })
        #expect(waitUntil(seconds: 30) { (try? server.displayed()) == 0 })
        // Another server's id is left alone.
        let other = try #require(try server.notifier.present(Firings.timed("Not ours", at: "2026-12-01T08:50:00"), late: false, replacing: nil))
        DesktopNotifier(options: server.notifier.options).close(ShownNotificationID(id: other.id, server: ":9.999"))
        usleep(300_000)
        #expect(!server.busLog().closeCalls.contains(other.id))
    }

    @Test("no bus at all: show throws at once, without touching GLib")
    func noBus() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("chime-no-bus-\(UUID().uuidString)").path
        var options = DesktopNotifier.Options(environment: ["XDG_RUNTIME_DIR": empty, "DISPLAY": ":0"])
        options.watchdog = 1
        let started = Date()
        #expect(throws: NotificationError.self) {
            try DesktopNotifier(options: options).show(Firings.timed("Nobody", at: "2026-12-01T08:50:00"), late: false)
        }
        // Before its watchdog could end a wait: nothing was waited on.
        #expect(Date().timeIntervalSince(started) < options.watchdog)
    }

    @Test("a bus address with nothing behind it: show throws quickly, no hang")
    func deadBus() {
        guard case .busUnreachable? = server.deadBus.error else {
            Issue.record("expected busUnreachable, got \(String(describing: server.deadBus.error))")
            return
        }
        // Before its watchdog (3 s) could end a wait: GLib failed by itself.
        #expect(server.deadBus.seconds < 3)
    }

    @Test("dunst gone: show throws within the watchdog; dunst back: show works again")
    func serverAwayAndBack() throws {
        let stop = Date()
        try server.script("stop-dunst")
        print("DesktopNotificationsTests: dunst stopped in \(NotificationServer.milliseconds(Date().timeIntervalSince(stop))) ms")
        defer { try? server.script("start-dunst") }
        let started = Date()
        #expect(throws: NotificationError.self) {
            try server.notifier.show(Firings.timed("While away", at: "2026-12-01T08:50:00"), late: false)
        }
        let seconds = Date().timeIntervalSince(started)
        // The watchdog ends it, on a loaded machine some time after: not a hang.
        #expect(seconds < NotificationServer.watchdog + 10)
        print("DesktopNotificationsTests: with dunst gone, show threw after \(NotificationServer.milliseconds(seconds)) ms")
        let restart = Date()
        try server.script("start-dunst")
        print("DesktopNotificationsTests: dunst restarted in \(NotificationServer.milliseconds(Date().timeIntervalSince(restart))) ms")
        try server.notifier.show(Firings.timed("After return", at: "2026-12-01T08:50:00"), late: false)
        #expect(server.notify(summary: "After return") != nil)
    }

    @Test("after the server went away and came back, a firing shown again is new there, not a replacement")
    func serverRestartForgets() throws {
        let firing = Firings.timed("Across a restart", at: "2026-12-01T08:50:00")
        try server.notifier.show(firing, late: false)
        _ = try #require(server.notify(summary: "Across a restart"))
        try server.script("stop-dunst")
        try server.script("start-dunst")
        // The vanish signal reaches the GLib thread on its own time.
        usleep(100_000)
        try server.notifier.show(firing, late: false)
        let again = try #require(server.notify(summary: "Across a restart", skipping: 1))
        #expect(again.replacesID == 0)
    }

    @Test("dunst frozen: show times out at the watchdog, later calls fail at once, and all is well once it thaws")
    func serverFrozen() throws {
        let pid = try #require(server.dunstPID)
        kill(pid, SIGSTOP)
        var thawed = false
        defer { if !thawed { kill(pid, SIGCONT) } }
        let started = Date()
        #expect(throws: NotificationError.timedOut(seconds: NotificationServer.watchdog)) {
            try server.notifier.show(Firings.timed("Frozen", at: "2026-12-01T08:50:00"), late: false)
        }
        let timedOut = Date().timeIntervalSince(started)
        #expect(timedOut >= NotificationServer.watchdog && timedOut < NotificationServer.watchdog + 10)
        let again = Date()
        do {
            try server.notifier.show(Firings.timed("Still frozen", at: "2026-12-01T08:50:00"), late: false)
            Issue.record("a call while the thread is stuck went through")
        } catch NotificationError.stuck {
            // At once: not after another watchdog's wait.
            #expect(Date().timeIntervalSince(again) < NotificationServer.watchdog)
        }
        kill(pid, SIGCONT)
        thawed = true
        // The blocked call gets its answer once dunst runs again, and the thread is free.
        let recovered = waitUntil(seconds: 30) {
            (try? server.notifier.show(Firings.timed("Thawed", at: "2026-12-01T08:50:00"), late: false)) != nil
        }
        #expect(recovered)
        #expect(server.notify(summary: "Thawed") != nil)
    }
}
