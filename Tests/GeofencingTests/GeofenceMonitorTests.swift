import CalendarModel
import Foundation
import Geofencing
import SeededRandom
import Testing

@Suite("Geofence monitor")
struct GeofenceMonitorTests {
    /// A fence `metres` north of `centre` (n picks the identifier).
    func fence(_ n: Int, offset metres: Double, radius: Double = 100, _ proximity: Alarm.Proximity, rearm: Double = 0) throws -> Geofence {
        try Geofence(identifier: fenceID(n), centre: north(metres, at: 0).position, radius: radius, proximity: proximity,
                     rearmInterval: rearm)
    }

    @Test("a far fix still makes an inside geofence leave, and a first far fix places an unknown one outside")
    func farFixes() throws {
        var monitor = GeofenceMonitor(geofences: [try fence(1, offset: 0, .leave), try fence(2, offset: 5000, .enter)])
        #expect(monitor.process(try north(0, at: 0), now: 0).isEmpty)
        #expect(monitor.state(of: fenceID(1))?.presence == .inside)
        #expect(monitor.state(of: fenceID(2))?.presence == .outside, "a fix 5 km away says outside")
        let far = try Fix(latitude: -33.86, longitude: 151.21, time: 10)  // Sydney
        #expect(monitor.process(far, now: 10).map(\.geofence) == [fenceID(1)])
        #expect(monitor.process(try north(5000, at: 20), now: 20).map(\.kind) == [.enter])
    }

    @Test("fixes out of order across geofences are ignored and counted")
    func globalOrder() throws {
        var monitor = GeofenceMonitor(geofences: [try fence(1, offset: 0, .enter), try fence(2, offset: 100_000, .enter)])
        _ = monitor.process(try north(50_000, at: 100), now: 100)
        // Fence 1 never saw the fix at 100, but it is older than it: ignored.
        #expect(monitor.process(try north(0, at: 50), now: 100).isEmpty)
        #expect(monitor.process(try north(0, at: 500), now: 1000).isEmpty, "stale")
        #expect(monitor.ignored.outOfOrder == 1 && monitor.ignored.outOfDate == 1)
        #expect(monitor.process(try north(0, at: 110), now: 110).map(\.geofence) == [fenceID(1)])
    }

    @Test("the saved state survives a restart: no second enter, and a leave after it still fires")
    func persistence() throws {
        let fences = [try fence(1, offset: 0, .enter), try fence(2, offset: 0, .leave, rearm: 600)]
        var monitor = GeofenceMonitor(geofences: fences)
        _ = monitor.process(try north(500, at: 0), now: 0)
        #expect(monitor.process(try north(0, at: 10), now: 10).map(\.kind) == [.enter])
        let data = try JSONEncoder().encode(monitor.snapshot)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"presence\":\"inside\""), "\(text)")

        var restarted = GeofenceMonitor(geofences: fences, restoring: try JSONDecoder().decode(GeofenceMonitor.Snapshot.self, from: data))
        #expect(restarted.snapshot == monitor.snapshot)
        #expect(restarted.process(try north(5, at: 20), now: 20).isEmpty, "still inside: no enter again")
        #expect(restarted.process(try north(0, at: 5), now: 20).isEmpty, "older than before the restart")
        #expect(restarted.process(try north(900, at: 30), now: 30).map(\.kind) == [.leave])
        // The re-arm interval also holds across the restart.
        var again = GeofenceMonitor(geofences: fences, restoring: restarted.snapshot)
        _ = again.process(try north(0, at: 40), now: 40)
        #expect(again.process(try north(900, at: 50), now: 50).isEmpty, "within 600 s of the leave at 30")
    }

    @Test("nextDwellEnd is the earliest pending dwell's end, and nil when none is pending")
    func dwellEnd() throws {
        let slow = try Geofence(identifier: fenceID(1), centre: centre, radius: 100, proximity: .enter, dwellSeconds: 300, rearmInterval: 0)
        let quick = try Geofence(identifier: fenceID(2), centre: centre, radius: 500, proximity: .enter, dwellSeconds: 60, rearmInterval: 0)
        var monitor = GeofenceMonitor(geofences: [slow, quick])
        #expect(monitor.nextDwellEnd() == nil)
        _ = monitor.process(try north(3000, at: 0), now: 0)
        #expect(monitor.nextDwellEnd() == nil, "outside both: nothing pending")
        _ = monitor.process(try north(400, at: 10), now: 10)
        #expect(monitor.nextDwellEnd() == 70, "inside the wide one since 10 s: due at 10 + 60")
        _ = monitor.process(try north(0, at: 20), now: 20)
        #expect(monitor.nextDwellEnd() == 70, "inside both; the narrow one is due at 20 + 300")
        #expect(monitor.nextDwellEnd(after: 70) == 320, "ends up to an instant are left out")
        #expect(monitor.process(try north(0, at: 70), now: 70).map(\.geofence) == [fenceID(2)])
        #expect(monitor.nextDwellEnd() == 320)
        _ = monitor.process(try north(3000, at: 80), now: 80)
        #expect(monitor.nextDwellEnd() == nil, "left before the narrow one's dwell was over")
    }

    @Test("add, replace and remove: a moved circle starts unknown, a changed dwell keeps the state, a removed one is gone")
    func editing() throws {
        var monitor = GeofenceMonitor()
        monitor.add(try fence(1, offset: 0, .leave))
        _ = monitor.process(try north(0, at: 0), now: 0)
        #expect(monitor.state(of: fenceID(1))?.presence == .inside)
        monitor.replace(try Geofence(identifier: fenceID(1), centre: centre, radius: 100, proximity: .leave, dwellSeconds: 5, rearmInterval: 0))
        #expect(monitor.state(of: fenceID(1))?.presence == .inside)
        monitor.replace(try fence(1, offset: 3000, .leave))
        #expect(monitor.state(of: fenceID(1))?.presence == .unknown)
        #expect(monitor.process(try north(0, at: 10), now: 10).isEmpty, "first fix for the moved circle")
        #expect(monitor.state(of: fenceID(1))?.presence == .outside)
        let removed = monitor.remove(fenceID(1)), removedAgain = monitor.remove(fenceID(1))
        #expect(removed && !removedAgain)
        let afterRemoval = monitor.process(try north(3000, at: 20), now: 20)
        #expect(monitor.count == 0 && afterRemoval.isEmpty)
        // A freed slot taken by a new geofence starts fresh.
        monitor.add(try fence(2, offset: 0, .enter))
        #expect(monitor.state(of: fenceID(2)) == GeofenceState())
    }

    @Test("a burst walking out and back in loses neither crossing")
    func batch() throws {
        var monitor = GeofenceMonitor(geofences: [try fence(1, offset: 0, .leave), try fence(2, offset: 0, .enter)])
        let burst = try [north(0, at: 0), north(500, at: 1), north(0, at: 2), north(0, at: 3)]
        #expect(monitor.process(burst, now: 3).map(\.kind) == [.leave, .enter])
    }

    /// Fences around a random walk, fixes with random accuracies, now and
    /// then out of order or stale; the monitor with its index must fire
    /// exactly what the one scanning every fence fires.
    @Test("fires exactly what a brute-force scan fires (random walk, seeded)", arguments: [11 as UInt64, 12, 13])
    func equivalence(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var fences: [Geofence] = []
        for n in 0..<400 {
            // Around the walk's area (a few km of Berlin), plus a few anywhere.
            let position = random.chance(0.9)
                ? try point(52.52 + random.double(-0.03...0.03), 13.41 + random.double(-0.05...0.05))
                : random.spherePoint()
            fences.append(try Geofence(identifier: fenceID(n), centre: position, radius: random.double(30...800),
                                       proximity: random.chance(0.5) ? .enter : .leave, dwellSeconds: random.element([0, 0, 30]),
                                       rearmInterval: random.element([0, 60, 600]), firesOnFirstFix: random.chance(0.2)))
        }
        var indexed = GeofenceMonitor(geofences: fences), scanning = GeofenceMonitor(geofences: fences, usesIndex: false)
        var latitude = 52.52, longitude = 13.41, time = 1_000_000.0
        var fired = 0
        for step in 0..<3000 {
            latitude += random.double(-0.0008...0.0008)
            longitude += random.double(-0.0012...0.0012)
            latitude = min(max(latitude, 52.49), 52.55)
            longitude = min(max(longitude, 13.36), 13.46)
            time += random.double(0...10)
            var fixTime = time
            if random.chance(0.03) { fixTime -= 50 }   // out of order
            if random.chance(0.01) { fixTime -= 400 }  // stale
            let accuracy: Double? = random.chance(0.2) ? nil : random.double(3...400)
            let fix = try Fix(latitude: latitude, longitude: longitude, accuracy: accuracy, time: fixTime)
            if step == 1500 {  // edits halfway: both monitors get the same ones
                for monitor in [0, 1] {
                    if monitor == 0 { indexed.remove(fenceID(3)); indexed.add(try! relocated(fences[5])) }
                    else { scanning.remove(fenceID(3)); scanning.add(try! relocated(fences[5])) }
                }
            }
            let a = indexed.process(fix, now: time), b = scanning.process(fix, now: time)
            #expect(a == b, "step \(step)")
            fired += a.count
        }
        #expect(fired > 50, "the walk crosses enough circles to test something: \(fired)")
        for fence in indexed.geofences {
            #expect(indexed.state(of: fence.identifier)?.presence == scanning.state(of: fence.identifier)?.presence)
        }
    }

    func relocated(_ fence: Geofence) throws -> Geofence {
        try Geofence(identifier: fence.identifier, centre: point(52.53, 13.42), radius: 300, proximity: fence.proximity)
    }
}
