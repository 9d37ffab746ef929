import CalendarModel
import CalendarStore

/// `chime places [list] | add NAME WHERE | remove NAME`: places named once,
/// for location alarms given by name (`--alarm-leave office`).
enum PlacesCommand: Command {
    static let name = "places"
    static let changesStore = true
    static let abstract = "Name places for location alarms given by name, or list them"
    static let syntax = CommandSyntax("chime places", forms: [
        .init("", options: ChimeOptions.store),
        .init("add NAME WHERE", options: ChimeOptions.store),
        .init("remove NAME", options: ChimeOptions.store),
    ], options: ChimeOptions.store, discussion: """
        (no action)  every place: name, coordinates and radius
        add          names a place: WHERE is LAT,LON[,RADIUS] in degrees and
                     metres (default 100), or here[,RADIUS], the newest position
                     taken (chime location), at most 30 minutes old. A name
                     given again moves the place. An alarm made with
                     chime add reminder --alarm-leave NAME (or with
                     chime add reminder --alarm-arrive NAME) rings on leaving
                     (arriving at) it, with its radius unless ',RADIUS' follows
                     the name; the alarm's place is named so.
        remove       forgets a place; alarms made from it keep their circle

        Names: up to 64 characters, no comma, not 'here', not starting with a
        digit, a sign, a point or a space (公司 and 'home' will do). Places
        stay on this machine: they are not exported or synced.
        """, epilogue: """
        Exit status: 0 on success; 64 when the command line is wrong; 65 when a
        name or WHERE is wrong, or here is not known; 66 when remove finds no
        such place; 74 when the store cannot be read or written.
        """)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: "chime places", among: ["list", "add", "remove"], implicit: "list").parts
        switch action {
        case "list":
            let (_, store) = try StoreOptions.start(rest, access: .reading, context: context, command: command)
            let places = try StoreOptions.run(command) { () throws(StoreError) in try store.places() }
            show(places, parsed: parsed, context: context)
        case "add":
            let (given, store) = try StoreOptions.start(rest, positionals: ["NAME", "WHERE"], access: .writing, context: context, command: command)
            let options = ItemOptions(command: command, now: context.second(), zone: context.machineTimeZone(), floating: false)
            let located = try options.location(given[1], "WHERE", title: "") { name throws(CommandFailure) in
                try ItemOptions.place(named: name, in: store, context: context, command: command)
            }
            let place: StructuredLocation
            do throws(ValidationError) {
                place = try StructuredLocation(title: given[0], latitude: located.latitude, longitude: located.longitude, radius: located.radius)
            } catch {
                throw .data("\(command): \(error)")
            }
            try StoreOptions.run(command) { () throws(StoreError) in try store.setPlace(place) }
            if parsed[ChimeOptions.json] {
                StoreOptions.printJSON(PlaceJSON(place), context: context)
            } else {
                context.standardOutput("place \(text(place))")
            }
        case "remove":
            let (given, store) = try StoreOptions.start(rest, positionals: ["NAME"], access: .writing, context: context, command: command)
            let removed = try StoreOptions.run(command) { () throws(StoreError) in try store.removePlace(named: given[0]) }
            guard removed else { throw CommandFailure(message: "\(command): no place named '\(given[0])' ('chime places' lists them)", status: ExitStatus.notFound) }
            if parsed[ChimeOptions.json] {
                struct Removed: Encodable {
                    var removed: String
                }
                StoreOptions.printJSON(Removed(removed: given[0]), context: context)
            } else {
                context.standardOutput("removed place '\(given[0])'")
            }
        default:
            preconditionFailure("\(command): action(of:among:) took an action with no case here")
        }
    }

    /// `公司  31.2304,121.4737  150 m`.
    static func text(_ place: StructuredLocation) -> String {
        "\(place.title)  \(place.latitude),\(place.longitude)  \(Alarm.numberText(place.radius)) m"
    }

    /// A place as `--json` writes it.
    struct PlaceJSON: Encodable {
        var name: String
        var latitude, longitude, radius: Double

        init(_ place: StructuredLocation) {
            (name, latitude, longitude, radius) = (place.title, place.latitude, place.longitude, place.radius)
        }
    }

    private static func show(_ places: [StructuredLocation], parsed: ParsedArguments, context: CommandContext) {
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(["places": places.map(PlaceJSON.init)], context: context)
        } else if places.isEmpty {
            context.standardOutput("No places named.")
        } else {
            for place in places { context.standardOutput(text(place)) }
        }
    }
}
