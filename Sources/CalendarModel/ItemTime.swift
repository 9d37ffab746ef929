/// When an event starts or ends, or when a reminder starts or is due: a date
/// alone (all-day, or a reminder due "on Tuesday"), a wall-clock time that
/// follows whatever zone the machine is in (floating), or a wall-clock time
/// in a named IANA zone. EventKit expresses the same with date components.
public enum ItemTime: Hashable, Sendable, CustomStringConvertible {
    case date(CivilDate)
    case floating(LocalDateTime)
    case zoned(LocalDateTime, zone: String)

    public var isDateOnly: Bool {
        if case .date = self { return true }
        return false
    }

    /// The wall-clock reading; a date alone reads as its midnight.
    public var wallClock: LocalDateTime {
        switch self {
        case .date(let date): LocalDateTime(date: date)!
        case .floating(let time), .zoned(let time, _): time
        }
    }

    /// The zone's name, or nil for dates and floating times.
    public var zoneName: String? {
        if case .zoned(_, let zone) = self { return zone }
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
        try timeZone(machine: machine).resolve(wallClock).instant
    }

    /// Refuses a zone name that is not a known IANA zone.
    public func validateZone() throws(ValidationError) {
        guard let zoneName else { return }
        do { _ = try TimeZoneRules.named(zoneName) } catch {
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
        case .zoned(let time, let zone): "\(time) \(zone)"
        }
    }
}
