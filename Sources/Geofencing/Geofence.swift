import CalendarModel

/// The circle of one location alarm and how it wants to be told about it.
public struct Geofence: Hashable, Sendable {
    /// The alarm's identifier: a geofence is one proximity alarm.
    public let identifier: ItemIdentifier
    public let centre: GeoPoint
    /// Metres, positive.
    public let radius: Double
    /// Which crossing fires: into the circle or out of it.
    public let proximity: Alarm.Proximity
    /// For an enter geofence, how long (seconds) the position must stay
    /// inside before the enter fires; 0 fires at once. Leave geofences do
    /// not dwell: their hysteresis margin already keeps them from flapping.
    public let dwellSeconds: Double
    /// At most one firing within this many seconds (measured between the
    /// fixes that fired); crossings in between still change the state.
    public let rearmInterval: Double
    /// Whether the first fix after a start fires when it finds the position
    /// already where the alarm points (inside for enter, outside for leave).
    /// Off by default: the first fix only says where one already was.
    public let firesOnFirstFix: Bool

    public static let defaultRearmInterval = 600.0

    public init(identifier: ItemIdentifier, centre: GeoPoint, radius: Double, proximity: Alarm.Proximity,
                dwellSeconds: Double = 0, rearmInterval: Double = defaultRearmInterval,
                firesOnFirstFix: Bool = false) throws(ValidationError) {
        guard radius.isFinite, radius > 0 else {
            throw ValidationError(field: "radius", value: String(radius), reason: "must be a positive number of metres")
        }
        guard dwellSeconds.isFinite, dwellSeconds >= 0 else {
            throw ValidationError(field: "dwell", value: String(dwellSeconds), reason: "must be zero or a positive number of seconds")
        }
        guard rearmInterval.isFinite, rearmInterval >= 0 else {
            throw ValidationError(field: "re-arm interval", value: String(rearmInterval),
                                  reason: "must be zero or a positive number of seconds")
        }
        self.identifier = identifier
        self.centre = centre
        self.radius = radius
        self.proximity = proximity
        self.dwellSeconds = dwellSeconds
        self.rearmInterval = rearmInterval
        self.firesOnFirstFix = firesOnFirstFix
    }

    /// The geofence of a proximity alarm, with its dwell and first-fix
    /// choice, or nil for an alarm at a time.
    public init?(alarm: Alarm, rearmInterval: Double = defaultRearmInterval) throws(ValidationError) {
        guard case .proximity(let location, let proximity) = alarm.trigger else { return nil }
        try self.init(identifier: alarm.identifier, centre: GeoPoint(location), radius: location.radius, proximity: proximity,
                      dwellSeconds: proximity == .enter ? Double(alarm.dwell) : 0, rearmInterval: rearmInterval,
                      firesOnFirstFix: alarm.firesOnFirstFix)
    }

    /// Whether the circle itself is the same (a change elsewhere keeps the
    /// state; a moved or resized circle makes it unknown).
    func hasSameCircle(as other: Geofence) -> Bool { centre == other.centre && radius == other.radius }
}
