import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

/// Many real `chime` processes writing one real store at once: each
/// command's look-ups and writes are one transaction, so none fails and
/// nothing is lost, doubled or completed twice.
@Suite("Concurrent chime processes on one store", .serialized)
struct ConcurrentWritersTests {
    /// The `chime` executable built beside the tests.
    static let executable = PackagePaths.builtExecutable("chime")

    static let rounds = 20

    /// A folder of its own (0700) for one round's store; the store file itself does not exist yet.
    final class Round {
        let temporary = TemporaryFolder("chime-race")
        var folder: String { temporary.path }
        var path: String { folder + "/chime.db" }

        /// Starts every command line at once, then waits for all of them:
        /// their exit statuses and standard errors, in order.
        func race(_ commands: [[String]]) throws -> [(status: Int32, errors: String)] {
            var running: [(Process, Pipe)] = []
            for arguments in commands {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: ConcurrentWritersTests.executable)
                process.arguments = arguments + ["--db", path]
                // No daemon to tell: its socket would be in this folder.
                process.environment = ["HOME": folder, "XDG_RUNTIME_DIR": folder + "/run", "PATH": "/usr/bin:/bin"]
                let errors = Pipe()
                process.standardError = errors
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                running.append((process, errors))
            }
            return running.map { process, errors in
                let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return (process.terminationStatus, text)
            }
        }

        func store() throws -> CalendarStore {
            try CalendarStore(path: path, readOnly: true, machineTimeZone: .utc)
        }
    }

    @Test("20 'chime add reminder' at once on a store that does not exist yet all succeed, and each reminder is there once")
    func addsToANewStore() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chime first (swift build --build-tests)")
        for round in 1...Self.rounds {
            let scratch = Round()
            let titles = (1...20).map { "reminder \($0)" }
            let results = try scratch.race(titles.map { ["add", "reminder", $0, "--due", "2030-01-01T09:00", "--tz", "UTC"] })
            for (index, result) in results.enumerated() {
                #expect(result.status == 0, "round \(round), \(titles[index]): \(result.errors)")
            }
            let store = try scratch.store()
            #expect(try store.reminders(.all).map(\.title).sorted() == titles.sorted(), "round \(round)")
            #expect(try store.calendars().map(\.title) == [CalendarStore.defaultCalendarTitle], "round \(round)")
        }
    }

    @Test("20 'chime add event --key same' at once all succeed and leave one event")
    func sameKeyAtOnce() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chime first (swift build --build-tests)")
        for round in 1...Self.rounds {
            let scratch = Round()
            let results = try scratch.race((1...20).map {
                ["add", "event", "version \($0)", "--start", "2030-01-01T09:00", "--tz", "UTC", "--key", "same"]
            })
            for (index, result) in results.enumerated() {
                #expect(result.status == 0, "round \(round), version \(index + 1): \(result.errors)")
            }
            // 2030-01-01T00:00:00Z ..< 2030-01-02T00:00:00Z
            let day = Date(timeIntervalSince1970: 1_893_456_000)..<Date(timeIntervalSince1970: 1_893_542_400)
            let events = try scratch.store().events(overlapping: day)
            #expect(events.count == 1, "round \(round): \(events.map(\.title))")
            #expect(events.first?.externalKey == "same")
        }
    }

    @Test("8 'chime calendar add Work' at once: one adds it, the others are told it exists (65); two removals at once keep the last calendar")
    func calendarsAtOnce() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chime first (swift build --build-tests)")
        for round in 1...Self.rounds {
            let scratch = Round()
            _ = try CalendarStore(path: scratch.path, machineTimeZone: .utc)
            let added = try scratch.race(Array(repeating: ["calendar", "add", "Work"], count: 8))
            #expect(added.filter { $0.status == 0 }.count == 1, "round \(round): \(added)")
            #expect(added.filter { $0.status == 65 && $0.errors.contains("'Work' already exists") }.count == 7, "round \(round): \(added)")
            #expect(try scratch.store().calendars().map(\.title) == [CalendarStore.defaultCalendarTitle, "Work"], "round \(round)")
            let removed = try scratch.race([["calendar", "remove", "Work"], ["calendar", "remove", CalendarStore.defaultCalendarTitle]])
            #expect(removed.filter { $0.status == 0 }.count == 1, "round \(round): \(removed)")
            #expect(removed.contains { $0.status == 65 && $0.errors.contains("is the last one") }, "round \(round): \(removed)")
            #expect(try scratch.store().calendars().count == 1, "round \(round)")
        }
    }

    @Test("4 'chime edit' of one reminder at once, each changing another field: every change is kept")
    func editsAtOnce() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chime first (swift build --build-tests)")
        for round in 1...Self.rounds {
            let scratch = Round()
            let added = try scratch.race([["add", "reminder", "Plain", "--due", "2030-01-01T09:00", "--tz", "UTC"]])
            #expect(added[0].status == 0, "\(added[0].errors)")
            let identifier = try #require(try scratch.store().reminders(.all).first).identifier.rawValue
            let results = try scratch.race([
                ["edit", identifier, "--title", "Renamed"], ["edit", identifier, "--notes", "Noted"],
                ["edit", identifier, "--priority", "high"], ["edit", identifier, "--due", "2030-01-02T10:00", "--tz", "UTC"],
            ])
            for result in results { #expect(result.status == 0, "round \(round): \(result.errors)") }
            let reminder = try scratch.store().reminder(identifier: try #require(ItemIdentifier(identifier)))
            #expect(reminder.title == "Renamed" && reminder.notes == "Noted" && reminder.priority == 1, "round \(round): \(reminder)")
            // 2030-01-02T10:00:00Z
            #expect(try reminder.due?.instant(machine: .utc) == 1_893_578_400, "round \(round)")
        }
    }

    @Test("10 'chime complete' at once on a daily reminder complete its next 10 occurrences, each once, and it is due on the 11th")
    func completesAtOnce() throws {
        try #require(FileManager.default.fileExists(atPath: Self.executable), "build chime first (swift build --build-tests)")
        let utc = TimeZoneRules.utc
        for round in 1...Self.rounds {
            let scratch = Round()
            let added = try scratch.race([["add", "reminder", "daily", "--due", "2030-01-01T09:00", "--tz", "UTC",
                                           "--repeat", "FREQ=DAILY"]])
            #expect(added[0].status == 0, "\(added[0].errors)")
            let identifier = try #require(try scratch.store().reminders(.all).first).identifier
            let results = try scratch.race(Array(repeating: ["complete", identifier.rawValue], count: 10))
            for result in results {
                #expect(result.status == 0, "round \(round): \(result.errors)")
            }
            let reminders = try scratch.store().reminders(.all)
            let done = reminders.filter { $0.recurrenceRule == nil && $0.isCompleted }
            let dues = done.compactMap { try? $0.due?.instant(machine: utc) }.sorted()
            // 2030-01-01T09:00:00Z, then one a day through 2030-01-10T09:00:00Z.
            #expect(dues == (0..<10).map { 1_893_488_400 + Int64($0) * 86_400 }, "round \(round)")
            let series = try #require(reminders.first { $0.identifier == identifier })
            #expect(!series.isCompleted)
            // 2030-01-11T09:00:00Z
            #expect(try series.due?.instant(machine: utc) == 1_893_488_400 + 10 * 86_400, "round \(round)")
        }
    }
}
