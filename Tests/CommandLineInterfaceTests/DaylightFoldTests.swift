import CalendarModel
import CalendarStore
import Foundation
import Testing

/// New York falls back on 2026-11-01: the wall clock reads 01:00–02:00
/// twice, first at −04:00 (EDT, 05:00Z–06:00Z), then at −05:00 (EST,
/// 06:00Z–07:00Z).
@Suite("Times in the second pass of a daylight-saving fold")
struct DaylightFoldTests {
    func times(_ scratch: Scratch, _ identifier: String) throws -> [String?] {
        let json = try scratch.ok("show", identifier, "--json").json()
        return [json["start"] as? String, json["end"] as? String]
    }

    @Test("an instant or offset in the fold's second pass keeps its instant, and the default hour runs to 02:30 EST")
    func explicitInstant() throws {
        let scratch = Scratch(zone: "America/New_York")
        // 2026-11-01T06:30:00Z is 1793514600; an hour later, 1793518200, is 02:30 EST.
        let utc = scratch.add("event", "Night shift", "--start", "2026-11-01T06:30:00Z", "--tz", "America/New_York")
        #expect(try times(scratch, utc) == ["2026-11-01T01:30:00-05:00", "2026-11-01T02:30:00-05:00"])
        let offset = scratch.add("event", "Night shift", "--start", "2026-11-01T01:30:00-05:00", "--tz", "America/New_York")
        #expect(try times(scratch, offset) == ["2026-11-01T01:30:00-05:00", "2026-11-01T02:30:00-05:00"])
        // The first pass stays the first: 2026-11-01T05:30:00Z, 1793511000.
        let first = scratch.add("event", "Night shift", "--start", "2026-11-01T01:30:00-04:00", "--tz", "America/New_York")
        #expect(try times(scratch, first) == ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"])
        #expect(scratch.ok("show", utc).output.contains { $0.hasSuffix("Sun 2026-11-01 01:30 (the second 01:30)") })
        let store = try scratch.store()
        let stored = try store.event(identifier: try store.itemIdentifier(matching: utc))
        let zone = try TimeZoneRules.named("America/New_York")
        #expect(try stored.start.instant(machine: zone) == 1_793_514_600)
        #expect(try stored.end.instant(machine: zone) == 1_793_518_200)
    }

    @Test("a reminder due at an instant in the fold's second pass keeps it")
    func reminderDue() throws {
        let scratch = Scratch(zone: "America/New_York")
        // 2026-11-01T06:30:00Z (1793514600) is 01:30 EST.
        let reminder = scratch.add("reminder", "Check the boiler", "--due", "2026-11-01T06:30:00Z", "--tz", "America/New_York")
        #expect(try scratch.ok("show", reminder, "--json").json()["due"] as? String == "2026-11-01T01:30:00-05:00")
    }

    @Test("a wall time in the fold takes the first pass, and a duration is elapsed time across the fold")
    func wallTimeAndDuration() throws {
        let scratch = Scratch(zone: "America/New_York")
        // 01:30 EDT is 2026-11-01T05:30:00Z (1793511000); an hour on is 01:30 EST, 06:30:00Z.
        let hour = scratch.add("event", "Night shift", "--start", "2026-11-01 01:30", "--tz", "America/New_York")
        #expect(try times(scratch, hour) == ["2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00"])
        // Thirty minutes on is 01:00 EST, 2026-11-01T06:00:00Z (1793512800).
        let half = scratch.add("event", "Night shift", "--start", "2026-11-01 01:30", "--tz", "America/New_York", "--duration", "30m")
        #expect(try times(scratch, half) == ["2026-11-01T01:30:00-04:00", "2026-11-01T01:00:00-05:00"])
        // Moving it keeps the length in elapsed time, into the second pass too.
        scratch.ok("edit", half, "--start", "2026-11-01T06:30:00Z")
        #expect(try times(scratch, half) == ["2026-11-01T01:30:00-05:00", "2026-11-01T02:00:00-05:00"])
        #expect(scratch.ok("list", "events", "--from", "2026-11-01", "--to", "2026-11-01").output.count == 2)
    }

    @Test("a yearly series started in the second pass: its next fall-back occurrence takes the first pass")
    func series() throws {
        let scratch = Scratch(zone: "America/New_York")
        let series = scratch.add("event", "Night shift", "--start", "2026-11-01T06:30:00Z", "--tz", "America/New_York",
                                 "--duration", "30m", "--repeat", "FREQ=YEARLY;BYMONTH=11;BYDAY=1SU;COUNT=2")
        #expect(try times(scratch, series) == ["2026-11-01T01:30:00-05:00", "2026-11-01T02:00:00-05:00"])
        // 2027-11-07T05:30:00Z (1825565400) is the first 01:30 of 2027's fold.
        let next = try scratch.ok("show", series, "--occurrence", "2027-11-07", "--json").json()
        #expect(next["start"] as? String == "2027-11-07T01:30:00-04:00")
        #expect(next["end"] as? String == "2027-11-07T01:00:00-05:00")
    }
}
