import CalendarModel
import Foundation
import Testing

/// The outside tools the iCalendar tests hold Chime against, made by
/// `contrib/oracle/setup` (which `contrib/test` runs) under the package's
/// `.build`: recurring-ical-events and icalendar in a Python virtual
/// environment (`contrib/oracle/expand.py`, `roundtrip.py`, `calendars.py`)
/// and `libical-check` on Debian's libical. A test that needs one and finds
/// it missing fails saying how to make it; it never skips.
public enum Oracles {
    /// The virtual environment's interpreter.
    public static let python = PackagePaths.root + "/.build/oracle-venv/bin/python"
    /// Where the Python oracles' scripts are.
    public static let scripts = PackagePaths.root + "/contrib/oracle"
    /// `contrib/oracle/libical-check.c`, built.
    public static let libicalCheck = PackagePaths.root + "/.build/oracle/libical-check"

    static let remedy = "run contrib/oracle/setup (contrib/test does) to make the iCalendar oracles"

    /// One occurrence as recurring-ical-events gives it (`expand.py`'s line).
    public struct Occurrence: Decodable, Hashable, Sendable {
        public var uid: String
        /// The occurrence's original start, for a series; nil for a single item.
        public var recurrenceID: Moment?
        /// Whether a RECURRENCE-ID component supplied it; nil for a single item.
        public var override: Bool?
        public var start: Moment
        public var end: Moment
        public var summary: String?

        public init(uid: String, recurrenceID: Moment?, override: Bool?, start: Moment, end: Moment, summary: String?) {
            self.uid = uid
            self.recurrenceID = recurrenceID
            self.override = override
            self.start = start
            self.end = end
            self.summary = summary
        }

        enum CodingKeys: String, CodingKey {
            case uid, override, start, end, summary
            case recurrenceID = "recurrence-id"
        }
    }

    /// A start, end or recurrence-id of `expand.py`: an instant for a timed
    /// item, a date for an all-day one, a wall-clock time for a floating one.
    public enum Moment: Decodable, Hashable, Sendable, CustomStringConvertible {
        /// Unix seconds.
        case instant(Int64)
        case date(CivilDate)
        case floating(LocalDateTime)

        public init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            if text.hasSuffix("Z"), let seconds = RFC3339.instant(text) {
                self = .instant(Int64(seconds))
            } else if let date = CivilDate(parsing: text) {
                self = .date(date)
            } else if let time = LocalDateTime(parsing: text) {
                self = .floating(time)
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "'\(text)' is not an instant, a date or a local time"))
            }
        }

        public var description: String {
            switch self {
            case .instant(let seconds): RFC3339.text(seconds, in: .utc)
            case .date(let date): date.description
            case .floating(let time): time.description
            }
        }
    }

    /// What `roundtrip.py` (icalendar) or `libical-check` said of a file.
    public struct Verdict: Sendable {
        /// True when the tool found nothing wrong.
        public var passed: Bool
        /// One line per problem the tool named (empty when it passed).
        public var problems: [String]
        /// Its whole standard output.
        public var output: String
    }

    /// libical's parse time for a file (`libical-check --time`).
    public struct Timing: Decodable, Sendable {
        public var parses: Int
        public var bytes: Int
        public var medianNanoseconds: Int64
        public var fastestNanoseconds: Int64
        public var components: Int
        public var errors: Int

        enum CodingKeys: String, CodingKey {
            case parses, bytes, components, errors
            case medianNanoseconds = "median_ns"
            case fastestNanoseconds = "fastest_ns"
        }
    }

    /// The occurrences recurring-ical-events finds in `file` overlapping
    /// [`from`, `to`) (each a date, 2026-03-01, or a UTC instant,
    /// 2026-03-01T00:00:00Z), sorted by start, uid and recurrence-id.
    public static func expand(_ file: String, from: String, to: String, components: [String] = ["VEVENT"],
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> [Occurrence] {
        let run = try runPython("expand.py", ["--components", components.joined(separator: ","), file, from, to], sourceLocation: sourceLocation)
        try #require(run.status == 0, "expand.py \(file) exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        let decoder = JSONDecoder()
        return try run.out.split(separator: "\n").enumerated().map { number, line in
            do {
                return try decoder.decode(Occurrence.self, from: Data(line.utf8))
            } catch {
                Issue.record("expand.py's line \(number + 1) does not read: \(error): \(line)", sourceLocation: sourceLocation)
                throw error
            }
        }
    }

    /// icalendar's opinion of `file` (`roundtrip.py`): read, written out and
    /// read again; with `strict`, also CRLF, 75-octet lines, RFC 5545's
    /// required properties and a VTIMEZONE for every TZID.
    public static func icalendarCheck(_ file: String, strict: Bool = false,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws -> Verdict {
        let run = try runPython("roundtrip.py", (strict ? ["--strict"] : []) + [file], sourceLocation: sourceLocation)
        try #require(run.status == 0 || run.status == 1, "roundtrip.py \(file) exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return Verdict(passed: run.status == 0, problems: lines(run.err).filter { !$0.contains("icalendar warns:") }, output: run.out)
    }

    /// The test calendars `package` ships ("icalendar": icalendar's
    /// tests/calendars; "recurring-ical-events": its test/calendars), as
    /// paths, sorted.
    public static func testCalendars(of package: String = "icalendar",
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try runPython("calendars.py", [package], sourceLocation: sourceLocation)
        try #require(run.status == 0, "calendars.py \(package) exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return lines(run.out)
    }

    /// libical's opinion of `file`: the errors it records (X-LIC-ERROR).
    public static func libicalCheck(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Verdict {
        let run = try runTool(try requireLibicalCheck(sourceLocation: sourceLocation), [file])
        try #require(run.status == 0 || run.status == 1, "libical-check \(file) exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return Verdict(passed: run.status == 0, problems: lines(run.out).filter { $0.hasPrefix("error: ") }, output: run.out)
    }

    /// libical's parse time for `file`, over `parses` parses.
    public static func libicalTiming(_ file: String, parses: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> Timing {
        let run = try runTool(try requireLibicalCheck(sourceLocation: sourceLocation), ["--time", String(parses), file])
        try #require(run.status == 0, "libical-check --time \(file) exited \(run.status): \(run.out) \(run.err)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(Timing.self, from: Data(run.out.utf8))
    }

    /// The `lunardate` package's Chinese years, 1900 through 2099, a line
    /// each (`chinese_calendar.py`: `2023 2023-01-22 1:29 2:30 2L:29 …`).
    public static func lunardateYears(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        let run = try runPython("chinese_calendar.py", [], sourceLocation: sourceLocation)
        try #require(run.status == 0, "chinese_calendar.py exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return lines(run.out)
    }

    /// The first `count` occurrences libical expands of `rule` from `start`
    /// (basic form, 20261201 or 20261201T085000, floating), as it writes
    /// them; nil when libical refuses the rule.
    public static func libicalExpand(start: String, rule: String, count: Int,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws -> [String]? {
        let run = try runTool(try requireLibicalCheck(sourceLocation: sourceLocation), ["--expand", start, rule, String(count)])
        try #require(run.status == 0 || run.status == 1, "libical-check --expand exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return run.status == 0 ? lines(run.out) : nil
    }

    /// The virtual environment's python, or a recorded failure saying how to make it.
    public static func requirePython(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: python), "no \(python): \(remedy)", sourceLocation: sourceLocation)
        return python
    }

    /// The built libical-check, or a recorded failure saying how to make it.
    public static func requireLibicalCheck(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: libicalCheck), "no \(libicalCheck): \(remedy)", sourceLocation: sourceLocation)
        return libicalCheck
    }

    static func runPython(_ script: String, _ arguments: [String],
                          sourceLocation: SourceLocation) throws -> (status: Int32, out: String, err: String) {
        let interpreter = try requirePython(sourceLocation: sourceLocation)
        let path = scripts + "/" + script
        try #require(FileManager.default.fileExists(atPath: path), "no oracle script \(path)", sourceLocation: sourceLocation)
        return try runTool(interpreter, [path] + arguments)
    }

    /// Runs a tool to its end. Standard error goes to a temporary file, not
    /// a second pipe: a tool that fills one pipe while this reads the other
    /// would wait for ever.
    static func runTool(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("chime-oracle-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errors.path])
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = errorHandle
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let complaints = String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, printed, complaints)
    }

    static func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }
}
