import CalendarModel
import CalendarStore
import Foundation

/// `chime add event|reminder TITLE …`: saves a new item and prints its identifier.
enum AddCommand: Command {
    static let name = "add"
    static let abstract = "Add an event or a reminder"
    static let help = """
    usage: chime add event TITLE --start WHEN [--end WHEN | --duration 30m] [--all-day]
                     [--tz ZONE | --floating] [--calendar NAME] [--location TEXT] [--notes TEXT]
                     [--url URL] [--repeat RRULE] [--exdate WHEN ...] [--alarm -10m ...]
                     [--alarm-at WHEN ...] [--alarm-arrive LAT,LON[,RADIUS]] [--alarm-leave LAT,LON[,RADIUS]]
                     [--key KEY] [--db PATH] [--json]
           chime add reminder TITLE [--due WHEN] [--start WHEN] [--priority 0-9] [--notes TEXT]
                     [--calendar NAME] [--repeat RRULE] [--alarm …] [--alarm-at …] [--alarm-arrive …]
                     [--alarm-leave …] [--key KEY] [--db PATH] [--json]

    WHEN is 2026-12-01T08:50, "2026-12-01 08:50", RFC 3339 with an offset, today,
    tomorrow, a weekday, 08:50 (the next such time), +10m, +2h or +1d. A date
    alone makes an all-day event or a reminder due that day. Times are read on
    the machine's wall clock and stored in its zone (--tz ZONE: another zone;
    --floating: follow whatever zone the machine is in). An event lasts an hour
    (all-day: one day) unless --end or --duration says otherwise.

    --alarm takes an offset from the start (events) or due time (reminders),
    negative for before: -10m, -1h, 0m. --alarm-arrive and --alarm-leave take a
    circle: latitude, longitude and a radius in metres (default 100).
    --key is your own unique key in the calendar: adding with a key that exists
    updates that item instead of adding another.

    Prints the new item's identifier. Exit status: 0; 64 for a wrong command
    line; 65 for a bad value (time, zone, rule, coordinates, a read-only
    calendar, a key another item has); 66 for an unknown calendar.
    """

    static let parser = ArgumentParser(command: "chime add", options: StoreAccess.options + [
        .init(name: "--start", takesValue: true), .init(name: "--end", takesValue: true),
        .init(name: "--duration", takesValue: true), .init(name: "--due", takesValue: true),
        .init(name: "--all-day", takesValue: false), .init(name: "--tz", takesValue: true),
        .init(name: "--floating", takesValue: false), .init(name: "--calendar", takesValue: true),
        .init(name: "--location", takesValue: true), .init(name: "--notes", takesValue: true),
        .init(name: "--url", takesValue: true), .init(name: "--repeat", takesValue: true),
        .init(name: "--exdate", takesValue: true, repeatable: true), .init(name: "--priority", takesValue: true),
        .init(name: "--alarm", takesValue: true, repeatable: true), .init(name: "--alarm-at", takesValue: true, repeatable: true),
        .init(name: "--alarm-arrive", takesValue: true, repeatable: true), .init(name: "--alarm-leave", takesValue: true, repeatable: true),
        .init(name: "--key", takesValue: true),
    ])

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard parsed.positionals.count == 2, ["event", "reminder"].contains(parsed.positionals[0]) else {
            throw .usage("chime add: expected 'event TITLE' or 'reminder TITLE' (see 'chime add --help')")
        }
        let command = "chime add \(parsed.positionals[0])"
        let access = try StoreAccess(command, parsed, context: context)
        let title = parsed.positionals[1]
        let rule = try parsed.value("--repeat").map { text throws(CommandFailure) in
            do { return try RecurrenceRule(rfc5545: text) } catch { throw .data("\(command): --repeat: \(error)") }
        }
        let alarms = try Self.alarms(parsed, access)
        let identifier: ItemIdentifier
        if parsed.positionals[0] == "event" {
            var event = try Self.event(title, parsed, access, rule: rule)
            event.alarms = alarms
            try access.attempt { () throws(StoreError) in try access.store.save(event) }
            identifier = (try? event.externalKey.flatMap { try access.store.event(externalKey: $0, calendar: event.calendarIdentifier) }?.identifier) ?? event.identifier
        } else {
            let calendar = try access.calendar(named: parsed.value("--calendar"), forReminders: true)
            var priority = 0
            if let text = parsed.value("--priority") {
                guard let value = Int(text) else { throw .usage("\(command): --priority '\(text)' is not a number from 0 to 9") }
                priority = value
            }
            let zone = try Self.zone(parsed, access, command)
            let floating = parsed.has("--floating")
            let due = try parsed.value("--due").map { text throws(CommandFailure) in try access.time("--due", text).itemTime(in: zone, floating: floating) }
            let start = try parsed.value("--start").map { text throws(CommandFailure) in try access.time("--start", text).itemTime(in: zone, floating: floating) }
            let reminder = Reminder(calendarIdentifier: calendar.identifier, title: title, notes: parsed.value("--notes") ?? "",
                                    priority: priority, start: start, due: due, recurrenceRule: rule, alarms: alarms,
                                    externalKey: parsed.value("--key"))
            try access.attempt { () throws(StoreError) in try access.store.save(reminder) }
            identifier = reminder.identifier
        }
        if parsed.has("--json") {
            access.printJSON(["id": identifier.rawValue])
        } else {
            context.standardOutput(identifier.short)
        }
    }

    static func zone(_ parsed: ArgumentParser.Parsed, _ access: StoreAccess, _ command: String) throws(CommandFailure) -> TimeZoneRules {
        guard let name = parsed.value("--tz") else { return access.zone }
        do { return try TimeZoneRules.named(name) } catch { throw .data("\(command): --tz: \(error)") }
    }

    static func event(_ title: String, _ parsed: ArgumentParser.Parsed, _ access: StoreAccess, rule: RecurrenceRule?) throws(CommandFailure) -> Event {
        let command = access.command
        guard let startText = parsed.value("--start") else { throw .usage("\(command): missing --start") }
        if parsed.value("--end") != nil && parsed.value("--duration") != nil {
            throw .usage("\(command): give --end or --duration, not both")
        }
        let zone = try zone(parsed, access, command)
        let floating = parsed.has("--floating")
        var start = try access.time("--start", startText).itemTime(in: zone, floating: floating)
        if parsed.has("--all-day") { start = .date(start.wallClock.date) }
        let end: ItemTime
        if let text = parsed.value("--end") {
            let value = try access.time("--end", text).itemTime(in: zone, floating: floating)
            end = start.isDateOnly ? .date(value.wallClock.date) : value
        } else {
            var seconds = start.isDateOnly ? 86_400 : 3600
            if let text = parsed.value("--duration") {
                do { seconds = try DurationExpression(text).seconds } catch { throw .data("\(command): --duration: \(error)") }
            }
            switch start {
            case .date(let day): end = .date(day.adding(days: max(0, seconds / 86_400 - 1)))
            case .floating(let local): end = .floating(LocalDateTime(localSeconds: local.localSeconds + Int64(seconds)))
            case .zoned(let local, let name):
                let rules = (try? TimeZoneRules.named(name)) ?? zone
                end = .zoned(rules.localTime(at: rules.resolve(local).instant + Int64(seconds)), zone: name)
            }
        }
        var exdates: [LocalDateTime] = []
        for text in parsed.all("--exdate") {
            exdates.append(try access.time("--exdate", text).itemTime(in: zone, floating: floating).wallClock)
        }
        let calendar = try access.calendar(named: parsed.value("--calendar"), forReminders: false)
        return Event(calendarIdentifier: calendar.identifier, title: title, location: parsed.value("--location") ?? "",
                     notes: parsed.value("--notes") ?? "", url: parsed.value("--url"), start: start, end: end,
                     recurrenceRule: rule, exceptionDates: exdates, externalKey: parsed.value("--key"))
    }

    static func alarms(_ parsed: ArgumentParser.Parsed, _ access: StoreAccess) throws(CommandFailure) -> [Alarm] {
        let command = access.command
        var alarms: [Alarm] = []
        for text in parsed.all("--alarm") {
            do { alarms.append(.relative(seconds: try DurationExpression(text, allowingNegative: true).seconds)) } catch {
                throw .data("\(command): --alarm: \(error)")
            }
        }
        for text in parsed.all("--alarm-at") {
            alarms.append(.absolute(Date(timeIntervalSince1970: TimeInterval(try access.time("--alarm-at", text).instant(in: access.zone)))))
        }
        for (option, proximity) in [("--alarm-arrive", Alarm.Proximity.enter), ("--alarm-leave", .leave)] {
            for text in parsed.all(option) {
                let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard (2...3).contains(parts.count), parts.allSatisfy({ $0 != nil }) else {
                    throw .data("\(command): \(option): '\(text)' is not LAT,LON[,RADIUS] such as 31.2304,121.4737,150")
                }
                do {
                    let place = try StructuredLocation(latitude: parts[0]!, longitude: parts[1]!,
                                                       radius: parts.count == 3 ? parts[2]! : StructuredLocation.defaultRadius)
                    alarms.append(.proximity(place, proximity))
                } catch {
                    throw .data("\(command): \(option): \(error)")
                }
            }
        }
        return alarms
    }
}
