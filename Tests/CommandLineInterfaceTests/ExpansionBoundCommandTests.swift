import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import SQLiteDatabase
import Testing

/// Issue 16 point 1 at the command line: a rule past the expansion bound is
/// refused when it is saved, and one already stored (by another program, a
/// file or an older Chime) is named on standard error by the commands that
/// meet it, while everything else is listed as before.
@Suite("Expansion bound at the command line")
struct ExpansionBoundCommandTests {
    /// Gives the event whose short identifier is `short` the rule `rule`, as
    /// a program writing the store directly would, past every check.
    static func storeRule(_ rule: String, for short: String, in scratch: Scratch) throws {
        let database = try Database(path: scratch.path)
        try database.execute("UPDATE items SET rrule = ? WHERE id LIKE ?", [rule, short + "%"])
    }

    @Test("adding or editing to a SECONDLY or MINUTELY rule with COUNT=999999999999 is refused with 65, naming the rule; nothing is saved")
    func refusedAtSave() throws {
        let scratch = Scratch()
        let plain = scratch.add("event", "Plain", "--start", "2026-12-02T09:00", "--tz", "UTC")
        for frequency in ["SECONDLY", "MINUTELY"] {
            let rule = "FREQ=\(frequency);COUNT=999999999999"
            try scratch.refuses(["add", "event", "P", "--start", "2026-12-01T08:00", "--tz", "UTC", "--repeat", rule, "--alarm", "0"],
                                status: 65, mentioning: [rule, "too costly", "100000"])
            try scratch.refuses(["edit", plain, "--repeat", rule], status: 65, mentioning: [rule, "too costly"])
        }
        // Within the bound, and a huge COUNT no rule can reach before year 10000, are saved.
        scratch.add("event", "Many", "--start", "2026-12-01T08:00", "--tz", "UTC", "--repeat", "FREQ=SECONDLY;COUNT=100000")
        scratch.add("event", "Yearly", "--start", "2026-12-01T08:00", "--tz", "UTC", "--repeat", "FREQ=YEARLY;COUNT=999999999999")
    }

    @Test("a stored event past the bound is named by list, agenda and next, which still show every other item", .timeLimit(.minutes(2)))
    func storedPastTheBound() throws {
        // Thursday 2026-12-03, 08:00 in Shanghai (00:00Z): the costly series' 100,000 seconds ended on 12-02.
        let scratch = Scratch(now: Date(timeIntervalSince1970: RFC3339.instant("2026-12-03T08:00:00+08:00")!))
        let costly = scratch.add("event", "P", "--start", "2026-12-01T08:00", "--tz", "UTC", "--repeat", "FREQ=SECONDLY", "--alarm", "0")
        let dentist = scratch.add("event", "Dentist", "--start", "2026-12-03T15:00", "--alarm", "-1h")
        try Self.storeRule("FREQ=SECONDLY;COUNT=999999999999", for: costly, in: scratch)

        let list = scratch.ok("list", "events")
        #expect(list.output.count == 1 && list.output.first?.contains("Dentist  [\(dentist)]") == true, "\(list.output)")
        #expect(list.errors == ["chime list events: event 'P' [\(costly)] is too costly to expand: FREQ=SECONDLY;COUNT=999999999999 has more than "
            + "100000 occurrences before year 10000, more than Chime expands; only the first 100000 are kept (the last at "
            + "2026-12-02T11:46:39Z): give it a smaller COUNT, an UNTIL, or no end"])

        let agenda = scratch.ok("agenda")
        #expect(agenda.output.contains { $0.contains("Dentist") })
        #expect(agenda.errors.count == 1 && agenda.errors.first?.hasPrefix("chime agenda: event 'P' [\(costly)] is too costly") == true)

        let next = scratch.ok("next", "--count", "1")
        #expect(next.output.count == 1 && next.output.first?.hasPrefix("Thu 12-03 14:00        Dentist") == true, "\(next.output)")
        #expect(next.errors.count == 1 && next.errors.first?.hasPrefix("chime next: event 'P' [\(costly)] is too costly") == true)

        // Within its first 100,000 occurrences it is listed as before: 2026-12-01T08:00:00Z, 08:00:01Z, 08:00:02Z.
        let early = scratch.ok("list", "events", "--from", "2026-12-01T16:00", "--to", "2026-12-01T16:00:03")
        #expect(early.output.filter { $0.contains("P  [\(costly)]") }.count == 3, "\(early.output)")
    }

    @Test("chime rrule expands a rule past the bound at once, up to the bound, and says where it stops", .timeLimit(.minutes(2)))
    func rruleSaysWhereItStops() {
        let run = CapturedRun(["rrule", "FREQ=SECONDLY;COUNT=999999999999", "--start", "2026-12-01T08:00:00", "--tz", "UTC",
                               "--after", "2026-12-02T11:46:37Z", "--count", "5"])
        #expect(run.status == 0)
        // The last two of the first 100,000, and nothing after.
        #expect(run.output == ["2026-12-02T11:46:38+00:00", "2026-12-02T11:46:39+00:00"])
        #expect(run.errors.count == 1 && run.errors.first?.hasPrefix("chime rrule: FREQ=SECONDLY;COUNT=999999999999 has more than 100000") == true,
                "\(run.errors)")
        // A rule within the bound says nothing more.
        let within = CapturedRun(["rrule", "FREQ=SECONDLY;COUNT=100000", "--start", "2026-12-01T08:00:00", "--tz", "UTC", "--count", "1"])
        #expect(within.output == ["2026-12-01T08:00:00+00:00"] && within.errors.isEmpty)
    }
}
