import CalendarModel
import Foundation
import Geofencing
import SeededRandom
import Testing

@Suite("Geofence spatial index")
struct GeofenceIndexTests {
    /// Circles of 10 m to 3,000 km (log-uniform), a third of them anywhere on
    /// the sphere, a third on the antimeridian and a third near the poles,
    /// where grids usually go wrong.
    func randomCircles(_ random: inout SplitMix64, count: Int) -> [(centre: GeoPoint, radius: Double)] {
        (0..<count).map { _ in
            let radius = exp(random.double(log(10)...log(3_000_000)))
            let centre: GeoPoint
            switch random.int(0...2) {
            case 0: centre = random.spherePoint()
            case 1: centre = try! GeoPoint(latitude: random.double(-80...80), longitude: random.element([-1.0, 1.0]) * random.double(179...180))
            default: centre = try! GeoPoint(latitude: random.element([-1.0, 1.0]) * random.double(85...90), longitude: random.double(-180...180))
            }
            return (centre, radius)
        }
    }

    /// Query points: anywhere, and right around the circles (inside, at and
    /// just beyond their edges), so that both answers are exercised.
    func randomPoints(_ random: inout SplitMix64, near circles: [(centre: GeoPoint, radius: Double)], count: Int) -> [GeoPoint] {
        (0..<count).map { _ in
            if random.chance(0.3) { return random.spherePoint() }
            let circle = random.element(circles)
            let distance = circle.radius * random.double(0...1.2) / GeoPoint.earthRadius
            let bearing = random.double(0...(2 * .pi))
            // The destination along a great circle, from the circle's centre.
            let φ1 = circle.centre.latitude * .pi / 180, λ1 = circle.centre.longitude * .pi / 180
            let φ2 = asin(sin(φ1) * cos(distance) + cos(φ1) * sin(distance) * cos(bearing))
            var λ2 = λ1 + atan2(sin(bearing) * sin(distance) * cos(φ1), cos(distance) - sin(φ1) * sin(φ2))
            λ2 = (λ2 + 3 * .pi).truncatingRemainder(dividingBy: 2 * .pi) - .pi
            return try! GeoPoint(latitude: max(-90, min(90, φ2 * 180 / .pi)), longitude: max(-180, min(180, λ2 * 180 / .pi)))
        }
    }

    @Test("finds exactly the circles a brute-force scan finds (random circles and points, seeded)",
          arguments: [(1 as UInt64, 0.01, 64), (2, 0.1, 64), (3, 1.0, 4), (4, 0.001, 1)])
    func equivalence(seed: UInt64, cellSize: Double, maximumCells: Int) {
        var random = SplitMix64(seed: seed)
        let circles = randomCircles(&random, count: 2000)
        var index = GeofenceIndex<Int>(cellSize: cellSize, maximumCellsPerEntry: maximumCells)
        for (key, circle) in circles.enumerated() { index.insert(key, centre: circle.centre, radius: circle.radius) }
        #expect(index.count == 2000)
        #expect(index.entriesPerLevel.filter { $0 > 0 }.count >= 3, "circles spread over grids: \(index.entriesPerLevel)")
        if maximumCells == 1 { #expect(index.entriesPerLevel.last! > 0, "some on the fallback list") }
        var hits = 0
        for point in randomPoints(&random, near: circles, count: 3000) {
            let expected = Set(circles.indices.filter { circles[$0].centre.distance(to: point) <= circles[$0].radius })
            let found = index.keys(containing: point)
            #expect(Set(found) == expected, "at \(point)")
            #expect(found.count == Set(found).count, "no key twice")
            hits += expected.count
        }
        #expect(hits > 1000, "the points fall inside circles often enough to test something")
    }

    @Test("a circle across the antimeridian or over a pole is found from both sides")
    func edges() throws {
        var index = GeofenceIndex<Int>(cellSize: 0.01)
        index.insert(1, centre: try point(0, 179.9995), radius: 500)
        index.insert(2, centre: try point(89.9999, 30), radius: 100)
        index.insert(3, centre: try point(-90, 0), radius: 50)
        #expect(index.keys(containing: try point(0, -179.9995)) == [1])
        #expect(index.keys(containing: try point(0, 180)) == [1])
        #expect(index.keys(containing: try point(0, -180)) == [1])
        #expect(index.keys(containing: try point(90, 0)) == [2])
        #expect(index.keys(containing: try point(89.9995, -150)) == [2], "the other side of the pole, ~67 m away")
        #expect(index.keys(containing: try point(-89.9997, 123)) == [3])
        #expect(index.keys(containing: try point(0, 179.99)).isEmpty)
        index.remove(1)
        #expect(index.keys(containing: try point(0, 180)).isEmpty)
        #expect(index.count == 2)
    }

    @Test("the suggested cell size is twice the median radius, in degrees")
    func cellSize() {
        let size = GeofenceIndex<Int>.suggestedCellSize(radii: [50, 100, 100_000])
        #expect(abs(size - 200 / 111_195.08023353381) < 1e-12, "200 m is 0.0017986° of arc")
    }
}
