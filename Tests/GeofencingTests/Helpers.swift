import CalendarModel
import Foundation
import Geofencing
import SeededRandom

/// Identifier number `n`, as 32 hex digits, so tests can name fences.
func fenceID(_ n: Int) -> ItemIdentifier { ItemIdentifier(String(repeating: "0", count: 16) + hex16(n))! }

private func hex16(_ n: Int) -> String {
    let digits = String(n, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
}

func point(_ latitude: Double, _ longitude: Double) throws -> GeoPoint { try GeoPoint(latitude: latitude, longitude: longitude) }

/// Berlin's Alexanderplatz, the centre of most state-machine tests.
let centre = try! GeoPoint(latitude: 52.52, longitude: 13.41)

/// A fix `metres` due north of `centre`: along a meridian the sphere's
/// distance is R·Δφ exactly, so the test knows the distance without the
/// formula under test.
func north(_ metres: Double, at time: Double, accuracy: Double? = nil) throws -> Fix {
    try Fix(latitude: centre.latitude + metres / GeoPoint.earthRadius * 180 / .pi, longitude: centre.longitude,
            accuracy: accuracy, time: time)
}

func fence(_ proximity: Alarm.Proximity, radius: Double = 100, dwell: Double = 0, rearm: Double = 0,
           firstFix: Bool = false, n: Int = 1) throws -> Geofence {
    try Geofence(identifier: fenceID(n), centre: centre, radius: radius, proximity: proximity, dwellSeconds: dwell,
                 rearmInterval: rearm, firesOnFirstFix: firstFix)
}

/// Feeds `fixes` (metres north, time) to one geofence's state, reading each
/// at its own time, and returns the firings' times.
func run(_ geofence: Geofence, _ track: [(metres: Double, time: Double)], state: inout GeofenceState,
         policy: GeofencePolicy = GeofencePolicy(), accuracy: Double? = nil) throws -> [Double] {
    var fired: [Double] = []
    for step in track {
        if let transition = state.advance(geofence, with: try north(step.metres, at: step.time, accuracy: accuracy),
                                          now: step.time, policy: policy) {
            fired.append(transition.time)
        }
    }
    return fired
}

extension SplitMix64 {
    /// A double in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(UInt64(1) << 53) }

    mutating func double(_ range: ClosedRange<Double>) -> Double { range.lowerBound + unit() * (range.upperBound - range.lowerBound) }

    /// A point uniformly distributed over the sphere.
    mutating func spherePoint() -> GeoPoint {
        try! GeoPoint(latitude: asin(2 * unit() - 1) * 180 / .pi, longitude: double(-180...180))
    }
}
