import AlarmScheduler
import DesktopNotifications
import Foundation
import Synchronization
import TestSupport
import Testing

/// The private notification server of this test process: a session bus,
/// Xvfb and dunst started by `contrib/notification-server` (once, on first
/// use; it stops them by itself when this process exits), dbus-monitor
/// recording every message on that bus, and the notifier under test.
final class NotificationServer: Sendable {
    static let shared: Result<NotificationServer, ServerError> = Result { () throws(ServerError) in try NotificationServer() }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
    }

    static let script = PackagePaths.root + "/contrib/notification-server"

    let directory: String
    let environment: Mutex<[String: String]>
    let notifier: DesktopNotifier
    let responses = Mutex<[(key: String, response: NotificationResponse)]>([])
    /// What showing through a bus address with nothing behind it did, measured
    /// before this process first reached a bus (the connection is per process).
    let deadBus: (error: NotificationError?, seconds: Double)
    /// The first show through the real server, connection and libnotify's start included.
    let firstShowSeconds: Double
    private let monitor: Process
    static let watchdog = 1.5

    var busAddress: String { environment.withLock { $0["DBUS_SESSION_BUS_ADDRESS"] ?? "" } }

    private init() throws(ServerError) {
        directory = "/tmp/chime-notify-test-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try Self.runScript(["start", directory, "--watch-pid", String(getpid())])
        environment = Mutex(try Self.readEnvironment(directory + "/env"))
        let address = environment.withLock { $0["DBUS_SESSION_BUS_ADDRESS"] ?? "" }

        // The monitor first, so that it sees our first call.
        monitor = Process()
        monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        monitor.arguments = ["--address", address]
        guard FileManager.default.createFile(atPath: directory + "/monitor.log", contents: nil) else {
            throw ServerError(description: "cannot create \(directory)/monitor.log")
        }
        monitor.standardOutput = FileHandle(forWritingAtPath: directory + "/monitor.log")
        monitor.standardError = FileHandle.nullDevice
        do { try monitor.run() } catch { throw ServerError(description: "dbus-monitor did not start: \(error)") }
        let log = directory + "/monitor.log"
        guard waitUntil(seconds: 30, { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("NameAcquired") }) else {
            throw ServerError(description: "dbus-monitor did not attach to \(address)")
        }

        var dead = DesktopNotifier.Options()
        dead.busAddress = "unix:path=\(directory)/no-such-bus"
        dead.watchdog = 3
        let started = Date()
        do {
            try DesktopNotifier(options: dead).show(Firings.timed("Nobody hears this", at: "2026-12-01T08:50:00"), late: false)
            deadBus = (nil, Date().timeIntervalSince(started))
        } catch {
            deadBus = (error as? NotificationError, Date().timeIntervalSince(started))
        }

        var options = DesktopNotifier.Options(timeZone: { Firings.shanghai })
        // English whatever the locale of whoever runs the tests.
        options.language = .english
        // The bodies' "now" (whether a year is shown): the tests' firings are in December 2026, whenever they run.
        options.clock = ManualClock(now: 1_796_115_600)   // 2026-12-01T09:00:00Z
        options.busAddress = address
        options.watchdog = Self.watchdog
        notifier = DesktopNotifier(options: options)
        let firstShow = Date()
        do {
            try notifier.showNotice(title: "Chime tests", body: "the notification server is up")
        } catch {
            throw ServerError(description: "the first notice did not reach dunst: \(error)")
        }
        firstShowSeconds = Date().timeIntervalSince(firstShow)
        notifier.onResponse { [self] key, response in self.responses.withLock { $0.append((key, response)) } }
        print("DesktopNotificationsTests: first show \(Self.milliseconds(firstShowSeconds)) ms; "
              + "dead bus answered in \(Self.milliseconds(deadBus.seconds)) ms: \(deadBus.error.map(String.init(describing:)) ?? "no error")")
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.1f", seconds * 1000) }

    // MARK: Driving dunst

    /// Runs a subcommand of contrib/notification-server on this server.
    func script(_ command: String) throws(ServerError) {
        try Self.runScript([command, directory])
        let fresh = try Self.readEnvironment(directory + "/env")
        environment.withLock { $0 = fresh }
    }

    /// Runs dunstctl against this server.
    func dunstctl(_ arguments: String...) throws(ServerError) {
        try Self.run("/usr/bin/dunstctl", arguments, environment: environment.withLock { $0 })
    }

    /// What the stand-in dmenu will pick from dunst's context menu: the first
    /// line containing `text`, e.g. `[3,snooze]`.
    func chooseInMenu(_ text: String) throws {
        try text.write(toFile: directory + "/choice", atomically: true, encoding: .utf8)
    }

    /// Opens dunst's context menu, as `dunstctl context` does, once the
    /// stand-in dmenu has something to show.
    ///
    /// dunst builds the menu on a thread of its own from what it has on
    /// screen at that moment, and shows a notification on its main loop
    /// some time after answering Notify: asked too early, it finds no
    /// actions and starts no dmenu, and nothing ever answers. So this waits
    /// for the notification on screen, and asks again (three times at most)
    /// while no dmenu has started; where none ever does, the error holds
    /// the tails of dunst's and the stand-in's logs.
    func openContextMenu(seconds: Double = 10) throws {
        _ = waitUntil(seconds: seconds) { ((try? displayed()) ?? 0) > 0 }
        let before = menusStarted()
        for _ in 1...3 {
            try dunstctl("context")
            if waitUntil(seconds: seconds, { menusStarted() > before }) { return }
        }
        throw ServerError(description: """
            dunst started no dmenu for its context menu (\((try? displayed()) ?? -1) on screen)
            dunst.log: \(tail("dunst.log"))
            dmenu.log: \(tail("dmenu.log"))
            """)
    }

    /// How many times dunst has started the stand-in dmenu.
    private func menusStarted() -> Int {
        ((try? String(contentsOfFile: directory + "/dmenu.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").filter { $0.hasPrefix("== started ") }.count
    }

    private func tail(_ log: String) -> String {
        let lines = ((try? String(contentsOfFile: directory + "/" + log, encoding: .utf8)) ?? "(none)").split(separator: "\n")
        return lines.suffix(15).joined(separator: "\n")
    }

    /// How many notifications dunst has on screen now (`dunstctl count displayed`).
    func displayed() throws(ServerError) -> Int {
        let text = try Self.run("/usr/bin/dunstctl", ["count", "displayed"], environment: environment.withLock { $0 }, capture: true)
        guard let count = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw ServerError(description: "dunstctl count displayed printed '\(text)'")
        }
        return count
    }

    var dunstPID: pid_t? { environment.withLock { $0["CHIME_NS_DUNST_PID"].flatMap { pid_t($0) } } }

    /// Closes everything on screen and forgets earlier answers.
    func reset() throws {
        try dunstctl("close-all")
        try chooseInMenu("")
        responses.withLock { $0.removeAll() }
    }

    /// The first answer reported for `key`, waiting at most `seconds`.
    func response(for key: String, within seconds: Double = 30) -> NotificationResponse? {
        var found: NotificationResponse?
        _ = waitUntil(seconds: seconds) {
            found = responses.withLock { $0.first { $0.key == key }?.response }
            return found != nil
        }
        return found
    }

    // MARK: What went over the bus

    /// Every Notify call seen so far, with the id the server answered.
    func notifyCalls() -> [BusLog.Notify] {
        BusLog(text: (try? String(contentsOfFile: directory + "/monitor.log", encoding: .utf8)) ?? "").notifyCalls
    }

    /// The first Notify call (with its answer) whose summary is `summary`,
    /// after `skipping` earlier ones with that summary, waiting at most `seconds`.
    func notify(summary: String, skipping: Int = 0, within seconds: Double = 30) -> BusLog.Notify? {
        var found: BusLog.Notify?
        _ = waitUntil(seconds: seconds) {
            let matching = notifyCalls().filter { $0.summary == summary && $0.returnedID != nil }
            found = matching.count > skipping ? matching[skipping] : nil
            return found != nil
        }
        return found
    }

    func busLog() -> BusLog { BusLog(text: (try? String(contentsOfFile: directory + "/monitor.log", encoding: .utf8)) ?? "") }

    // MARK: Helpers

    static func runScript(_ arguments: [String]) throws(ServerError) {
        try run("/bin/bash", [script] + arguments, environment: ProcessInfo.processInfo.environment)
    }

    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    capture: Bool = false) throws(ServerError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        // A file, not a pipe: the servers it starts in the background may
        // inherit the pipe's other end and keep it open for good.
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("chime-run-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        let outputPath = errorPath + ".out"
        if capture {
            _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        defer { if capture { try? FileManager.default.removeItem(atPath: outputPath) } }
        do { try process.run() } catch { throw ServerError(description: "\(executable) did not start: \(error)") }
        process.waitUntilExit()
        let message = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw ServerError(description: "\(executable) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(message)")
        }
        return capture ? (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" : ""
    }

    /// Reads `export KEY=VALUE` lines.
    static func readEnvironment(_ path: String) throws(ServerError) -> [String: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ServerError(description: "no environment file at \(path)")
        }
        var environment = ProcessInfo.processInfo.environment
        for line in text.split(separator: "\n") {
            let assignment = line.hasPrefix("export ") ? line.dropFirst(7) : line[...]
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            environment[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return environment
    }
}

/// dbus-monitor's text, read back: the Notify calls and the ids the server
/// answered them with, the CloseNotification calls, the signals.
///
/// Strings are printed unescaped, so one ends at the first `"` that closes a
/// line followed by another argument or the end; the tests' texts never put
/// a `"` at the end of a line.
struct BusLog {
    struct Notify {
        var appName: String
        var replacesID: UInt32
        var icon: String
        var summary: String
        var body: String
        /// (action id, label) pairs.
        var actions: [(id: String, label: String)]
        var hints: [String: String]
        var returnedID: UInt32?
        /// When the bus passed the call on, Unix seconds (dbus-monitor's `time=`).
        var sent: Double?
    }

    indirect enum Value {
        case string(String), number(String), array([Value]), entry(Value, Value)
        var text: String {
            switch self {
            case .string(let s), .number(let s): s
            case .array(let values): "[" + values.map(\.text).joined(separator: ", ") + "]"
            case .entry(let key, let value): key.text + ": " + value.text
            }
        }
    }

    struct Message {
        var header: String
        var arguments: [Value]
        func field(_ name: String) -> String? {
            guard let range = header.range(of: " " + name + "=") else { return nil }
            return String(header[range.upperBound...].prefix { $0 != " " && $0 != ";" })
        }
    }

    var messages: [Message] = []

    init(text: String) {
        var current: (header: String, body: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            // A message starts with its kind at the line's start; a line of a
            // multi-line string does not (the tests' texts never start with these).
            if ["method call ", "method return ", "signal ", "error "].contains(where: { line.hasPrefix($0) }) {
                if let current { messages.append(Message(header: current.header, arguments: Self.parse(current.body))) }
                current = (String(line), [])
            } else {
                current?.body.append(line)
            }
        }
        if let current { messages.append(Message(header: current.header, arguments: Self.parse(current.body))) }
    }

    var notifyCalls: [Notify] {
        var returns: [String: UInt32] = [:]
        for message in messages where message.header.hasPrefix("method return") {
            if let destination = message.field("destination"), let serial = message.field("reply_serial"),
               case .number(let id)? = message.arguments.first, let value = UInt32(id) {
                returns[destination + "#" + serial] = value
            }
        }
        return messages.compactMap { message -> Notify? in
            guard message.header.hasPrefix("method call"), message.field("member") == "Notify" else { return nil }
            let a = message.arguments
            guard a.count == 8, case .array(let actionValues) = a[5], case .array(let hintValues) = a[6] else { return nil }
            var actions: [(String, String)] = []
            for pair in stride(from: 0, to: actionValues.count - 1, by: 2) {
                actions.append((actionValues[pair].text, actionValues[pair + 1].text))
            }
            var hints: [String: String] = [:]
            for case .entry(let key, let value) in hintValues { hints[key.text] = value.text }
            let key = (message.field("sender") ?? "") + "#" + (message.field("serial") ?? "")
            return Notify(appName: a[0].text, replacesID: UInt32(a[1].text) ?? 0, icon: a[2].text, summary: a[3].text,
                          body: a[4].text, actions: actions, hints: hints, returnedID: returns[key],
                          sent: message.field("time").flatMap(Double.init))
        }
    }

    /// The ids in CloseNotification calls, in order.
    var closeCalls: [UInt32] {
        messages.filter { $0.header.hasPrefix("method call") && $0.field("member") == "CloseNotification" }
            .compactMap { $0.arguments.first.flatMap { UInt32($0.text) } }
    }

    private static let typeWords: Set<String> = ["string", "uint32", "int32", "int64", "uint64", "byte", "boolean", "double",
                                                 "int16", "uint16", "object", "signature", "array", "dict", "variant", "]", ")"]

    /// Parses the indented argument lines of one message.
    static func parse(_ lines: [Substring]) -> [Value] {
        var tokens = Tokens(lines: lines)
        var values: [Value] = []
        while let value = tokens.value() { values.append(value) }
        return values
    }

    struct Tokens {
        var text: Substring

        init(lines: [Substring]) { text = lines.joined(separator: "\n")[...] }

        mutating func skipSpace() { text = text.drop { $0 == " " || $0 == "\n" } }

        mutating func word() -> Substring {
            skipSpace()
            let word = text.prefix { $0 != " " && $0 != "\n" }
            text = text.dropFirst(word.count)
            return word
        }

        mutating func value() -> Value? {
            skipSpace()
            guard !text.isEmpty, !text.hasPrefix("]"), !text.hasPrefix(")") else { return nil }
            let kind = word()
            switch kind {
            case "string", "object", "signature":
                skipSpace()
                guard text.hasPrefix("\"") else { return .string("") }
                text = text.dropFirst()
                var end = text.endIndex
                var search = text.startIndex
                while let quote = text[search...].firstIndex(of: "\"") {
                    let after = text[text.index(after: quote)...]
                    if after.isEmpty { end = quote; break }
                    if after.first == "\n" {
                        let next = after.dropFirst().drop { $0 == " " }.prefix { $0 != " " && $0 != "\n" }
                        if BusLog.typeWords.contains(String(next)) || next.hasPrefix("dict") { end = quote; break }
                    }
                    search = text.index(after: quote)
                }
                let string = String(text[..<end])
                text = end == text.endIndex ? text[end...] : text[text.index(after: end)...]
                return .string(string)
            case "array":
                _ = word() // "["
                var values: [Value] = []
                while let value = value() { values.append(value) }
                _ = word() // "]"
                return .array(values)
            case "dict":
                _ = word() // "entry("
                let key = value() ?? .string("")
                let item = value() ?? .string("")
                _ = word() // ")"
                return .entry(key, item)
            case "variant":
                return value()
            default:
                return .number(String(word()))
            }
        }
    }
}
