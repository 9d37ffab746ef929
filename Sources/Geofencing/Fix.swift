import CalendarModel

/// One reported position: where, how sure, and when.
public struct Fix: Hashable, Sendable, Codable, CustomStringConvertible {
    public let position: GeoPoint
    /// The radius of uncertainty in metres, as the source reports it (gpsd's
    /// eph, RFC 5870's `u=`); nil when the source gives none, which counts as
    /// exact (a person typing coordinates means them).
    public let accuracy: Double?
    /// Unix time in seconds.
    public let time: Double

    public init(position: GeoPoint, accuracy: Double? = nil, time: Double) throws(ValidationError) {
        if let accuracy {
            guard accuracy.isFinite else {
                throw ValidationError(field: "accuracy", value: String(accuracy), reason: "must be a finite number of metres")
            }
            guard accuracy >= 0 else {
                throw ValidationError(field: "accuracy", value: String(accuracy), reason: "must not be negative")
            }
        }
        guard time.isFinite else {
            throw ValidationError(field: "time", value: String(time), reason: "must be a finite number of Unix seconds")
        }
        self.position = position
        self.accuracy = accuracy
        self.time = time
    }

    public init(latitude: Double, longitude: Double, accuracy: Double? = nil, time: Double) throws(ValidationError) {
        try self.init(position: GeoPoint(latitude: latitude, longitude: longitude), accuracy: accuracy, time: time)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(position: container.decode(GeoPoint.self, forKey: .position),
                          accuracy: container.decodeIfPresent(Double.self, forKey: .accuracy),
                          time: container.decode(Double.self, forKey: .time))
        } catch let error as ValidationError {
            throw DecodingError.dataCorruptedError(forKey: .accuracy, in: container, debugDescription: error.description)
        }
    }

    public var description: String {
        "\(position)" + (accuracy.map { " ±\($0) m" } ?? "") + " at \(time)"
    }
}
