import CalendarModel
import CalendarStore
import Foundation

/// `chime find WORD…`: the items that say something, wherever and whenever they are.
enum FindCommand: Command {
    static let name = "find"
    static let abstract = "Find events and reminders by their title, location or notes (exit 1: none)"
    static let syntax = CommandSyntax("chime find", forms: [.init("WORD...")], options: [ChimeOptions.calendars] + ChimeOptions.store,
                                      discussion: """
        Lists the events and reminders whose title, location or notes hold
        every WORD, each anywhere in any of them, ignoring case, accents and
        width ('dentist' finds 'Dentist' and 'ｄｅｎｔｉｓｔ'; '牙医' finds
        '看牙医'). Items of every time are searched, past and completed ones
        too: a repeating event is listed once, at its first start, a repeating
        reminder at its current occurrence. Events first, by start, then
        reminders, by due time:

          event     Mon 2026-12-07 09:00  Stand-up (repeats)  [3fa2c1d0]
          reminder  Thu 2026-12-24        Buy gifts  [0a1b2c3d]

        Exits 1 when nothing matches, as grep does, so that scripts can write
        `chime find dentist || …`.
        """, epilogue: """
        Exit status: 0 when something matches; 1 when nothing does; 64 when the
        command line is wrong; 66 when a calendar does not exist; 74 when the
        store cannot be opened or read.
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, _, words, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .reading,
                                                               context: context) { _, given throws(CommandFailure) in
            // Split again: `chime find 'team lunch'` wants both words, anywhere; a blank argument is none.
            let words = given.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
            guard !words.isEmpty else {
                throw .usage("\(command): say what to find, as in 'chime find dentist' (see '\(command) --help')")
            }
            return words
        }
        let (calendars, items) = try StoreOptions.run(command) { () throws(StoreError) in
            let chosen = try parsed.all(ChimeOptions.calendars).map { name throws(StoreError) in try store.calendar(named: name).identifier }
            return (try store.calendars(), try store.items(matching: words, calendars: chosen))
        }
        let zone = context.machineTimeZone()
        let now = context.second()
        let text = ItemText(zone: zone, now: now)
        let events = items.events.map(\.event).sorted { text.instant($0.start) < text.instant($1.start) }
        let reminders = try StoreOptions.shown(items.reminders, store: store, now: now, byDue: true, command: command)
        if parsed[ChimeOptions.json] {
            struct Found: Encodable {
                var events: [ItemJSON.EventObject]
                var reminders: [ItemJSON.ReminderObject]
            }
            let json = ItemJSON(machine: zone, calendars: calendars)
            StoreOptions.printJSON(Found(events: events.map(json.event),
                                         reminders: reminders.map { json.reminder($0.reminder, storedDue: $0.storedDue, now: now) }),
                                   context: context)
        } else {
            for event in events { context.standardOutput(text.found(event)) }
            for shown in reminders { context.standardOutput(text.found(shown.reminder)) }
        }
        if events.isEmpty && reminders.isEmpty {
            if !parsed[ChimeOptions.json] { context.standardError("\(command): nothing matches '\(words.joined(separator: " "))'") }
            throw CommandFailure(message: "", status: ExitStatus.noMatch)
        }
    }
}
