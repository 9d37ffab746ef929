import AlarmScheduler
import CalendarModel
import CalendarStore
import Foundation
import Geofencing

/// Reads the values of item options (times, zones, rules, alarms,
/// coordinates, identifiers) for `add`, `edit`, `remove`, `list` and friends,
/// each failure naming the option and the text at fault.
struct ItemOptions {
    let command: String
    /// The current time, in Unix seconds.
    let now: Int64
    /// The zone wall-clock words (`today`, `08:50`, `2026-12-01T08:50`) are read in.
    let zone: TimeZoneRules
    /// Whether new item times follow the machine's zone instead of `zone`.
    let floating: Bool

    static let timeHelp = """
    WHEN is 2026-12-01 (a date), 2026-12-01T08:50 or '2026-12-01 08:50' (a
    wall-clock time), 08:50, 9am or noon (the next time the clock reads that),
    today, tomorrow, monday…sunday, 'next fri', 'dec 24', 'tomorrow at 5pm',
    now, +10m, +1d, 'in 2 hours', '10 minutes ago', RFC 3339 with an offset
    (2026-12-01T08:50:00+08:00), or Chinese words (明天9点, 下周一8:50,
    周五下午3点, 12月24日, 10分钟后). A wall-clock time that happens twice (when
    the clocks go back) means the first; an offset names either.
    """

    /// `--tz ZONE` or the machine's zone, `--floating` for floating times.
    init(_ parsed: ParsedArguments, context: CommandContext, command: String,
         defaultZone: TimeZoneRules? = nil, defaultFloating: Bool = false) throws(CommandFailure) {
        self.command = command
        now = context.second()
        if let name = parsed[ChimeOptions.tz] {
            if parsed[ChimeOptions.floating] {
                throw .usage("\(command): --tz and --floating exclude each other (a floating time has no zone)")
            }
            do { zone = try TimeZoneRules.named(name) } catch { throw .data("\(command): --tz: \(error)") }
            floating = false
        } else {
            zone = defaultZone ?? context.machineTimeZone()
            floating = parsed[ChimeOptions.floating] || (defaultZone == nil && defaultFloating)
        }
    }

    init(command: String, now: Int64, zone: TimeZoneRules, floating: Bool) {
        self.command = command
        self.now = now
        self.zone = zone
        self.floating = floating
    }

    // MARK: Times

    func time(_ text: String, _ option: String) throws(CommandFailure) -> TimeExpression {
        do {
            return try TimeExpression(text, now: now, zone: zone)
        } catch {
            throw error.failure(in: "\(command): \(option)")
        }
    }

    /// An item time as written: a date stays a date, a time is kept on the
    /// wall clock of `zone` (or floating).
    func itemTime(_ expression: TimeExpression) -> ItemTime {
        expression.itemTime(in: zone, floating: floating)
    }

    func instant(_ text: String, _ option: String) throws(CommandFailure) -> Int64 {
        try time(text, option).instant(in: zone)
    }

    /// The instant an item time names; floating times and dates read on `zone`.
    func instant(of time: ItemTime) -> Int64 {
        (try? time.instant(machine: zone)) ?? 0
    }

    func duration(_ text: String, _ option: String, allowingNegative: Bool = false) throws(CommandFailure) -> Int {
        do {
            return try DurationExpression(text, allowingNegative: allowingNegative).seconds
        } catch {
            throw error.failure(in: "\(command): \(option)")
        }
    }

    /// The wall-clock reading an instant has for an item time of `kind`'s
    /// sort, in seconds after `start` (elapsed time in a zone, wall-clock
    /// time when floating).
    func time(after start: ItemTime, seconds: Int) -> ItemTime {
        switch start {
        case .date(let day):
            return .date(day.adding(days: max(0, (seconds + 86_399) / 86_400 - 1)))
        case .floating(let local):
            return .floating(LocalDateTime(localSeconds: local.localSeconds + Int64(seconds)))
        case .zoned(_, let name, _):
            // Elapsed time: across a fold, 01:30 EDT and an hour is 01:30 EST.
            let rules = (try? TimeZoneRules.named(name)) ?? zone
            return .zoned(at: start.resolution(in: rules).instant + Int64(seconds), in: rules)
        }
    }

    // MARK: Rules and dates in a series

    /// A `--repeat` rule for a series asked to start at `start` (nil: none
    /// yet), and how many days its start moves (`RuleShorthand.series`).
    func series(_ text: String, _ option: String = "--repeat", start: ItemTime?) throws(CommandFailure) -> (rule: RecurrenceRule, shift: Int) {
        do {
            return try RuleShorthand.series(text, start: start) { words, first throws(RecurrencePhrase.Refusal) in
                try until(words, start: first)
            }
        } catch {
            throw .data("\(command): \(option) '\(text)': \(error)")
        }
    }

    /// The end a phrase's `until WHEN` names for a series that starts at
    /// `start`, in the form RFC 5545 wants beside it: a date for an all-day
    /// series; for a floating one its wall-clock time; else the instant, in
    /// UTC. A day alone means through its end; WHEN is read like any time
    /// (`dec 31`, `friday`, `2027-06-30 17:00`), on the series' own zone.
    func until(_ words: String, start: ItemTime) throws(RecurrencePhrase.Refusal) -> RecurrenceRule.Until {
        let seriesZone = (try? start.timeZone(machine: zone)) ?? zone
        let meaning: TimeExpression.Meaning
        do {
            meaning = try TimeExpression(words, now: now, zone: seriesZone).meaning
        } catch {
            throw .init("until: \(error)")
        }
        let end: RecurrenceRule.Until
        let last: Int64
        switch (start, meaning) {
        case (.date(let first), _):
            let day: CivilDate
            switch meaning {
            case .date(let date): day = date
            case .wallClock(let time): day = time.date
            case .instant(let instant): day = seriesZone.localTime(at: instant).date
            }
            guard day >= first else { throw .init("until \(day) is before the start, \(first)") }
            return .date(day)
        case (.floating, _):
            let time: LocalDateTime
            switch meaning {
            case .date(let day): time = LocalDateTime(date: day, hour: 23, minute: 59, second: 59)!
            case .wallClock(let wallClock): time = wallClock
            case .instant(let instant): time = seriesZone.localTime(at: instant)
            }
            end = .local(time)
            last = seriesZone.resolve(time).instant
        case (.zoned, _):
            switch meaning {
            // Through the end of that day: the last second before the next one starts.
            case .date(let day): last = seriesZone.resolve(LocalDateTime(date: day.adding(days: 1))!).instant - 1
            case .wallClock(let time): last = seriesZone.resolve(time).instant
            case .instant(let instant): last = instant
            }
            end = .utc(LocalDateTime(localSeconds: last))
        }
        let first = start.resolution(in: seriesZone).instant
        guard last >= first else {
            throw .init("until \(RFC3339.text(last, in: seriesZone)) is before the start, \(RFC3339.text(first, in: seriesZone))")
        }
        return end
    }

    /// An occurrence's original start in a series that starts at `start`:
    /// a date means that day at the series' time of day.
    func seriesTime(_ text: String, _ option: String, start: ItemTime) throws(CommandFailure) -> LocalDateTime {
        let expression = try time(text, option)
        let seriesZone = (try? start.timeZone(machine: zone)) ?? zone
        switch expression.meaning {
        case .date(let day):
            if start.isDateOnly { return LocalDateTime(date: day)! }
            let clock = start.wallClock
            return LocalDateTime(date: day, hour: clock.hour, minute: clock.minute, second: clock.second)!
        case .wallClock(let local):
            return start.isDateOnly ? LocalDateTime(date: local.date)! : local
        case .instant(let instant):
            let local = seriesZone.localTime(at: instant)
            return start.isDateOnly ? LocalDateTime(date: local.date)! : local
        }
    }

    /// `--exdate` values, repeatable or comma-separated, as original starts.
    func seriesTimes(_ values: [String], _ option: String, start: ItemTime) throws(CommandFailure) -> [LocalDateTime] {
        var result: [LocalDateTime] = []
        for value in values {
            for text in value.split(separator: ",") {
                result.append(try seriesTime(String(text), option, start: start))
            }
        }
        return result
    }

    // MARK: Alarms

    /// Sets `--missed-window` on the time-based alarms, when it is given.
    func applyMissedWindow(_ parsed: ParsedArguments, to alarms: inout [Alarm]) throws(CommandFailure) {
        guard let text = parsed[ChimeOptions.missedWindow] else { return }
        let window: Int?
        switch text.lowercased() {
        case "never": window = 0
        case "default": window = nil
        default: window = try duration(text, "--missed-window")
        }
        for index in alarms.indices {
            if case .proximity = alarms[index].trigger { continue }
            alarms[index].missedWindow = window
        }
    }

    /// Sets `--dwell` on the arrive alarms and `--first-position` on the
    /// location alarms, when given; refuses them when there is no such alarm
    /// to qualify.
    func applyLocationOptions(_ parsed: ParsedArguments, to alarms: inout [Alarm]) throws(CommandFailure) {
        if let text = parsed[ChimeOptions.dwell] {
            let dwell = try duration(text, "--dwell")
            let arrivals = alarms.indices.filter {
                if case .proximity(_, .enter) = alarms[$0].trigger { true } else { false }
            }
            guard !arrivals.isEmpty else { throw .usage("\(command): --dwell applies to arrive alarms, and there is none (--alarm-arrive)") }
            for index in arrivals { alarms[index].dwell = dwell }
        }
        if let text = parsed[ChimeOptions.firstPosition] {
            let rings: Bool
            switch text.lowercased() {
            case "rings", "ring": rings = true
            case "quiet": rings = false
            default: throw .data("\(command): --first-position '\(text)' is not 'rings' or 'quiet'")
            }
            let located = alarms.indices.filter {
                if case .proximity = alarms[$0].trigger { true } else { false }
            }
            guard !located.isEmpty else {
                throw .usage("\(command): --first-position applies to location alarms, and there is none (--alarm-arrive, --alarm-leave)")
            }
            for index in located { alarms[index].firesOnFirstFix = rings }
        }
    }

    /// The alarms the options ask for; nil when none of the options is given.
    /// A location alarm's `here` is the newest position, and a name the place,
    /// that the store named by `parsed` and `context` keeps.
    func alarms(_ parsed: ParsedArguments, locationTitle: String, context: CommandContext) throws(CommandFailure) -> [Alarm]? {
        let given = ChimeOptions.alarmMakers.contains { parsed.has($0.spec) }
        guard given else { return nil }
        var alarms: [Alarm] = []
        for text in parsed.all(ChimeOptions.alarm) { alarms.append(.relative(seconds: try alarmOffset(text))) }
        for text in parsed.all(ChimeOptions.alarmAt) {
            alarms.append(.absolute(Date(timeIntervalSince1970: TimeInterval(try instant(text, "--alarm-at")))))
        }
        // Opened once, and only for a name: the command's own connection is not open yet where add reads its options.
        var store: CalendarStore??
        for (option, proximity) in [(ChimeOptions.alarmArrive, Alarm.Proximity.enter), (ChimeOptions.alarmLeave, .leave)] {
            for text in parsed.all(option) {
                let place = try location(text, option.spec.name, title: locationTitle) { name throws(CommandFailure) in
                    if store == nil { store = .some(Self.existingStore(parsed, context: context)) }
                    return try Self.place(named: name, in: store ?? nil, context: context, command: command)
                }
                alarms.append(.proximity(place, proximity))
            }
        }
        return alarms
    }

    /// An `--alarm` offset in seconds from the start or due time, read as
    /// people say it: a bare duration is before (`10m`: ten minutes
    /// before), as is `-10m`; only `+10m` is after. `before` or `after` may
    /// say it in words (`10 minutes before`, `1h after`, as `chime show`
    /// writes alarms), but not beside a sign; `at the time` is 0, as it
    /// writes that one.
    func alarmOffset(_ text: String) throws(CommandFailure) -> Int {
        var words = text.lowercased().split(whereSeparator: \.isWhitespace)
        if words == ["at", "the", "time"] { return 0 }
        guard let last = words.last, last == "before" || last == "after", words.count > 1 else {
            let seconds = try duration(text, "--alarm", allowingNegative: true)
            return Substring(text).trimmingWhitespace().hasPrefix("+") ? seconds : -abs(seconds)
        }
        words.removeLast()
        guard words[0].first != "+", words[0].first != "-" else {
            throw .data("\(command): --alarm: '\(text)' has a sign and '\(last)'; give one of them, as in 10m, +10m or '10 minutes \(last)'")
        }
        let seconds = try duration(words.joined(separator: " "), "--alarm")
        return last == "after" ? seconds : -seconds
    }

    /// Says so when `--tz` was given for an item whose times are all dates:
    /// a date has no zone (the zone read the words, `tomorrow` say, but the
    /// item is on that date wherever the machine is, and its alarms ring on
    /// the machine's clock). Edit refuses the same, there being nothing else
    /// it could mean.
    static func warnZoneOfDates(_ parsed: ParsedArguments, times: [ItemTime?], kind: String, context: CommandContext, command: String) {
        guard let zone = parsed[ChimeOptions.tz], !times.compactMap({ $0 }).isEmpty,
              times.compactMap({ $0 }).allSatisfy(\.isDateOnly) else { return }
        context.standardError("\(command): warning: --tz \(zone): the \(kind)'s dates have no time, so no zone; "
            + "it is on its dates wherever the machine is, and its alarms ring on the machine's clock")
    }

    /// The alarm a reminder's due time implies when no alarm is asked for,
    /// as Apple's Reminders sets one: at the due time, or for a due date at
    /// the time of day `CHIME_DAY_ALARM` names (09:00 unless set). It is
    /// stored as a real alarm, so that `show`, `--json` and the daemon see
    /// the same thing. None without a due time.
    static func impliedAlarms(for due: ItemTime?, environment: [String: String], command: String) throws(CommandFailure) -> [Alarm] {
        guard let due else { return [] }
        guard due.isDateOnly else { return [.relative(seconds: 0)] }
        return [.relative(seconds: try dayAlarmSeconds(environment, command: command))]
    }

    /// Whether `alarms` are what `due` implies: an edit that changes a due
    /// date to a time (or back) moves the implied alarm with it.
    static func areImplied(_ alarms: [Alarm], for due: ItemTime?, environment: [String: String]) -> Bool {
        guard alarms.count == 1, case .relative(let seconds) = alarms[0].trigger else { return false }
        guard let due else { return false }
        return due.isDateOnly ? seconds == (try? dayAlarmSeconds(environment, command: "")) : seconds == 0
    }

    /// `CHIME_DAY_ALARM` (HH:MM, default 09:00) as seconds after midnight.
    static func dayAlarmSeconds(_ environment: [String: String], command: String) throws(CommandFailure) -> Int {
        guard let text = environment["CHIME_DAY_ALARM"], !text.isEmpty else { return 9 * 3600 }
        guard let minutes = minuteOfDay(text) else {
            throw .data("\(command): CHIME_DAY_ALARM '\(text)' is not a time of day HH:MM (00:00 to 23:59), the time a reminder due on a date rings")
        }
        return minutes * 60
    }

    /// A time of day written HH:MM (or H:MM), 00:00 to 23:59, as minutes
    /// after midnight; nil for anything else.
    static func minuteOfDay(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return hour * 60 + minute
    }

    /// `LAT,LON` or `LAT,LON,RADIUS` (metres), in decimal numbers; or a
    /// name with an optional `,RADIUS`: `here`, or a place, as `named` finds
    /// it (asked only then). A place's circle keeps its radius unless one is
    /// given, and its name where `title` is empty.
    func location(_ text: String, _ option: String, title: String,
                  named: (String) throws(CommandFailure) -> StructuredLocation?) throws(CommandFailure) -> StructuredLocation {
        var fields = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        var place: StructuredLocation?
        if let first = fields.first, CalendarStore.startsAsName(first), fields.count <= 2 {
            let name = String(fields[0])
            guard let found = try named(name) else {
                throw .data("\(command): \(option) '\(text)': '\(name)' is not a place Chime knows "
                            + "('chime places' lists them; 'chime places add \(name) here' names where you are)")
            }
            place = found
            fields.removeFirst()
        }
        let numbers = fields.compactMap { DecimalNumber.value($0) }
        guard place == nil ? (2...3).contains(fields.count) : fields.count <= 1, numbers.count == fields.count else {
            throw .data("\(command): \(option) '\(text)' is not LAT,LON or LAT,LON,RADIUS in degrees and metres (e.g. 31.2304,121.4737,200), "
                        + "nor here or a place, with ,RADIUS or without")
        }
        let radius = numbers.count == (place == nil ? 3 : 1) ? numbers[numbers.count - 1] : place?.radius ?? StructuredLocation.defaultRadius
        do {
            return try StructuredLocation(title: title.isEmpty ? place?.title ?? "" : title, latitude: place?.latitude ?? numbers[0],
                                          longitude: place?.longitude ?? numbers[1], radius: radius)
        } catch {
            throw .data("\(command): \(option) '\(text)': \(error)")
        }
    }

    /// The store the command line names, when it exists: where places and
    /// the newest position are read (none yet: no places, no position).
    static func existingStore(_ parsed: ParsedArguments, context: CommandContext) -> CalendarStore? {
        try? CalendarStore(path: StoreOptions.path(parsed, context: context), creating: false, machineTimeZone: context.machineTimeZone())
    }

    /// `here` (the newest position, with no title) or the place `store`
    /// keeps under `name`; nil for an unknown name.
    static func place(named name: String, in store: CalendarStore?, context: CommandContext, command: String) throws(CommandFailure) -> StructuredLocation? {
        if name.lowercased() == "here" {
            let fix = try newestPosition(in: store, context: context, command: command)
            do { return try StructuredLocation(latitude: fix.position.latitude, longitude: fix.position.longitude) } catch {
                throw .data("\(command): 'here': \(error)")
            }
        }
        return (try? store?.place(named: name)) ?? nil
    }

    /// How old the newest position may be to stand for `here`: a laptop
    /// carried elsewhere since would put the place where it no longer is.
    static let hereMaximumAge: Int64 = 30 * 60

    /// The newest position `store` keeps (`chime location`, or chimed from
    /// its feed, within seconds), for `here`; refused when there is none or
    /// it is older than `hereMaximumAge`.
    static func newestPosition(in store: CalendarStore?, context: CommandContext, command: String) throws(CommandFailure) -> Fix {
        let kept = (try? store.map { store throws in try AlarmLedger(store: store).latestPosition() }) ?? nil
        let feed = "feed one with 'chime location LAT,LON' or a feeder (see 'chime location --help'), or give LAT,LON"
        guard let fix = kept?.fix else { throw .data("\(command): 'here' is not known: no position has been taken; " + feed) }
        let age = context.second() - Int64(fix.time.rounded(.down))
        guard age <= hereMaximumAge else {
            throw .data("\(command): 'here' is not known: the newest position (\(fix.position)) is \(Alarm.durationText(Int(age))) old; " + feed)
        }
        return fix
    }

    // MARK: Other values

    /// 0–9, or `none`, `high` (1), `medium` (5), `low` (9).
    func priority(_ text: String) throws(CommandFailure) -> Int {
        switch text.lowercased() {
        case "none": return 0
        case "high": return 1
        case "medium": return 5
        case "low": return 9
        default:
            guard let value = Int(text), (0...9).contains(value) else {
                throw .data("\(command): --priority '\(text)' is not 0 (none) to 9, or none, high, medium, low")
            }
            return value
        }
    }

    func url(_ text: String) throws(CommandFailure) -> String {
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw .data("\(command): --url '\(text)' is not a URL with a scheme (e.g. https://example.com/meeting)")
        }
        return text
    }

    func key(_ text: String) throws(CommandFailure) -> String {
        guard !text.isEmpty else { throw .data("\(command): --key '' must not be empty") }
        return text
    }

    /// `--span this|future`; `this` when not given.
    static func span(_ parsed: ParsedArguments, command: String) throws(CommandFailure) -> Span? {
        guard let text = parsed[ChimeOptions.span] else { return nil }
        guard let span = Span(rawValue: text.lowercased()) else {
            throw .data("\(command): --span '\(text)' is not 'this' or 'future'")
        }
        return span
    }
}

/// An event or a reminder, found by a unique prefix of its identifier.
enum StoredItem {
    case event(Event)
    case reminder(Reminder)

    static func find(_ prefix: String, in store: CalendarStore, command: String) throws(CommandFailure) -> StoredItem {
        try StoreOptions.run(command) { () throws(StoreError) -> StoredItem in
            let identifier = try store.itemIdentifier(matching: prefix)
            do throws(StoreError) {
                return .event(try store.event(identifier: identifier))
            } catch {
                guard case StoreError.notFound = error else { throw error }
                return .reminder(try store.reminder(identifier: identifier))
            }
        }
    }
}

extension CalendarStore {
    /// The calendar a command names with `--calendar`, or the default one.
    func calendar(named name: String?, forEvents: Bool, command: String) throws(CommandFailure) -> ItemCalendar {
        try StoreOptions.run(command) { () throws(StoreError) -> ItemCalendar in
            if let name { return try calendar(named: name) }
            return forEvents ? try defaultCalendarForNewEvents() : try defaultCalendarForNewReminders()
        }
    }
}

/// Who holds an external key in a calendar. The store finds events by key;
/// reminders it has no lookup for, so they are searched here. A key held by
/// an item of the other kind is refused: the store would otherwise adopt
/// that item's identifier and overwrite it with an item of another kind.
struct KeyHolder {
    var kind: ItemKind
    var identifier: ItemIdentifier

    static func find(_ key: String, in calendar: ItemCalendar, store: CalendarStore) throws(StoreError) -> KeyHolder? {
        if let event = try store.event(externalKey: key, calendar: calendar.identifier) { return KeyHolder(kind: .event, identifier: event.identifier) }
        if let reminder = try store.reminders(.all, calendars: [calendar.identifier]).first(where: { $0.externalKey == key }) {
            return KeyHolder(kind: .reminder, identifier: reminder.identifier)
        }
        return nil
    }

    /// The item of the kind being added (`event` or not) that holds `key`
    /// in `calendar`, which adding again updates; nil with no key or no
    /// holder. A key held by an item of the other kind is refused (65).
    static func updated(by key: String?, event: Bool, in calendar: ItemCalendar, store: CalendarStore,
                        command: String) throws(CommandFailure) -> ItemIdentifier? {
        guard let key, let holder = try StoreOptions.run(command, { () throws(StoreError) in try find(key, in: calendar, store: store) })
        else { return nil }
        guard holder.kind == (event ? .event : .reminder) else {
            throw .data("\(command): --key '\(key)' is already used by \(holder.kind.rawValue) \(holder.identifier.short) in calendar '\(calendar.title)'")
        }
        return holder.identifier
    }
}
