import CalendarModel
import Testing

@Suite("TimeZoneRules POSIX identifiers and changes")
struct TimeZoneRulesPOSIXTests {
    @Test("a POSIX: identifier gives the rule's offsets and keeps its identifier")
    func posixIdentifier() throws {
        let rules = try TimeZoneRules.named("POSIX:XST5XDT,M3.2.0,M11.1.0")
        #expect(rules.identifier == "POSIX:XST5XDT,M3.2.0,M11.1.0")
        #expect(rules.offset(at: 1_767_225_600) == -18_000) // 2026-01-01T00:00:00Z
        #expect(rules.offset(at: 1_772_953_200) == -14_400) // 2026-03-08T07:00:00Z, the change
        #expect(rules.offset(at: 1_772_953_199) == -18_000) // a second before
        #expect(rules.offset(at: 1_793_512_800) == -18_000) // 2026-11-01T06:00:00Z, back
    }

    @Test("changes(in:) lists a POSIX rule's two changes a year, like New York's in the same year")
    func changesMatchNewYork() throws {
        let year: ClosedRange<Int64> = 1_767_225_600...1_798_761_600 // 2026-01-01T00:00:00Z ... 2027-01-01T00:00:00Z
        let posix = try TimeZoneRules.named("POSIX:EST5EDT,M3.2.0,M11.1.0").changes(in: year)
        let newYork = try TimeZoneRules.named("America/New_York").changes(in: year)
        #expect(posix.map(\.instant) == [1_772_953_200, 1_793_512_800])
        #expect(posix == newYork)
    }

    @Test("posixIdentifier refuses text that is not a POSIX TZ rule")
    func refusesBadRule() {
        #expect(TimeZoneRules.posixIdentifier("<+0330>-3:30") == "POSIX:<+0330>-3:30")
        #expect(TimeZoneRules.posixIdentifier("Europe/Berlin") == nil)
        #expect(throws: TimeZoneRulesError.self) { try TimeZoneRules.named("POSIX:") }
    }
}
