import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import Geofencing
#if canImport(Glibc)
import Glibc
#endif

/// `chime location`: feeds positions to chimed's location alarms, or shows
/// where they stand.
enum LocationCommand: Command {
    static let name = "location"
    static let abstract = "Feed a position to location alarms (or a stream of them), or show their state"
    static let syntax = CommandSyntax("chime location", forms: [
        .init("POSITION", options: [ChimeOptions.accuracy, ChimeOptions.at] + ChimeOptions.store),
        .init("", options: [ChimeOptions.stdin.asRequired] + ChimeOptions.store),
        .init("", options: [ChimeOptions.status] + ChimeOptions.store),
    ], options: [ChimeOptions.accuracy, ChimeOptions.at, ChimeOptions.stdin, ChimeOptions.status] + ChimeOptions.store, discussion: """
        Tells the running chimed where you are, so that reminders with an alarm on
        arriving at or leaving a place ring (chime add reminder --alarm-leave).
        POSITION is what a line of --stdin holds: LAT LON [ACCURACY], LAT,LON, a
        geo: URI (geo:31.2304,121.4737;u=15) or a gpsd report. LAT and LON are
        WGS 84 degrees (a southern latitude or western longitude is negative:
        chime location -33.8688 151.2093); they and the accuracy are decimal
        numbers (no exponent, no hexadecimal, no inf or nan).

        With --stdin it reads a stream, one position a line, until the end of
        input: `LAT LON [ACCURACY]` (spaces or a comma), a geo: URI
        (geo:52.52,13.40;u=15) or a gpsd JSON report, so that
        `gpspipe -w | chime location --stdin` works as it is. Blank lines and
        lines starting with # are skipped; a line that is not a position is
        reported with its number and the stream goes on. Positions go to chimed in
        batches (every 100 ms, or 500 of them, whichever comes first).

        With no daemon running, the newest position is kept in the store, and
        chimed evaluates it when it starts (positions older than five minutes by
        then are not used).

        With no position, or --status, it prints the last position (the newest
        chimed took, while it runs) and whether each location alarm's place is
        around you (inside, outside, unknown).
        """, epilogue: ItemOptions.timeHelp + "\n\n" + """
        Exit status: 0 on success; 64 when the command line is wrong; 65 when a
        position is wrong (out of range, not a number; with --stdin, when any line
        was refused, after every good line was used); 69 when the daemon failed to
        take positions; 74 when the store cannot be opened, read or written.
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = "chime location"
        let parsed = try syntax.parse(positionalNumbers(arguments))
        let modes = [parsed[ChimeOptions.stdin], parsed[ChimeOptions.status], !parsed.positionals.isEmpty].filter { $0 }.count
        guard modes <= 1 else { throw .usage("\(command): give LAT LON, --stdin or --status, one of them (see '\(command) --help')") }
        if (parsed[ChimeOptions.accuracy] != nil || parsed[ChimeOptions.at] != nil) && parsed.positionals.isEmpty {
            throw .usage("\(command): --accuracy and --at go with a POSITION")
        }
        if parsed[ChimeOptions.stdin] {
            try stream(parsed, context: context, command: command)
        } else if parsed.positionals.isEmpty {
            try status(parsed, context: context, command: command)
        } else {
            try single(parsed, context: context, command: command)
        }
    }

    /// Negative numbers (`-33.87`, and `-inf`, which is refused later with
    /// a reason) are positionals, not options, unless they are an option's
    /// value; positionals keep their order (LAT before LON).
    static func positionalNumbers(_ arguments: [String]) -> [String] {
        var options: [String] = [], positionals: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                positionals += arguments[index...]
                break
            }
            // `-33.87,151.21` is a position too.
            let negativeNumber = argument.dropFirst().first.map { $0.isNumber || $0 == "." } ?? false
            guard argument.hasPrefix("-"), argument.count > 1, Double(argument) == nil, !negativeNumber else {
                positionals.append(argument)
                continue
            }
            options.append(argument)
            let takesValue = syntax.options.contains { ($0.name == argument || $0.short == argument) && $0.takesValue }
            if takesValue, index < arguments.count {
                options.append(arguments[index])
                index += 1
            }
        }
        return positionals.isEmpty ? options : options + ["--"] + positionals
    }

    // MARK: One position

    /// The arguments are read as one line of `--stdin` (`LAT LON [ACCURACY]`,
    /// `LAT,LON`, a geo: URI, a gpsd report), by the same parser.
    private static func single(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        var time = context.now().timeIntervalSince1970
        if let text = parsed[ChimeOptions.at] {
            let options = ItemOptions(command: command, now: Int64(time.rounded(.down)), zone: context.machineTimeZone(), floating: false)
            time = Double(try options.instant(text, "--at"))
        }
        let line = parsed.positionals.joined(separator: " ")
        let read: PositionLine
        do { read = try PositionLine.parse(line, receivedAt: time) } catch { throw .data("\(command): \(error)") }
        guard case .fix(var fix) = read else {
            throw .data("\(command): no position in '\(line)'; expected LAT LON [ACCURACY], LAT,LON, a geo: URI or a gpsd TPV report")
        }
        if let text = parsed[ChimeOptions.accuracy] {
            guard fix.accuracy == nil else { throw .usage("\(command): the position gives its accuracy already; drop --accuracy \(text)") }
            guard let accuracy = DecimalNumber.value(text.trimmingCharacters(in: .whitespaces)) else {
                throw .data("\(command): --accuracy '\(text)' is not a number")
            }
            do {
                fix = try Fix(position: fix.position, accuracy: accuracy, time: fix.time)
            } catch {
                throw .data("\(command): \(error)")
            }
        }
        let feed = LocationFeed(command: command, context: context, storeOptions: parsed)
        try feed.add(fix)
        try feed.flush()
        try finish(feed, counts: nil, parsed: parsed, context: context, command: command)
    }

    // MARK: A stream

    private static func stream(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        _ = try StoreOptions.positionals(parsed, [], command: command)
        let feed = LocationFeed(command: command, context: context, storeOptions: parsed)
        let counts = try PositionStream(descriptor: context.standardInput, command: command, context: context).read(into: feed)
        try finish(feed, counts: counts, parsed: parsed, context: context, command: command)
    }

    private static func finish(_ feed: LocationFeed, counts: PositionStream.Counts?, parsed: ParsedArguments,
                               context: CommandContext, command: String) throws(CommandFailure) {
        let totals = feed.totals
        for failure in totals.failures { context.standardError("\(command): \(failure)") }
        if parsed[ChimeOptions.json] {
            /// The stream's counts are left out for positions given as arguments.
            struct Summary: Encodable {
                var sent, taken, ignored, transitions: Int
                var kept: Bool
                var lines, fixes, skipped, refused: Int?
            }
            StoreOptions.printJSON(Summary(sent: totals.sent, taken: totals.taken, ignored: totals.ignored, transitions: totals.transitions,
                                           kept: totals.kept, lines: counts?.lines, fixes: counts?.fixes, skipped: counts?.skipped,
                                           refused: counts?.refused), context: context)
        } else if counts != nil || totals.sent > 0 {
            var text = counts.map { "read \($0.lines) line(s): \($0.fixes) position(s), \($0.skipped) skipped, \($0.refused) refused; " } ?? ""
            text += totals.sent > 0 || !totals.kept
                ? "chimed took \(totals.taken), ignored \(totals.ignored) (old or out of order); \(totals.transitions) firing(s)"
                : "kept the newest in the store"
            context.standardOutput(text)
        }
        if let counts, counts.refused > 0 {
            throw .data("\(command): \(counts.refused) line(s) refused; every other line was used")
        }
        if !totals.failures.isEmpty { throw CommandFailure(message: "", status: ExitStatus.unavailable) }
    }

    // MARK: Status

    /// The newest position the running chimed took, when it runs on this
    /// store: it writes a position that changes no state to the store at
    /// most every ten seconds, so the store's may be older. With no daemon
    /// the answer is at once; a busy one (planning a large store) is given
    /// the client's usual time, as every other command gives it.
    static func daemonPosition(storePath: String, context: CommandContext) -> Fix? {
        guard case .status(let status)? = try? DaemonClient(environment: context.environment).send(.status),
              URL(fileURLWithPath: status.store).standardizedFileURL == URL(fileURLWithPath: storePath).standardizedFileURL,
              let position = status.position
        else { return nil }
        return try? Fix(latitude: position.lat, longitude: position.lon, accuracy: position.accuracy, time: position.time)
    }

    private static func status(_ parsed: ParsedArguments, context: CommandContext, command: String) throws(CommandFailure) {
        let (_, store) = try StoreOptions.start(parsed, access: .reading, context: context, command: command)
        let (stored, alarms, snapshot) = try StoreOptions.run(command) { () throws(StoreError) in
            let ledger = try AlarmLedger(store: store)
            return (try ledger.latestPosition(), try store.locationAlarms(), try ledger.geofenceSnapshot())
        }
        // `recorded` is when the position reached the store; nil for one only chimed holds yet.
        var position = stored.map { (fix: $0.fix, recorded: Optional(Double($0.recordedAt))) }
        if let newer = daemonPosition(storePath: StoreOptions.path(parsed, context: context), context: context),
           newer.time > position?.fix.time ?? -.infinity {
            position = (newer, nil)
        }
        let zone = context.machineTimeZone()
        func stamp(_ time: Double) -> String { RFC3339.text(Int64(time.rounded(.down)), in: zone) }
        if parsed[ChimeOptions.json] {
            struct Position: Encodable {
                var latitude, longitude: Double
                @Nullable var accuracy: Double?
                var at: String
                @Nullable var recorded: String?
            }
            /// The alarm's fields named as in item JSON, then its state.
            struct Geofence: Encodable {
                var fields: ItemJSON.AlarmObject
                var alarm, item, title, state: String
                @Nullable var lastFired: String?

                enum CodingKeys: CodingKey { case alarm, item, title, state, lastFired }

                func encode(to encoder: any Encoder) throws {
                    try fields.encode(to: encoder)
                    var container = encoder.container(keyedBy: CodingKeys.self)
                    try container.encode(alarm, forKey: .alarm)
                    try container.encode(item, forKey: .item)
                    try container.encode(title, forKey: .title)
                    try container.encode(state, forKey: .state)
                    try container.encode(lastFired, forKey: .lastFired)
                }
            }
            struct Status: Encodable {
                @Nullable var position: Position?
                var geofences: [Geofence]
            }
            let geofences = alarms.map { row in
                let state = snapshot.states[row.alarm.identifier.rawValue]
                return Geofence(fields: ItemJSON.alarm(row.alarm), alarm: row.alarm.identifier.rawValue, item: row.item.rawValue,
                                title: row.title, state: (state?.presence ?? .unknown).rawValue, lastFired: state?.lastFiredAt.map(stamp))
            }
            let shown = position.map {
                Position(latitude: $0.fix.position.latitude, longitude: $0.fix.position.longitude, accuracy: $0.fix.accuracy,
                         at: stamp($0.fix.time), recorded: $0.recorded.map(stamp))
            }
            StoreOptions.printJSON(Status(position: shown, geofences: geofences), context: context)
            return
        }
        if let position {
            let accuracy = position.fix.accuracy.map { " ±\(Int($0.rounded())) m" } ?? ""
            context.standardOutput("last position \(position.fix.position)\(accuracy) at \(stamp(position.fix.time))")
        } else {
            context.standardOutput("no position yet")
        }
        if alarms.isEmpty { context.standardOutput("No location alarms on incomplete reminders.") }
        for row in alarms {
            guard case .proximity(let place, let proximity) = row.alarm.trigger else { continue }
            let state = snapshot.states[row.alarm.identifier.rawValue]?.presence ?? .unknown
            let name = place.title.isEmpty ? "\(place.latitude),\(place.longitude)" : place.title
            let presence = state.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            context.standardOutput("\(presence) \(row.title) [\(row.item.short)]  on \(proximity == .enter ? "arriving at" : "leaving") "
                                   + "\(name) (\(Int(place.radius.rounded())) m)")
        }
    }
}
