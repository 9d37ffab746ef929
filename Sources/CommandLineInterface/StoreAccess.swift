import CalendarModel
import CalendarStore
import Foundation

/// What every store command shares: `--db`, opening the store, reading
/// times, and turning store errors into messages and exit statuses.
struct StoreAccess {
    let command: String
    let context: CommandContext
    let store: CalendarStore
    let zone: TimeZoneRules

    static let options: [ArgumentParser.Option] = [
        .init(name: "--db", takesValue: true),
        .init(name: "--json", takesValue: false),
    ]

    init(_ command: String, _ parsed: ArgumentParser.Parsed, context: CommandContext) throws(CommandFailure) {
        self.command = command
        self.context = context
        zone = context.machineTimeZone()
        let path = StoreLocation.path(explicit: parsed.value("--db"), environment: context.environment)
        do {
            store = try CalendarStore(path: path, machineTimeZone: zone, now: context.now)
        } catch {
            throw Self.failure(command, error)
        }
    }

    var now: Int64 { Int64(context.now().timeIntervalSince1970.rounded(.down)) }

    func time(_ option: String, _ text: String) throws(CommandFailure) -> TimeExpression {
        do { return try TimeExpression(text, now: now, zone: zone) } catch {
            throw .data("\(command): \(option): \(error)")
        }
    }

    func calendar(named name: String?, forReminders: Bool) throws(CommandFailure) -> ItemCalendar {
        try attempt { () throws(StoreError) -> ItemCalendar in
            if let name { return try store.calendar(named: name) }
            return try forReminders ? store.defaultCalendarForNewReminders() : store.defaultCalendarForNewEvents()
        }
    }

    /// Runs store code, mapping its errors to this command's failures.
    func attempt<T>(_ body: () throws(StoreError) -> T) throws(CommandFailure) -> T {
        do { return try body() } catch { throw Self.failure(command, error) }
    }

    static func failure(_ command: String, _ error: StoreError) -> CommandFailure {
        switch error {
        case .notFound, .notAnOccurrence:
            return .notFound("\(command): \(error)")
        case .database, .unusable:
            return CommandFailure(message: "\(command): \(error)", status: ExitStatus.ioError)
        default:
            return .data("\(command): \(error)")
        }
    }

    /// One JSON document on standard output, keys sorted so scripts and diffs see a stable shape.
    func printJSON(_ value: Any) { Self.printJSONObject(value, context: context) }

    static func printJSONObject(_ value: Any, context: CommandContext) {
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]) else { return }
        context.standardOutput(String(decoding: data, as: UTF8.self))
    }
}
