import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Synchronization
import TestSupport
import Testing

/// Runs `chime` in-process and keeps what it printed.
final class CapturedRun: Sendable {
    private final class Lines: Sendable {
        let mutex = Mutex<(out: [String], err: [String])>(([], []))
        func withLock<T>(_ body: (inout (out: [String], err: [String])) -> T) -> T { mutex.withLock { body(&$0) } }
    }

    private let lines = Lines()
    let status: Int32

    /// `input`: what `chime` reads on standard input (nil: nothing, as from /dev/null).
    init(_ arguments: [String], machineZone: String = "Europe/London", now: Date = Date(), environment: [String: String] = [:],
         input: String? = nil) {
        let lines = self.lines
        var context = CommandContext(
            standardOutput: { line in lines.withLock { $0.out.append(line) } },
            standardError: { line in lines.withLock { $0.err.append(line) } },
            environment: environment,
            machineTimeZone: { try! TimeZoneRules.named(machineZone) },
            now: { now })
        // A pipe holding the whole input, its writing end closed: a read past it sees the end.
        let pipe = Pipe()
        if let input { pipe.fileHandleForWriting.write(Data(input.utf8)) }
        try? pipe.fileHandleForWriting.close()
        context.standardInput = pipe.fileHandleForReading.fileDescriptor
        status = Chime.run(arguments, context: context)
        try? pipe.fileHandleForReading.close()
    }

    var output: [String] { lines.withLock { $0.out } }
    var errors: [String] { lines.withLock { $0.err } }
    /// Standard output as one text.
    var text: String { output.joined(separator: "\n") }

    /// Standard output read as one JSON object.
    func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(text)")
    }
}

/// A store in a fresh temporary folder, a fixed clock (Tuesday 2026-12-01
/// 08:00 in Shanghai) and machine zone, and `chime` run against them.
final class Scratch {
    private let temporary: TemporaryFolder
    var folder: String { temporary.path }
    let path: String
    let zone: String
    var now: Date
    /// The environment `chime` sees.
    var environment: [String: String] = [:]
    /// What `chime` reads on standard input (nil: nothing).
    var input: String?

    /// 2026-12-01T08:00:00+08:00, a Tuesday.
    static let tuesdayMorning = Date(timeIntervalSince1970: RFC3339.instant("2026-12-01T08:00:00+08:00")!)

    init(zone: String = "Asia/Shanghai", now: Date = Scratch.tuesdayMorning) {
        // Made here (0700): chime creates the folders of its default location only, not those of a --db path.
        temporary = TemporaryFolder("chime-cli")
        path = temporary.appending("chime.db")
        self.zone = zone
        self.now = now
    }

    /// Runs `chime ARGUMENTS --db PATH`.
    @discardableResult
    func run(_ arguments: String...) -> CapturedRun { run(arguments) }

    func run(_ arguments: [String]) -> CapturedRun {
        CapturedRun(arguments + ["--db", path], machineZone: zone, now: now, environment: environment, input: input)
    }

    /// Runs a command that must succeed and returns its standard output.
    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> CapturedRun {
        let run = run(arguments)
        #expect(run.status == 0, "chime \(arguments.joined(separator: " ")): \(run.errors)", sourceLocation: sourceLocation)
        return run
    }

    /// Adds an item and returns its short identifier.
    @discardableResult
    func add(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let run = run(["add"] + arguments)
        #expect(run.status == 0, "chime add \(arguments.joined(separator: " ")): \(run.errors)", sourceLocation: sourceLocation)
        return run.output.first ?? ""
    }

    /// The store's change counter, read through `chime status --json`.
    func changeCounter() throws -> Int {
        try #require(try run("status", "--json").json()["changeCounter"] as? Int)
    }

    /// Writes a VCALENDAR of `components` (content lines, CR LF between)
    /// into the folder as `name` and returns its path.
    func calendarFile(_ name: String, _ components: [String]) throws -> String {
        let file = folder + "/" + name
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN"] + components + ["END:VCALENDAR"]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// The store itself, for what the command line cannot set up.
    func store() throws -> CalendarStore {
        try CalendarStore(path: path, machineTimeZone: try TimeZoneRules.named(zone), now: { [now] in now })
    }

    /// Expects `chime ARGUMENTS` to fail with `status`, a message containing
    /// every one of `fragments`, and no change to the store.
    func refuses(_ arguments: [String], status: Int32, mentioning fragments: [String],
                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try changeCounter()
        let run = run(arguments)
        #expect(run.status == status, "chime \(arguments.joined(separator: " ")): \(run.errors)", sourceLocation: sourceLocation)
        #expect(run.output.isEmpty, sourceLocation: sourceLocation)
        let message = run.errors.joined(separator: "\n")
        for fragment in fragments {
            #expect(message.contains(fragment), "'\(message)' does not mention '\(fragment)'", sourceLocation: sourceLocation)
        }
        #expect(try changeCounter() == before, "chime \(arguments.joined(separator: " ")) wrote to the store", sourceLocation: sourceLocation)
    }
}
