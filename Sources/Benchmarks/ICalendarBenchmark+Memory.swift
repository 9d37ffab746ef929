import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The import's memory, measured in a process of its own so that nothing
/// the benchmark made before (the generated text, earlier runs' heaps)
/// counts: the child reads its resident set before it reads the file and
/// its high-water mark after the import.
extension ICalendarBenchmark {
    /// What `chime-bench ical-import-child` reports.
    struct ImportMemory: Decodable {
        /// VmRSS before the file is read.
        var baselineKilobytes: Int
        /// VmHWM after the import: the most the process held at once.
        var peakKilobytes: Int
        /// VmHWM once the file is read and mapped, before the store is written.
        var plannedPeakKilobytes: Int
        var events: Int
    }

    /// `chime-bench ical-import-child FILE STORE`: imports FILE into a new
    /// store at STORE as the benchmark's import step does and returns its
    /// memory as one line of JSON (`ImportMemory`).
    public static func importChild(file: String, store: String) throws -> String {
        let baseline = try statusKilobytes("VmRSS")
        var planned = 0
        let events = try importFile(file, into: store) { planned = try statusKilobytes("VmHWM") }
        let peak = try statusKilobytes("VmHWM")
        return "{\"baselineKilobytes\":\(baseline),\"plannedPeakKilobytes\":\(planned),\"peakKilobytes\":\(peak),\"events\":\(events)}"
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
    static func importMemory(of path: String, folder: String) throws -> ImportMemory {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let store = folder + "/memory.db"
        let result = try ChildProcess.run(executable, ["ical-import-child", path, store], environment: [:])
        guard result.status == 0, let memory = try? JSONDecoder().decode(ImportMemory.self, from: Data(result.output)) else {
            throw BenchmarkError(description: "\(executable) ical-import-child exited \(result.status): \(String(decoding: result.output, as: UTF8.self))")
        }
        return memory
    }
}
