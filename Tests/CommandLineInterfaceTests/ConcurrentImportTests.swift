@testable import CalendarExchange
import CalendarModel
import CalendarStore
import Dispatch
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// An import reads on a thread of its own while the thread that holds the
/// store writes (`ImportWriter.concurrently`, through `ImportHandoff`):
/// what crosses between them, in what order, and how far ahead the
/// reading may run.
@Suite("an import's reading thread and its store's")
struct ConcurrentImportTests {
    /// The calling thread, as a number to compare across threads.
    static var thread: UInt { UInt(pthread_self()) }

    @Test("pieces and calls arrive on the serving thread in the order they were posted, and a call's answer goes back to its poster")
    func orderAndCalls() {
        let handoff = ImportHandoff<Int>(capacity: 1)
        let seen = Mutex<[String]>([])
        let server = Self.thread
        let reader = Thread {
            handoff.post(piece: 1)
            let answer = handoff.call { () -> String in
                seen.withLock { $0.append(Self.thread == server ? "call on the server" : "call elsewhere") }
                return "forty-two"
            }
            seen.withLock { $0.append("answer \(answer)") }
            handoff.post(piece: 2)
            handoff.postDone()
        }
        reader.start()
        handoff.serve { piece in seen.withLock { $0.append("piece \(piece)") } }
        #expect(seen.withLock { $0 } == ["piece 1", "call on the server", "answer forty-two", "piece 2"])
    }

    @Test("the store's thread is idle while it waits for a piece, and not while it writes one")
    func storeIdleWhileWaiting() {
        let handoff = ImportHandoff<Int>(capacity: 1)
        let writing = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let seen = Mutex<[Bool]>([])
        let reader = Thread {
            // Nothing posted yet: the store's thread comes to wait.
            waitUntil(seconds: 60, every: 0.001) { handoff.storeIsIdle }
            seen.withLock { $0.append(handoff.storeIsIdle) }
            handoff.post(piece: 1)
            writing.wait()
            seen.withLock { $0.append(handoff.storeIsIdle) }
            release.signal()
            handoff.postDone()
        }
        reader.start()
        handoff.serve { _ in
            writing.signal()
            release.wait()
        }
        #expect(seen.withLock { $0 } == [true, false])
    }

    @Test("the reading is never more than the piece being written and `capacity` waiting ahead of the writing")
    func readingAheadIsBounded() {
        for capacity in [1, 3] {
            let handoff = ImportHandoff<Int>(capacity: capacity)
            let posted = Atomic<Int>(0)
            let reader = Thread {
                for piece in 0..<12 {
                    handoff.post(piece: piece)
                    posted.add(1, ordering: .sequentiallyConsistent)
                }
                handoff.postDone()
            }
            reader.start()
            var ahead: [Int] = []
            var order: [Int] = []
            handoff.serve { piece in
                // While piece k is written, pieces k + 1 … k + capacity may have been posted besides it, and no more.
                let most = min(12, piece + 1 + capacity)
                waitUntil(seconds: 60, every: 0.001) { posted.load(ordering: .sequentiallyConsistent) >= most }
                // Time to run further ahead, were it not bounded.
                usleep(5_000)
                ahead.append(posted.load(ordering: .sequentiallyConsistent) - piece)
                order.append(piece)
            }
            #expect(order == Array(0..<12))
            #expect(ahead == (0..<12).map { min(12, $0 + 1 + capacity) - $0 }, "capacity \(capacity)")
        }
    }

    @Test("concurrently: the pieces are written on the store's thread, the reading's store calls run there, and its error comes back after every piece it handed over is written")
    func writerAcrossThreads() throws {
        let fixture = try StoreFixture(zone: "UTC")
        let store = try fixture.open()
        let calendar = try store.defaultCalendarForNewEvents()
        struct Refused: Error, Equatable { var after: Int }
        func events(_ range: Range<Int>) -> CalendarItems {
            var items = CalendarItems()
            for index in range {
                let nine = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 1)!, hour: 9, minute: index)! // 2026-12-01T09:00 on, a minute apart
                items.events.append(CalendarItems.Series(event: Event(calendarIdentifier: calendar.identifier, title: "Event \(index)",
                                                                      start: .zoned(nine, zone: "UTC"), end: .zoned(nine, zone: "UTC"),
                                                                      externalKey: "event-\(index)@chime.test")))
            }
            return items
        }
        let storeThread = Self.thread
        let writer = ImportWriter(store: store, pieceSize: 2)
        let source = ImportWriter.Source(plan: 1, calendarLine: 1)
        let readingThread = Mutex<UInt>(0)
        #expect(throws: Refused(after: 6)) {
            try store.importTransaction { () throws(Refused) in
                try writer.concurrently { () throws(Refused) in
                    readingThread.withLock { $0 = Self.thread }
                    for first in stride(from: 0, to: 6, by: 2) {
                        writer.write(events(first..<first + 2), into: calendar, isNew: false, from: source)
                    }
                    let callThread = writer.onStore { Self.thread }
                    #expect(callThread == storeThread)
                    throw Refused(after: 6)
                }
            }
        }
        #expect(readingThread.withLock { $0 } != storeThread)
        #expect(writer.report(of: source)?.added == 6, "every piece handed over was written before the error came back")
        #expect(writer.failure == nil)
        // The import's transaction rolled back with the error.
        let everything = Date(timeIntervalSince1970: 1_796_083_200)..<Date(timeIntervalSince1970: 1_796_169_600) // 2026-12-01T00:00:00Z ..< 2026-12-02T00:00:00Z
        #expect(try store.events(overlapping: everything).isEmpty)
    }
}

extension ConcurrentImportTests {
    @Test("into a store being built, pieces whose checking must read it (workday rules) are made ready on the store's thread once its writer holds the file, and all are written")
    func workdayRulesIntoABuiltStore() throws {
        let fixture = try StoreFixture(zone: "UTC")
        let path = URL(fileURLWithPath: fixture.path).deletingLastPathComponent().path + "/built.db"
        let store = try CalendarStore(path: path, machineTimeZone: .utc, building: true)
        let calendar = try store.defaultCalendarForNewEvents()
        func events(_ range: Range<Int>) throws -> CalendarItems {
            var items = CalendarItems()
            for index in range {
                let nine = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 1)!, hour: 9, minute: 0)! // 2026-12-01T09:00
                items.events.append(CalendarItems.Series(event: Event(
                    calendarIdentifier: calendar.identifier, title: "Clock in \(index)", notes: String(repeating: "notes ", count: 100),
                    start: .zoned(nine, zone: "Asia/Shanghai"), end: .zoned(nine, zone: "Asia/Shanghai"),
                    recurrenceRule: try RecurrenceRule(rfc5545: "FREQ=DAILY;COUNT=10;X-WORKDAY=SKIP"), externalKey: "clock-in-\(index)@chime.test")))
            }
            return items
        }
        let writer = ImportWriter(store: store, pieceSize: 50)
        let source = ImportWriter.Source(plan: 1, calendarLine: 1)
        try store.importTransaction {
            // A page cache of a few pages: the writer spills, and holds the file, from its first pieces on.
            try store.database.execute("PRAGMA cache_size = 4")
            try writer.concurrently {
                for first in stride(from: 0, to: 600, by: 50) {
                    writer.write(try events(first..<first + 50), into: calendar, isNew: false, from: source)
                }
            }
        }
        #expect(writer.failure == nil, "\(String(describing: writer.failure))")
        #expect(writer.report(of: source)?.added == 600)
        #expect(try store.items(of: calendar.identifier).events.count == 600)
    }
}

@Suite("a file surveyed while the store is opened")
struct SurveyedFileTests {
    /// What importing `path` into a new store gives: the plan's faults and
    /// warnings, and each event's title and start as stored. With `ahead`,
    /// the bytes and the survey come from it, as `chime import` takes them.
    static func imported(_ path: String, ahead: SurveyedFile?) throws -> (faults: [ImportFault], warnings: [ImportFault], events: [String]) {
        let fixture = try StoreFixture(zone: "UTC")
        let store = try fixture.open()
        let plan = try store.importTransaction {
            let writer = ImportWriter(store: store, pieceSize: 2)
            let defaultCalendar = try store.defaultCalendarForNewEvents()
            let plan = try writer.concurrently {
                let taken = try ahead?.take()
                let bytes = if let taken { taken.bytes } else { try CalendarImport.bytes(of: path) }
                return try CalendarImport.plan(bytes, source: path, defaultCalendar: defaultCalendar, store: store, writer: writer,
                                               surveyed: taken?.surveyed)
            }
            _ = try CalendarImport.apply([plan], store: store, writer: writer)
            return plan
        }
        let all = Date(timeIntervalSince1970: 1_577_836_800)..<Date(timeIntervalSince1970: 1_893_456_000) // 2020-01-01T00:00:00Z ..< 2030-01-01T00:00:00Z
        let events = try store.events(overlapping: all).map { "\($0.title) \($0.start)" }.sorted()
        return (plan.faults, plan.warnings, events)
    }

    @Test("a file surveyed on a thread of its own, before the store is opened, imports as the plan's own survey does: the same faults, warnings and events; it is taken once, and a file that cannot be read fails when taken")
    func surveyedAhead() throws {
        let folder = TemporaryFolder("chime-surveyed")
        let path = folder.appending("ahead.ics")
        let fillers = (1...5).flatMap { day in
            ["BEGIN:VEVENT", "UID:filler-\(day)@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:2026120\(day)T090000Z", "SUMMARY:Filler \(day)", "END:VEVENT"]
        }
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN",
                     "BEGIN:VEVENT", "UID:moved@chime.test", "DTSTAMP:20261201T000000Z", "RECURRENCE-ID:20261208T100000Z",
                     "DTSTART:20261208T140000Z", "SUMMARY:Weekly (moved)", "END:VEVENT"]
            + fillers
            + ["BEGIN:VEVENT", "UID:broken@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:not a date", "SUMMARY:Broken", "END:VEVENT",
               "BEGIN:VEVENT", "UID:moved@chime.test", "DTSTAMP:20261201T000000Z", "DTSTART:20261201T100000Z", "RRULE:FREQ=WEEKLY;COUNT=3",
               "SUMMARY:Weekly", "END:VEVENT",
               "END:VCALENDAR", "text after the calendar"]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: path, atomically: false, encoding: .utf8)

        let file = SurveyedFile(source: path)
        let ahead = try Self.imported(path, ahead: file)
        let own = try Self.imported(path, ahead: nil)
        #expect(ahead.faults == own.faults && ahead.warnings == own.warnings && ahead.events == own.events)
        #expect(ahead.faults.map(\.uid) == ["broken@chime.test"])
        #expect(ahead.warnings.count == 1)
        #expect(ahead.events.count == 8)
        #expect(ahead.events.filter { $0.hasPrefix("Weekly (moved)") }.count == 1)
        #expect(try file.take() == nil, "taken once")

        let missing = SurveyedFile(source: folder.appending("missing.ics"))
        #expect(throws: ImportFault.self) { try missing.take() }
    }
}
