import CalendarModel
import Geofencing
import Testing

/// Expected values come from a different formula: the chord between the two
/// points as unit vectors, d = 2R·asin(|v₁ − v₂| / 2), evaluated in Python
/// (double precision) with R = 6,371,008.8 m.
@Suite("Great-circle distance")
struct DistanceTests {
    @Test("matches an independent chord computation, near poles, across the antimeridian and for antipodes", arguments: [
        (0.0, 179.9, 0.0, -179.9, 22_239.016046706758),     // equator, across the antimeridian (0.2°)
        (60.0, 179.999, 60.0, -179.999, 111.19508023120396), // 60°N, across the antimeridian
        (89.9, 0.0, 89.9, 180.0, 22_239.01604670598),        // over the north pole
        (-90.0, 10.0, -89.0, -170.0, 111_195.08023353381),   // from the south pole
        (89.0, 0.0, 89.0, 90.0, 157_249.59847404098),        // near the pole, a quarter turn of longitude
        (0.0, 0.0, 0.0, 180.0, 20_015_114.442035925),        // antipodal on the equator: πR
        (45.0, 10.0, -45.0, -170.0, 20_015_114.442035925),   // antipodal off the equator: πR
        // Nearly antipodal: the chord form is itself ill-conditioned there, so
        // this one is R·179.999° (the arc runs over the pole), in 40-digit decimals.
        (0.0, 0.0, 0.001, 180.0, 20_015_003.246955690779),
        (0.0, 0.0, 0.0, 0.00001, 1.111950802335329),         // about a metre
        (10.0, 20.0, 10.0009, 20.0, 100.07557221021845),     // about a geofence radius
        (48.8566, 2.3522, 51.5074, -0.1278, 343_556.53488088364), // Paris–London
    ])
    func distances(lat1: Double, lon1: Double, lat2: Double, lon2: Double, expected: Double) throws {
        let a = try point(lat1, lon1), b = try point(lat2, lon2)
        #expect(abs(a.distance(to: b) - expected) <= max(1e-6, expected * 1e-12), "\(a) → \(b): \(a.distance(to: b))")
        #expect(abs(b.distance(to: a) - expected) <= max(1e-6, expected * 1e-12), "symmetric")
    }

    @Test("is zero for a point and itself, and at a pole whatever the longitude")
    func zero() throws {
        let shanghai = try point(31.2304, 121.4737)
        #expect(shanghai.distance(to: shanghai) == 0)
        #expect(try point(90, 0).distance(to: point(90, 123)) < 1e-6)
        #expect(try point(-90, -180).distance(to: point(-90, 45)) < 1e-6)
        #expect(try point(0, 180).distance(to: point(0, -180)) < 1e-6)
    }

    @Test("points and fixes refuse values out of range, naming the field and the value", arguments: [
        (90.5, 0.0, nil as Double?, 0.0, "latitude", "90.5"), (-91.0, 0.0, nil, 0.0, "latitude", "-91.0"),
        (Double.nan, 0.0, nil, 0.0, "latitude", "nan"), (0.0, 180.01, nil, 0.0, "longitude", "180.01"),
        (0.0, -Double.infinity, nil, 0.0, "longitude", "-inf"), (0.0, 0.0, -1.0, 0.0, "accuracy", "-1.0"),
        (0.0, 0.0, Double.nan, 0.0, "accuracy", "nan"), (0.0, 0.0, 5.0, Double.infinity, "time", "inf"),
    ])
    func validation(latitude: Double, longitude: Double, accuracy: Double?, time: Double, field: String, value: String) {
        let error = #expect(throws: ValidationError.self) {
            try Fix(latitude: latitude, longitude: longitude, accuracy: accuracy, time: time)
        }
        #expect(error?.field == field)
        #expect(error?.value == value)
    }
}
