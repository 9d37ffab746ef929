import CalendarModel
import Foundation

/// A position on the Earth in WGS 84 degrees, checked to lie within range.
public struct GeoPoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Degrees, -90…90.
    public let latitude: Double
    /// Degrees, -180…180.
    public let longitude: Double

    /// The mean Earth radius (IUGG R1), in metres. A sphere is off from the
    /// ellipsoid by at most about 0.5%, which is far below the accuracy of
    /// the fixes a geofence sees.
    public static let earthRadius = 6_371_008.8

    public init(latitude: Double, longitude: Double) throws(ValidationError) {
        guard latitude.isFinite else {
            throw ValidationError(field: "latitude", value: String(latitude), reason: "must be a finite number of degrees")
        }
        guard (-90...90).contains(latitude) else {
            throw ValidationError(field: "latitude", value: String(latitude), reason: "must be between -90 and 90 degrees")
        }
        guard longitude.isFinite else {
            throw ValidationError(field: "longitude", value: String(longitude), reason: "must be a finite number of degrees")
        }
        guard (-180...180).contains(longitude) else {
            throw ValidationError(field: "longitude", value: String(longitude), reason: "must be between -180 and 180 degrees")
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The centre of a structured location (already checked by its own initialiser).
    public init(_ location: StructuredLocation) {
        latitude = location.latitude
        longitude = location.longitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(latitude: container.decode(Double.self, forKey: .latitude),
                          longitude: container.decode(Double.self, forKey: .longitude))
        } catch let error as ValidationError {
            throw DecodingError.dataCorruptedError(forKey: .latitude, in: container, debugDescription: error.description)
        }
    }

    public var description: String { "\(latitude),\(longitude)" }

    /// The great-circle distance to `other` in metres, on a sphere of
    /// `earthRadius`.
    ///
    /// The atan2 form of Vincenty's formula on the sphere: the haversine form
    /// loses precision near antipodal points and the plain arccosine form
    /// near coincident ones; this one is well conditioned for both.
    /// Longitude differences are taken through sine and cosine, so the
    /// antimeridian needs no special case, and at a pole every longitude
    /// gives the same answer.
    public func distance(to other: GeoPoint) -> Double {
        SphericalPoint(self).distance(to: SphericalPoint(other))
    }
}

/// A point with its latitude's sine and cosine worked out once, for the
/// inner loops that measure one fix against many geofence centres.
struct SphericalPoint: Sendable {
    let sinLatitude: Double
    let cosLatitude: Double
    /// Radians.
    let longitude: Double

    init(_ point: GeoPoint) {
        let latitude = point.latitude * .pi / 180
        sinLatitude = sin(latitude)
        cosLatitude = cos(latitude)
        longitude = point.longitude * .pi / 180
    }

    func distance(to other: SphericalPoint) -> Double {
        let deltaLongitude = other.longitude - longitude
        let sinDelta = sin(deltaLongitude), cosDelta = cos(deltaLongitude)
        let east = other.cosLatitude * sinDelta
        let north = cosLatitude * other.sinLatitude - sinLatitude * other.cosLatitude * cosDelta
        let along = sinLatitude * other.sinLatitude + cosLatitude * other.cosLatitude * cosDelta
        return GeoPoint.earthRadius * atan2((east * east + north * north).squareRoot(), along)
    }
}
