import AlarmScheduler
import CalendarModel
import CalendarStore
import DesktopNotifications
import Foundation
import Synchronization
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension DesktopNotifierTests {
    /// The real `chimed` process on a real store file, showing through
    /// libnotify to the tests' dunst. Nested in the serialized suite: one
    /// dunst, one test at a time.
    @Suite("chimed to dunst")
    struct ThroughTheDaemon {
        static let executable = PackagePaths.builtExecutable("chimed")

        let server: NotificationServer
        let fixture: StoreFixture
        var folder: String { fixture.folder }
        let store: CalendarStore

        init() throws {
            server = try NotificationServer.shared.get()
            try server.reset()
            fixture = try StoreFixture.daemonFolder("chimed-dunst")
            store = try fixture.open()
        }

        /// A running chimed; its standard output and error, line by line.
        final class Chimed: @unchecked Sendable {
            let process = Process()
            let output = ChildOutput(), errors = ChildOutput()

            init(store: String, runtime: String, bus: String) throws {
                process.executableURL = URL(fileURLWithPath: ThroughTheDaemon.executable)
                process.arguments = ["--db", store, "--snooze", "2s"]
                process.environment = ["XDG_RUNTIME_DIR": runtime, "DBUS_SESSION_BUS_ADDRESS": bus, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
                process.standardOutput = output.pipe
                process.standardError = errors.pipe
                try process.run()
            }

            var printed: [String] { (output.timedLines + errors.timedLines).sorted { $0.at < $1.at }.map(\.line) }

            func stop() {
                if process.isRunning { kill(process.processIdentifier, SIGTERM) }
                process.waitUntilExit()
            }

            /// Stops it with `signal` and waits until it is gone.
            func stop(with signal: Int32) {
                if process.isRunning { kill(process.processIdentifier, signal) }
                process.waitUntilExit()
            }
        }

        /// Runs the built `chime` on this test's store; its exit status.
        func chime(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: (Self.executable as NSString).deletingLastPathComponent + "/chime")
            process.arguments = arguments + ["--db", folder + "/data/chime.db"]
            process.environment = ["XDG_RUNTIME_DIR": folder + "/run", "TZ": "UTC"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        func startDaemon() throws -> Chimed {
            let daemon = try Chimed(store: folder + "/data/chime.db", runtime: folder + "/run", bus: server.busAddress)
            // Started when its control socket is there.
            _ = waitUntil(seconds: 60) { FileManager.default.fileExists(atPath: folder + "/run/chime/chimed.sock") }
            return daemon
        }

        /// A reminder with one alarm at its due time, `seconds` from now (a whole second).
        func reminder(_ title: String, notes: String? = nil, dueIn seconds: Int64) throws -> (Reminder, due: Int64) {
            let due = Int64(Date().timeIntervalSince1970.rounded(.up)) + seconds
            let reminder = Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: title, notes: notes ?? "",
                                    due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"),
                                    alarms: [Alarm(trigger: .relative(seconds: 0))])
            try store.save(reminder)
            return (reminder, due)
        }

        @Test("a reminder due in two seconds reaches dunst within a second of its time: summary, escaped body, critical, Snooze, Done, Dismiss")
        func arrivesOnTime() throws {
            let daemon = try startDaemon()
            defer { daemon.stop() }
            let (_, due) = try reminder("<b>& Tea", notes: "Tom & <Jerry>", dueIn: 2)
            let call = try #require(server.notify(summary: "<b>& Tea", within: 30), "chimed: \(daemon.printed)")
            let sent = try #require(call.sent)
            #expect(sent >= Double(due) - 0.05 && sent < Double(due) + 1, "sent \(sent - Double(due)) s after its due time")
            print("chimed to dunst: Notify on the bus \(NotificationServer.milliseconds(sent - Double(due))) ms after the due time")
            #expect(call.appName == "Chime")
            #expect(call.body.hasSuffix("\nTom &amp; &lt;Jerry&gt;"), "\(call.body)")
            #expect(call.hints["urgency"] == "2")
            #expect(Set(call.actions.map { "\($0.id)=\($0.label)" }) == ["default=Open", "snooze=Snooze 2 s", "done=Done", "dismiss=Dismiss"])
            // Standard output keeps a line of it as well.
            #expect(waitUntil(seconds: 30) { daemon.printed.contains { $0.hasPrefix("chimed: fired") && $0.contains("<b>& Tea") } },
                    "chimed: \(daemon.printed)")
        }

        @Test("a subscribed (read-only) calendar's reminder reaches dunst with Snooze and Dismiss but no Done, which the store would refuse")
        func readOnlyHasNoDone() throws {
            let team = ItemCalendar(title: "Team", kind: .subscribed(url: "https://example.com/team.ics"), allowsContentModifications: false)
            try store.save(team)
            let due = Int64(Date().timeIntervalSince1970.rounded(.up)) + 1
            try store.asSource { () throws(StoreError) in
                try store.save(Reminder(calendarIdentifier: team.identifier, title: "Team review", due: .zoned(TimeZoneRules.utc.localTime(at: due), zone: "UTC"),
                                        alarms: [Alarm(trigger: .relative(seconds: 0))]))
            }
            let daemon = try startDaemon()
            defer { daemon.stop() }
            let call = try #require(server.notify(summary: "Team review", within: 30), "chimed: \(daemon.printed)")
            #expect(call.actions.map(\.id) == ["default", "snooze", "dismiss"])
        }

        @Test("Snooze from dunst's menu brings it back after the snooze; snoozed again while on screen, it comes back in its place")
        func snoozeComesBack() throws {
            let daemon = try startDaemon()
            defer { daemon.stop() }
            _ = try reminder("Stretch", dueIn: 1)
            let first = try #require(server.notify(summary: "Stretch", within: 30), "chimed: \(daemon.printed)")
            let firstID = try #require(first.returnedID)
            try server.chooseInMenu("[\(firstID),snooze]")
            let answered = Date().timeIntervalSince1970
            try server.openContextMenu()
            // The daemon closes a notification once its answer is handled: the return is a new one.
            let second = try #require(server.notify(summary: "Stretch", skipping: 1, within: 30), "chimed: \(daemon.printed)")
            #expect(try #require(second.sent) - answered >= 1.5)
            let secondID = try #require(second.returnedID)

            // Snoozed with `chime snooze` while it is still on screen: it comes back in its place.
            try server.chooseInMenu("")
            let snooze = Process()
            snooze.executableURL = URL(fileURLWithPath: (Self.executable as NSString).deletingLastPathComponent + "/chime")
            snooze.arguments = ["snooze", try #require(try store.reminders(.all).first).identifier.description, "2s", "--db", folder + "/data/chime.db"]
            snooze.environment = ["XDG_RUNTIME_DIR": folder + "/run", "TZ": "UTC"]
            try snooze.run()
            snooze.waitUntilExit()
            #expect(snooze.terminationStatus == 0)
            let third = try #require(server.notify(summary: "Stretch", skipping: 2, within: 30), "chimed: \(daemon.printed)")
            #expect(third.replacesID == secondID)
        }

        @Test("Done in dunst's menu completes the reminder in the store")
        func doneCompletes() throws {
            let daemon = try startDaemon()
            defer { daemon.stop() }
            let (reminder, _) = try reminder("Water plants", dueIn: 1)
            let call = try #require(server.notify(summary: "Water plants", within: 30), "chimed: \(daemon.printed)")
            try server.chooseInMenu("[\(try #require(call.returnedID)),done]")
            try server.openContextMenu()
            let completed = waitUntil(seconds: 30) { (try? store.reminder(identifier: reminder.identifier).isCompleted) == true }
            #expect(completed, "chimed: \(daemon.printed)")
        }

        @Test("Done, Snooze or Dismiss picked in dunst's menu closes the notification once handled: CloseNotification, nothing left on screen",
              arguments: ["done", "snooze", "dismiss"])
        func answeredCloses(action: String) throws {
            let daemon = try startDaemon()
            defer { daemon.stop() }
            _ = try reminder("Answer \(action)", dueIn: 1)
            let call = try #require(server.notify(summary: "Answer \(action)", within: 30), "chimed: \(daemon.printed)")
            let id = try #require(call.returnedID)
            #expect(try server.displayed() == 1)
            try server.chooseInMenu("[\(id),\(action)]")
            try server.openContextMenu()
            #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(id) }, "chimed: \(daemon.printed)")
            // A snooze of 2 s brings it back later, as a new notification.
            #expect(waitUntil(seconds: 30) { (try? server.displayed()) == 0 }, "dunst still shows it")
        }

        @Test("a reminder completed with 'chime complete', removed with 'chime remove', or moved so that its firing is gone closes its notification",
              arguments: ["complete", "remove", "move"])
        func doneElsewhereCloses(how: String) throws {
            let daemon = try startDaemon()
            defer { daemon.stop() }
            var (reminder, due) = try reminder("Elsewhere \(how)", dueIn: 1)
            let call = try #require(server.notify(summary: "Elsewhere \(how)", within: 30), "chimed: \(daemon.printed)")
            let id = try #require(call.returnedID)
            switch how {
            case "complete", "remove":
                #expect(try chime([how, reminder.identifier.description]) == 0)
            default:
                // Due a day later: the firing of the old due time no longer exists.
                reminder.due = .zoned(TimeZoneRules.utc.localTime(at: due + 86_400), zone: "UTC")
                try store.save(reminder)
            }
            #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(id) }, "chimed: \(daemon.printed)")
            #expect(waitUntil(seconds: 30) { (try? server.displayed()) == 0 }, "dunst still shows it")
        }

        @Test("chimed stopped (SIGTERM or SIGKILL) and started again takes its notification back in place: Done picked then completes the reminder",
              arguments: [SIGTERM, SIGKILL])
        func buttonsSurviveRestart(signal: Int32) throws {
            let first = try startDaemon()
            let (reminder, _) = try reminder("Survives \(signal)", dueIn: 1)
            let call = try #require(server.notify(summary: "Survives \(signal)", within: 30), "chimed: \(first.printed)")
            let id = try #require(call.returnedID)
            // Stopped once it has remembered what it shows (a kill between the
            // two is a firing interrupted while shown, another case).
            #expect(waitUntil(seconds: 30) { (try? AlarmLedger(store: store).shownNotifications().map(\.serverID)) == [id] })
            first.stop(with: signal)
            let second = try Chimed(store: folder + "/data/chime.db", runtime: folder + "/run", bus: server.busAddress)
            defer { second.stop() }
            // Shown again in its place, quietly, with the same buttons.
            let again = try #require(server.notify(summary: "Survives \(signal)", skipping: 1, within: 60), "chimed: \(second.printed)")
            #expect(again.replacesID == id)
            #expect(again.returnedID == id)
            #expect(again.hints["sound-name"] == nil)
            #expect(again.actions.map(\.id).contains("done"))
            #expect(try server.displayed() == 1)
            // Not a second firing: the log has one line of it, from the first process.
            #expect(!second.printed.contains { $0.hasPrefix("chimed: fired") })
            try server.chooseInMenu("[\(id),done]")
            try server.openContextMenu()
            let completed = waitUntil(seconds: 30) { (try? store.reminder(identifier: reminder.identifier).isCompleted) == true }
            #expect(completed, "chimed: \(second.printed)")
            #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(id) }, "chimed: \(second.printed)")
        }

        @Test("a notification whose reminder was completed while chimed was down is closed when it starts again, not shown again")
        func completedWhileDown() throws {
            let first = try startDaemon()
            let (reminder, _) = try reminder("Done while down", dueIn: 1)
            let call = try #require(server.notify(summary: "Done while down", within: 30), "chimed: \(first.printed)")
            let id = try #require(call.returnedID)
            #expect(waitUntil(seconds: 30) { (try? AlarmLedger(store: store).shownNotifications().map(\.serverID)) == [id] })
            first.stop()
            try store.complete(reminder.identifier)
            let second = try Chimed(store: folder + "/data/chime.db", runtime: folder + "/run", bus: server.busAddress)
            defer { second.stop() }
            #expect(waitUntil(seconds: 30) { server.busLog().closeCalls.contains(id) }, "chimed: \(second.printed)")
            #expect(server.notify(summary: "Done while down", skipping: 1, within: 0.5) == nil)
        }

        @Test("with dunst stopped the daemon stays up, keeps the firing, and shows it once dunst is back")
        func serverAway() throws {
            try server.script("stop-dunst")
            var dunstRunning = false
            defer { if !dunstRunning { try? server.script("start-dunst") } }
            let daemon = try startDaemon()
            defer { daemon.stop() }
            _ = try reminder("While away", dueIn: 1)
            #expect(waitUntil(seconds: 30) { daemon.printed.contains { $0.contains("could not show 'While away'") } },
                    "chimed: \(daemon.printed)")
            #expect(daemon.process.isRunning)
            #expect(server.notifyCalls().allSatisfy { $0.summary != "While away" || $0.returnedID == nil })

            try server.script("start-dunst")
            dunstRunning = true
            // The first retry comes 5 s after the failure.
            let call = server.notify(summary: "While away", within: 60)
            #expect(call != nil, "chimed: \(daemon.printed)")
            usleep(500_000)
            #expect(daemon.printed.filter { $0.hasPrefix("chimed: fired") }.count == 1)
            #expect(try AlarmLedger(store: store).deliveries().map(\.outcome) == [.delivered] || AlarmLedger(store: store).deliveries().map(\.outcome) == [.late])
        }

        /// Feeds position lines to `chime location --stdin`, as a script would.
        func feed(_ lines: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: (Self.executable as NSString).deletingLastPathComponent + "/chime")
            process.arguments = ["location", "--stdin", "--db", folder + "/data/chime.db"]
            process.environment = ["XDG_RUNTIME_DIR": folder + "/run", "TZ": "UTC"]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            input.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
            return process.terminationStatus
        }

        @Test("a track walking out of a leave alarm's circle shows one notification; back in and out again within the re-arm interval, none")
        func leaveOnce() throws {
            // 100 m around 52.52, 13.405; the leave margin is 20 m (0.001° of latitude is 111 m).
            let office = try StructuredLocation(title: "Office", latitude: 52.52, longitude: 13.405, radius: 100)
            try store.save(Reminder(calendarIdentifier: try store.defaultCalendarForNewReminders().identifier, title: "Buy milk",
                                    alarms: [.proximity(office, .leave)]))
            let daemon = try startDaemon()
            defer { daemon.stop() }
            let inside = "52.5200 13.4050 5", edge = "52.5209 13.4050 5", margin = "52.5210 13.4050 5", away = "52.5227 13.4050 5"
            // Jitter at the edge and within the margin is no leave.
            #expect(try feed([inside, margin, inside, margin, edge]) == 0)
            #expect(server.notify(summary: "Buy milk", within: 1) == nil)
            #expect(try feed([margin, away, away]) == 0)
            let call = try #require(server.notify(summary: "Buy milk", within: 30), "chimed: \(daemon.printed)")
            #expect(call.body.hasPrefix("left Office at "), "\(call.body)")
            #expect(call.actions.map(\.id).contains("done"))
            // Back in and out again within ten minutes: nothing more.
            #expect(try feed([inside, margin, away]) == 0)
            usleep(1_000_000)
            #expect(server.notifyCalls().filter { $0.summary == "Buy milk" }.count == 1)
        }
    }
}
