/// When an event starts or ends, or when a reminder starts or is due: a date
/// alone (all-day, or a reminder due "on Tuesday"), a wall-clock time that
/// follows whatever zone the machine is in (floating), or a wall-clock time
/// in a named IANA zone. EventKit expresses the same with date components.
///
/// A zoned time also says which of a fold's two instants it names when its
/// wall time happens twice (01:30 on the night New York falls back): a time
/// typed as a wall-clock reading names the first, one given as an instant or
/// with an offset (`06:30Z`, `01:30-05:00`) may name the second, and keeps it.
public enum ItemTime: Hashable, Sendable, CustomStringConvertible {
    case date(CivilDate)
    case floating(LocalDateTime)
    case zoned(LocalDateTime, zone: String, fold: TimeZoneRules.Fold = .earlier)

    /// The zoned time that reads `instant` in `zone`, naming the later of
    /// a fold's instants when it is that one.
    public static func zoned(at instant: Int64, in zone: TimeZoneRules) -> ItemTime {
        let (local, fold) = zone.reading(at: instant)
        return .zoned(local, zone: zone.identifier, fold: fold)
    }

    /// Which of a fold's instants the time names (`.earlier` for dates and floating times).
    public var fold: TimeZoneRules.Fold {
        if case .zoned(_, _, let fold) = self { return fold }
        return .earlier
    }

    /// The wall clock read in `zone`, as the fold says.
    public func resolution(in zone: TimeZoneRules) -> TimeZoneRules.Resolution { zone.resolve(wallClock, fold: fold) }

    public var isDateOnly: Bool {
        if case .date = self { return true }
        return false
    }

    /// The wall-clock reading; a date alone reads as its midnight.
    public var wallClock: LocalDateTime {
        switch self {
        case .date(let date): LocalDateTime(date: date)!
        case .floating(let time), .zoned(let time, _, _): time
        }
    }

    /// The same wall-clock time `days` calendar days later (earlier when
    /// negative), in the same zone; a zoned time moved names the first of
    /// a fold's instants (one not moved keeps the one it names).
    public func adding(days: Int) -> ItemTime {
        guard days != 0 else { return self }
        let time = wallClock
        return withWallClock(LocalDateTime(date: time.date.adding(days: days), hour: time.hour, minute: time.minute, second: time.second)!)
    }

    /// A time of this one's kind and zone that reads `time` on the wall
    /// clock (a date takes `time`'s date); a zoned one names the first of a
    /// fold's instants.
    public func withWallClock(_ time: LocalDateTime) -> ItemTime {
        switch self {
        case .date: .date(time.date)
        case .floating: .floating(time)
        case .zoned(_, let zone, _): .zoned(time, zone: zone)
        }
    }

    /// The zone's name, or nil for dates and floating times.
    public var zoneName: String? {
        if case .zoned(_, let zone, _) = self { return zone }
        return nil
    }

    /// The zone the wall clock runs in: the named one, or the machine's.
    public func timeZone(machine: TimeZoneRules) throws(TimeZoneRulesError) -> TimeZoneRules {
        guard let zoneName else { return machine }
        return try TimeZoneRules.named(zoneName)
    }

    /// The instant this time names, reading dates and floating times on the
    /// machine's wall clock.
    public func instant(machine: TimeZoneRules) throws(TimeZoneRulesError) -> Int64 {
        resolution(in: try timeZone(machine: machine)).instant
    }

    /// Refuses a zone name that is not a known IANA zone.
    public func validateZone() throws(ValidationError) {
        _ = try validatedZoneRules()
    }

    /// The rules of its zone, nil for a date or a floating time; throws as `validateZone` does.
    public func validatedZoneRules() throws(ValidationError) -> TimeZoneRules? {
        guard let zoneName else { return nil }
        do { return try TimeZoneRules.named(zoneName) } catch {
            throw ValidationError(field: "time zone", value: zoneName, reason: "is not a known IANA time zone")
        }
    }

    /// Whether two times are of the same kind (both dates, both floating, or both zoned).
    public func isSameKind(as other: ItemTime) -> Bool {
        switch (self, other) {
        case (.date, .date), (.floating, .floating), (.zoned, .zoned): true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .date(let date): date.description
        case .floating(let time): time.description
        case .zoned(let time, let zone, let fold): "\(time) \(zone)" + (fold == .later ? " (second of the two)" : "")
        }
    }
}
