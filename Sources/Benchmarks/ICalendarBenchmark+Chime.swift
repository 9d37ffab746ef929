import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import ICalendar
import Synchronization
import SystemCalls

extension ICalendarBenchmark {
    /// Chime's steps for `chime-bench ical`: the reader alone (beside
    /// libical's parser), the whole import into a new store (read, map,
    /// one transaction), and the export of that store.
    public static func chimeSteps() -> ChimeSteps {
        // The store the last import made, which the export reads.
        let imported = Mutex<String?>(nil)
        return ChimeSteps(parse: { path in
            let reading = try ICalendarReader().read(path: path)
            guard reading.problems.isEmpty else {
                throw BenchmarkError(description: "the generated calendar read with \(reading.problems.count) problems: \(reading.problems[0])")
            }
            return reading.components.reduce(0) { $0 + $1.components(named: "VEVENT").count }
        }, importFile: { path in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-ical-import-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if let old = imported.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: old).deletingLastPathComponent().path) }
            let storePath = folder + "/import.db"
            let events = try importFile(path, into: storePath)
            imported.withLock { $0 = storePath }
            return events
        }, export: { _ in
            guard let storePath = imported.withLock({ $0 }) else { throw BenchmarkError(description: "export: nothing imported") }
            let store = try CalendarStore(path: storePath, machineTimeZone: .utc)
            var items = CalendarItems()
            for calendar in try store.calendars() {
                items.append(try store.items(of: calendar.identifier))
            }
            let bytes = try CalendarExport.bytes(items, calendarName: nil, stamp: Date(timeIntervalSince1970: 1_796_083_200))
            guard !bytes.isEmpty else { throw BenchmarkError(description: "export wrote nothing") }
            // Counted, not flattened (allEvents copies every event into a new array).
            return items.events.reduce(0) { $0 + 1 + $1.detached.count }
        }, importedStore: { imported.withLock { $0 } })
    }

    /// The import step: `path` read, mapped and saved into a new store at
    /// `storePath` in one transaction, as `chime import` does into a new
    /// store (written in pieces while it is read, the store built and then
    /// synced whole); the events handled. `planned` runs between the plan
    /// (read, mapped, and all but the last piece written) and the write of
    /// the rest.
    static func importFile(_ path: String, into storePath: String, planned: () throws -> Void = {}) throws -> Int {
        let events = try importIntoBuiltStore(path, at: storePath, planned: planned)
        try DiskSync.sync(path: storePath)
        return events
    }

    /// `importFile`'s import, with the store closed when it returns.
    private static func importIntoBuiltStore(_ path: String, at storePath: String, planned: () throws -> Void) throws -> Int {
        // Surveyed while the store is made, as `chime import` does.
        let file = SurveyedFile(source: path)
        let store = try CalendarStore(path: storePath, machineTimeZone: .utc, building: true)
        return try store.importTransaction {
            let writer = ImportWriter(store: store)
            let defaultCalendar = try store.defaultCalendarForNewEvents()
            let plan = try writer.concurrently {
                guard let (bytes, surveyed) = try file.take() else { throw BenchmarkError(description: "import: the survey was taken") }
                return try CalendarImport.plan(bytes, source: path, defaultCalendar: defaultCalendar, store: store, writer: writer, surveyed: surveyed)
            }
            guard plan.faults.isEmpty else { throw BenchmarkError(description: "import: \(plan.faults.count) faults: \(plan.faults[0])") }
            try planned()
            _ = try CalendarImport.apply([plan], store: store, writer: writer)
            return plan.eventCount
        }
    }
}
