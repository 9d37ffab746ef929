import CalendarModel

/// A geofence firing: the position crossed its circle the way its alarm asks.
public struct Transition: Hashable, Sendable, Codable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        case enter, leave
    }

    public let geofence: ItemIdentifier
    public let kind: Kind
    /// Unix seconds: the time of the fix that fired.
    public let time: Double
    public let fix: Fix

    public init(geofence: ItemIdentifier, kind: Kind, time: Double, fix: Fix) {
        self.geofence = geofence
        self.kind = kind
        self.time = time
        self.fix = fix
    }

    enum CodingKeys: String, CodingKey { case geofence, kind, time, fix }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let raw = try container.decode(String.self, forKey: .geofence)
        guard let identifier = ItemIdentifier(raw) else {
            throw DecodingError.dataCorruptedError(forKey: .geofence, in: container,
                                                   debugDescription: "geofence '\(raw)' is not 32 lowercase hexadecimal digits")
        }
        geofence = identifier
        kind = try container.decode(Kind.self, forKey: .kind)
        time = try container.decode(Double.self, forKey: .time)
        fix = try container.decode(Fix.self, forKey: .fix)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(geofence.rawValue, forKey: .geofence)
        try container.encode(kind, forKey: .kind)
        try container.encode(time, forKey: .time)
        try container.encode(fix, forKey: .fix)
    }

    public var description: String { "\(kind) \(geofence.short) at \(time)" }
}
