import CalendarModel
import Foundation
import Testing
import TestSupport

/// The outside oracles' plumbing (TestSupport's `Oracles`, contrib/oracle):
/// that each tool runs and its answer reads back, on fixtures of known
/// content. Not tests of Chime's reader.
@Suite struct OracleTests {
    func fixture(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(Bundle.module.url(forResource: name, withExtension: "ics", subdirectory: "Fixtures/oracle"),
                     "the fixture Fixtures/oracle/\(name).ics is missing", sourceLocation: sourceLocation).path
    }

    /// A weekly Thursday 09:00 stand-up in Europe/Berlin from 2026-03-12,
    /// six times, less 2026-03-26 (EXDATE), with 2026-04-09 moved to 11:00
    /// (RECURRENCE-ID), across the spring-forward of 2026-03-29; and an
    /// all-day offsite on 2026-03-30 and 31.
    static let berlin = "weekly-exdate-berlin-dst"

    @Test("recurring-ical-events expands the Berlin stand-up to UTC instants that move an hour at the DST change, without the EXDATE, with the moved one")
    func expandsAcrossDST() throws {
        let occurrences = try Oracles.expand(try fixture(Self.berlin), from: "2026-01-01", to: "2027-01-01")
        let standUp = "standup-berlin@chime.test"
        func weekly(_ start: Int64, _ end: Int64, original: Int64? = nil, _ summary: String = "Stand-up") -> Oracles.Occurrence {
            Oracles.Occurrence(uid: standUp, recurrenceID: .instant(original ?? start), override: original != nil,
                               start: .instant(start), end: .instant(end), summary: summary)
        }
        let offsite = Oracles.Occurrence(uid: "offsite@chime.test", recurrenceID: nil, override: nil,
                                         start: .date(try civilDate("2026-03-30")), end: .date(try civilDate("2026-04-01")), summary: "Offsite")
        #expect(occurrences == [
            weekly(1_773_302_400, 1_773_304_200),  // 2026-03-12T08:00:00Z – 08:30:00Z (09:00 CET)
            weekly(1_773_907_200, 1_773_909_000),  // 2026-03-19T08:00:00Z – 08:30:00Z
            // 2026-03-26 is the EXDATE.
            offsite,                               // 2026-03-30 – 2026-04-01, all day
            weekly(1_775_113_200, 1_775_115_000),  // 2026-04-02T07:00:00Z – 07:30:00Z (09:00 CEST)
            weekly(1_775_725_200, 1_775_727_000,   // 2026-04-09T09:00:00Z – 09:30:00Z (11:00 CEST),
                   original: 1_775_718_000, "Stand-up (moved)"),  // for 2026-04-09T07:00:00Z
            weekly(1_776_322_800, 1_776_324_600),  // 2026-04-16T07:00:00Z – 07:30:00Z
        ])
    }

    @Test("expand.py takes UTC instants as bounds and gives only the occurrences overlapping them")
    func expandsBetweenInstants() throws {
        let occurrences = try Oracles.expand(try fixture(Self.berlin), from: "2026-04-02T07:15:00Z", to: "2026-04-09T08:00:00Z")
        #expect(occurrences.map(\.start) == [.instant(1_775_113_200)])  // 2026-04-02T07:00:00Z, which ends at 07:30
    }

    @Test("icalendar reads the Berlin fixture strictly (CRLF, folding, required properties, VTIMEZONE) and counts its components")
    func icalendarPassesGoodFile() throws {
        let verdict = try Oracles.icalendarCheck(try fixture(Self.berlin), strict: true)
        #expect(verdict.passed, "\(verdict.problems)")
        #expect(verdict.output == #"{"calendars": 1, "components": {"DAYLIGHT": 1, "STANDARD": 1, "VALARM": 1, "VEVENT": 3, "VTIMEZONE": 1}}"# + "\n")
    }

    @Test("icalendar flags a month 13 DTSTART and an empty EXDATE, naming each property")
    func icalendarFlagsBrokenFile() throws {
        let verdict = try Oracles.icalendarCheck(try fixture("broken-values"))
        #expect(!verdict.passed)
        #expect(verdict.problems.count == 2, "\(verdict.problems)")
        #expect(verdict.problems.contains { $0.contains("DTSTART") && $0.contains("20261345T250000Z") }, "\(verdict.problems)")
        #expect(verdict.problems.contains { $0.contains("EXDATE") }, "\(verdict.problems)")
    }

    @Test("roundtrip.py --strict names a line longer than 75 octets and a line ending in LF alone, by line number")
    func icalendarStrictLines() throws {
        let folder = TemporaryFolder("chime-oracle-tests")
        let path = folder.appending("long-line.ics")
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//oracle test//EN", "BEGIN:VEVENT", "UID:long@chime.test",
                     "DTSTAMP:20260101T120000Z", "DTSTART:20260312T080000Z", "SUMMARY:" + String(repeating: "x", count: 80), "END:VEVENT", "END:VCALENDAR"]
        try Data((lines.joined(separator: "\r\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        let verdict = try Oracles.icalendarCheck(path, strict: true)
        #expect(!verdict.passed)
        #expect(verdict.problems.contains { $0.hasSuffix("line 8: 88 octets, more than 75 (RFC 5545 3.1)") }, "\(verdict.problems)")
        #expect(verdict.problems.contains { $0.hasSuffix("line 10: ends with LF alone, not CRLF") }, "\(verdict.problems)")
        #expect(verdict.problems.count == 2, "\(verdict.problems)")
    }

    @Test("icalendar's own test calendars are listed, broken ones among them, every one an .ics file that exists")
    func icalendarTestCalendars() throws {
        let paths = try Oracles.testCalendars()
        let names = Set(paths.map { URL(fileURLWithPath: $0).lastPathComponent })
        #expect(paths.count >= 100, "icalendar 7.3.2 ships 116")
        #expect(names.isSuperset(of: ["example.ics", "broken_ical.ics", "america_new_york.ics"]))
        #expect(paths.allSatisfy { $0.hasSuffix(".ics") && FileManager.default.fileExists(atPath: $0) })
        #expect(paths == paths.sorted())
        #expect(try Oracles.testCalendars(of: "recurring-ical-events").count >= 50, "recurring-ical-events 3.8.2 ships 96")
    }

    @Test("libical-check passes the Berlin fixture and flags the empty EXDATE of the broken one")
    func libicalVerdicts() throws {
        let good = try Oracles.libicalCheck(try fixture(Self.berlin))
        #expect(good.passed, "\(good.output)")
        #expect(good.output.hasSuffix(": ok, 8 components\n"), "\(good.output)")
        let bad = try Oracles.libicalCheck(try fixture("broken-values"))
        #expect(!bad.passed)
        // libical calls a month 13 fine: only the empty EXDATE is an error to it.
        #expect(bad.problems == ["error: in VEVENT: VALUE-PARSE-ERROR: No value for EXDATE property. Removing entire property:"])
    }

    @Test("libical-check --time parses a file the asked number of times and reports its size, components and errors")
    func libicalTiming() throws {
        let path = try fixture(Self.berlin)
        let timing = try Oracles.libicalTiming(path, parses: 3)
        #expect(timing.parses == 3)
        #expect(timing.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(timing.components == 8)
        #expect(timing.errors == 0)
        #expect(timing.fastestNanoseconds > 0 && timing.fastestNanoseconds <= timing.medianNanoseconds)
    }
}
