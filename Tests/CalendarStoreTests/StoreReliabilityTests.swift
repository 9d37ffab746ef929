import CalendarModel
import CalendarStore
import Foundation
import Glibc
import TestSupport
import Testing

/// Other processes writing and dying: the store loses nothing and keeps
/// no half of a batch. The second process is `chime-bench write-load`,
/// built beside the tests.
@Suite("Store reliability across processes")
struct StoreReliabilityTests {
    static var writer: String { PackagePaths.builtExecutable("chime-bench") }

    static func launch(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    @Test("two processes writing at once lose nothing")
    func twoWriters() throws {
        try #require(FileManager.default.fileExists(atPath: Self.writer), "build chime-bench first (swift build --build-tests)")
        let fixture = try StoreFixture()
        let before = try fixture.open().changeCounter()
        let first = try Self.launch(["write-load", fixture.path, "150", "first"])
        let second = try Self.launch(["write-load", fixture.path, "150", "second"])
        first.0.waitUntilExit()
        second.0.waitUntilExit()
        #expect(first.0.terminationStatus == 0 && second.0.terminationStatus == 0)
        let store = try fixture.open()
        let titles = try store.reminders(.all).map(\.title)
        #expect(titles.filter { $0.hasPrefix("first ") }.count == 150)
        #expect(titles.filter { $0.hasPrefix("second ") }.count == 150)
        #expect(try store.changeCounter() == before + 300)
    }

    @Test("a process killed in the middle of a batch leaves the store as it was before the batch")
    func killedMidBatch() throws {
        try #require(FileManager.default.fileExists(atPath: Self.writer), "build chime-bench first (swift build --build-tests)")
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewReminders()
        try store.save(Reminder(calendarIdentifier: calendar.identifier, title: "Kept"))
        let before = try store.changeCounter()
        let (process, output) = try Self.launch(["write-load", fixture.path, "60000", "batch", "--batch"])
        // Wait for the commit to begin, then kill the writer inside it.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("committing") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        usleep(150_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let reopened = try fixture.open()
        let titles = try reopened.reminders(.all).map(\.title)
        // 60,000 rows take seconds to commit: the kill lands inside it.
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(titles == ["Kept"])
        #expect(try reopened.changeCounter() == before)
        try reopened.save(Reminder(calendarIdentifier: calendar.identifier, title: "After"))
        #expect(try reopened.reminders(.all).count == titles.count + 1)
    }
}
