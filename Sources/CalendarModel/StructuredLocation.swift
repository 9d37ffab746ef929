/// A place with a circle around it, for location alarms: EventKit's
/// `EKStructuredLocation` with a radius that is always set.
public struct StructuredLocation: Hashable, Sendable {
    public let title: String
    /// Degrees, -90…90.
    public let latitude: Double
    /// Degrees, -180…180.
    public let longitude: Double
    /// Metres, positive.
    public let radius: Double

    public static let defaultRadius = 100.0
    /// 1,000 km: a circle wider than that is no place, and its distances
    /// would leave the flat approximations geofences are checked with.
    public static let maximumRadius = 1_000_000.0

    public init(title: String = "", latitude: Double, longitude: Double, radius: Double = defaultRadius) throws(ValidationError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw ValidationError(field: "latitude", value: String(latitude), reason: "must be between -90 and 90 degrees")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw ValidationError(field: "longitude", value: String(longitude), reason: "must be between -180 and 180 degrees")
        }
        guard radius.isFinite, radius > 0, radius <= Self.maximumRadius else {
            throw ValidationError(field: "radius", value: String(radius), reason: "must be a positive number of metres, at most 1000000 (1000 km)")
        }
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }
}

/// A value that a calendar item cannot hold, naming the field and the value.
public struct ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var field: String
    public var value: String
    public var reason: String

    public init(field: String, value: String, reason: String) {
        self.field = field
        self.value = value
        self.reason = reason
    }

    public var description: String { "\(field) '\(value)' \(reason)" }
}
