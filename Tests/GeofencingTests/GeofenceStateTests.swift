import CalendarModel
import Foundation
import Geofencing
import SeededRandom
import Testing

@Suite("Geofence state machine")
struct GeofenceStateTests {
    /// Out at 300 m, in to 50 m, then 200 fixes jittering between 92 and
    /// 118 m (across the 100 m radius, inside the 120 m leave line), then
    /// out to 300 m: one arrival and one departure.
    func jitteringTrack() -> [(metres: Double, time: Double)] {
        var random = SplitMix64(seed: 7)
        var track: [(metres: Double, time: Double)] = [(300, 0), (50, 10)]
        for step in 0..<200 { track.append((random.double(92...118), 20 + Double(step))) }
        track.append((300, 400))
        return track
    }

    @Test("a position jittering across the edge enters once and leaves once (margin 20 m for r = 100 m)")
    func hysteresis() throws {
        var enterState = GeofenceState(), leaveState = GeofenceState()
        #expect(try run(fence(.enter), jitteringTrack(), state: &enterState) == [10])
        #expect(try run(fence(.leave), jitteringTrack(), state: &leaveState) == [400])
        // The same track with no margin flaps, so the margin is what holds it.
        var flapping = GeofenceState()
        let noMargin = GeofencePolicy(marginFraction: 0, minimumMargin: 0)
        #expect(try run(fence(.leave), jitteringTrack(), state: &flapping, policy: noMargin).count > 20)
    }

    @Test("the margin is the larger of 10% of the radius and 20 m")
    func margin() throws {
        let policy = GeofencePolicy()
        #expect(policy.margin(radius: 100) == 20)
        #expect(policy.margin(radius: 1000) == 100)
        // r = 1000: 1090 m stays inside, 1101 m leaves.
        var state = GeofenceState()
        #expect(try run(fence(.leave, radius: 1000), [(500, 0), (1090, 1), (1099, 2), (1101, 3)], state: &state) == [3])
    }

    @Test("a fix less accurate than the limit cannot enter, but can leave when its whole circle is beyond the margin")
    func accuracyGating() throws {
        // Trusted accuracy for r = 100 m: max(100 m, 50% of r) = 100 m.
        var state = GeofenceState()
        _ = try run(fence(.enter), [(500, 0)], state: &state)
        #expect(try run(fence(.enter), [(50, 10)], state: &state, accuracy: 150) == [], "50 ± 150 m may be outside")
        #expect(state.presence == .outside)
        #expect(try run(fence(.enter), [(50, 20)], state: &state, accuracy: 100) == [20], "±100 m is trusted")
        var leaving = GeofenceState(presence: .inside)
        #expect(try run(fence(.leave), [(130, 30)], state: &leaving, accuracy: 150) == [], "130 ± 150 m may be inside")
        #expect(leaving.presence == .inside && leaving.lastFixTime == nil, "an undecided fix changes nothing")
        #expect(try run(fence(.leave), [(400, 40)], state: &leaving, accuracy: 250) == [40], "400 − 250 m > 120 m")
        // For a 5 km circle, 2 km of uncertainty is trusted (50% of r).
        var wide = GeofenceState(presence: .outside)
        #expect(try run(fence(.enter, radius: 5000), [(4000, 50)], state: &wide, accuracy: 2000) == [50])
    }

    @Test("a fix older than the last one used, or stale, or from the future is ignored")
    func orderingAndStaleness() throws {
        let leave = try fence(.leave)
        var state = GeofenceState()
        _ = try run(leave, [(0, 100)], state: &state)
        // Older than the last fix used: no leave.
        #expect(state.advance(leave, with: try north(500, at: 90), now: 100) == nil)
        #expect(state.presence == .inside && state.lastFixTime == 100)
        // Stale: 301 s before now (the limit is 300 s).
        #expect(state.advance(leave, with: try north(500, at: 200), now: 501) == nil)
        // From 61 s ahead of the clock.
        #expect(state.advance(leave, with: try north(500, at: 300), now: 239) == nil)
        #expect(state.presence == .inside)
        // Exactly 300 s old is still current; the same time as the last is in order.
        #expect(state.advance(leave, with: try north(500, at: 200), now: 500)?.time == 200)
    }

    @Test("the first fix sets the state without firing, unless the geofence asks for it")
    func firstFix() throws {
        var quiet = GeofenceState(), loud = GeofenceState(), quietLeave = GeofenceState(), loudLeave = GeofenceState()
        #expect(try run(fence(.enter), [(10, 0)], state: &quiet) == [])
        #expect(quiet.presence == .inside)
        #expect(try run(fence(.enter, firstFix: true), [(10, 0)], state: &loud) == [0])
        #expect(try run(fence(.leave), [(900, 0)], state: &quietLeave) == [])
        #expect(quietLeave.presence == .outside)
        #expect(try run(fence(.leave, firstFix: true), [(900, 0)], state: &loudLeave) == [0])
        // Between the radius and the leave line the first fix counts as outside.
        var edge = GeofenceState()
        _ = try run(fence(.enter), [(110, 0)], state: &edge)
        #expect(edge.presence == .outside)
    }

    @Test("a dwell fires at the first fix at or after it, and not at all when the position leaves first")
    func dwell() throws {
        let dwelling = try fence(.enter, dwell: 60)
        var state = GeofenceState()
        #expect(try run(dwelling, [(500, 0), (10, 10), (20, 40), (30, 69)], state: &state) == [])
        #expect(state.dwellStartedAt == 10)
        #expect(try run(dwelling, [(30, 70), (30, 80)], state: &state) == [70], "fires once, at 10 + 60 s")
        var sparse = GeofenceState()
        #expect(try run(dwelling, [(500, 0), (10, 10), (10, 500)], state: &sparse) == [500])
        var leftEarly = GeofenceState()
        #expect(try run(dwelling, [(500, 0), (10, 10), (500, 50), (10, 100), (10, 150), (10, 160)], state: &leftEarly) == [160],
                "the dwell restarts at the second arrival")
        // A fix in the hysteresis band still counts as inside for the dwell.
        var band = GeofenceState()
        #expect(try run(dwelling, [(500, 0), (10, 10), (115, 80)], state: &band) == [80])
        // Already inside at the first fix: nothing to dwell on.
        var first = GeofenceState()
        #expect(try run(dwelling, [(10, 0), (10, 100)], state: &first) == [])
    }

    @Test("at most one firing per re-arm interval; crossings in between still move the state")
    func rearm() throws {
        let leave = try fence(.leave, rearm: 600)
        var state = GeofenceState()
        let track: [(metres: Double, time: Double)] = [(0, 0), (500, 10), (0, 100), (500, 200), (0, 500), (500, 609), (0, 700), (500, 800)]
        #expect(try run(leave, track, state: &state) == [10, 800])
        #expect(state.presence == .outside && state.lastFiredAt == 800)
        let enter = try fence(.enter, rearm: 600)
        var entering = GeofenceState()
        #expect(try run(enter, [(500, 0), (0, 10), (500, 20), (0, 30), (500, 40), (0, 610)], state: &entering) == [10, 610])
    }

    @Test("geofences refuse a bad radius, dwell or re-arm interval, naming the field")
    func geofenceValidation() throws {
        for (radius, dwell, rearm, field) in [(0.0, 0.0, 0.0, "radius"), (.nan, 0, 0, "radius"), (10, -1, 0, "dwell"),
                                              (10, 0, .infinity, "re-arm interval")] {
            let error = #expect(throws: ValidationError.self) {
                try Geofence(identifier: fenceID(1), centre: centre, radius: radius, proximity: .enter, dwellSeconds: dwell,
                             rearmInterval: rearm)
            }
            #expect(error?.field == field)
        }
        let alarm = Alarm.proximity(try StructuredLocation(latitude: 52.52, longitude: 13.41, radius: 150), .leave)
        let made = try #require(try Geofence(alarm: alarm))
        #expect(made.identifier == alarm.identifier && made.radius == 150 && made.proximity == .leave && made.centre == centre)
        #expect(try Geofence(alarm: .relative(seconds: -600)) == nil)
        // The alarm's dwell counts for arriving only; its first-fix choice for both.
        let place = try StructuredLocation(latitude: 52.52, longitude: 13.41, radius: 150)
        let arrive = try #require(try Geofence(alarm: Alarm(trigger: .proximity(place, .enter), dwell: 300, firesOnFirstFix: true)))
        #expect(arrive.dwellSeconds == 300 && arrive.firesOnFirstFix)
        let leave = try #require(try Geofence(alarm: Alarm(trigger: .proximity(place, .leave), dwell: 300, firesOnFirstFix: true)))
        #expect(leave.dwellSeconds == 0 && leave.firesOnFirstFix)
    }
}
