import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The import's memory, measured in a process of its own so that nothing
/// the benchmark made before (the generated text, earlier runs' heaps)
/// counts: the child reads its resident set before it reads the file and
/// its high-water mark after the import.
///
/// Twice: in a cold process, where the baseline is taken before the store
/// is opened, so that the pages of Chime's and SQLite's code that the
/// import runs for the first time count (about 9 MB, whatever the file's
/// size: the line says how much of it is file-backed, the program's and
/// libraries' pages, shared and paged in once); and in a warm
/// one, which first imports a calendar of 20 events into a store of its
/// own and takes the baseline after, so that what is counted is what the
/// file's data costs. Issue #19's target is read on the warm figure.
extension ICalendarBenchmark {
    /// What `chime-bench ical-import-child` reports.
    struct ImportMemory: Decodable {
        /// VmRSS before the file is read.
        var baselineKilobytes: Int
        /// VmHWM after the import: the most the process held at once.
        var peakKilobytes: Int
        /// VmHWM once the file is read and mapped, before the store is written.
        var plannedPeakKilobytes: Int
        /// How much RssFile grew from the baseline to the import's end: the
        /// pages of the program's and libraries' files first read by the
        /// import, which count in VmHWM but are no memory the import holds.
        var fileBackedKilobytes: Int
        var events: Int
    }

    /// `chime-bench ical-import-child FILE STORE [--warm]`: imports FILE
    /// into a new store at STORE as the benchmark's import step does and
    /// returns its memory as one line of JSON (`ImportMemory`); `warm`
    /// imports a small calendar first, into a store beside STORE.
    public static func importChild(file: String, store: String, warm: Bool = false) throws -> String {
        if warm {
            let small = store + ".warm.ics"
            try calendar(events: 20).text.write(toFile: small, atomically: false, encoding: .utf8)
            _ = try importFile(small, into: store + ".warm.db")
        }
        let baseline = try statusKilobytes("VmRSS"), fileBacked = try statusKilobytes("RssFile")
        var planned = 0
        let events = try importFile(file, into: store) { planned = try statusKilobytes("VmHWM") }
        let peak = try statusKilobytes("VmHWM"), pagedIn = try statusKilobytes("RssFile") - fileBacked
        return "{\"baselineKilobytes\":\(baseline),\"plannedPeakKilobytes\":\(planned),\"peakKilobytes\":\(peak),"
            + "\"fileBackedKilobytes\":\(pagedIn),\"events\":\(events)}"
    }

    /// A `kB` field of /proc/self/status.
    static func statusKilobytes(_ field: String) throws -> Int {
        // With read(2), not Foundation: reading the baseline should not load what the import then counts (Foundation's file reading raised it by half a megabyte).
        let descriptor = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchmarkError(description: "cannot open /proc/self/status: errno \(errno)") }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 16_384)
        let count = read(descriptor, &bytes, bytes.count)
        guard count > 0 else { throw BenchmarkError(description: "cannot read /proc/self/status: errno \(errno)") }
        let status = String(decoding: bytes[0..<count], as: UTF8.self)
        for line in status.split(separator: "\n").prefix(200) where line.hasPrefix(field + ":") {
            if let value = line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap({ Int($0) }) { return value }
        }
        throw BenchmarkError(description: "/proc/self/status has no \(field)")
    }

    /// Runs this executable's `ical-import-child` on `path`, with the store in `folder`.
    static func importMemory(of path: String, folder: String, warm: Bool) throws -> ImportMemory {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let store = folder + (warm ? "/memory-warm.db" : "/memory.db")
        let result = try ChildProcess.run(executable, ["ical-import-child", path, store] + (warm ? ["--warm"] : []), environment: [:])
        guard result.status == 0, let memory = try? JSONDecoder().decode(ImportMemory.self, from: Data(result.output)) else {
            throw BenchmarkError(description: "\(executable) ical-import-child exited \(result.status): \(String(decoding: result.output, as: UTF8.self))")
        }
        return memory
    }
}
