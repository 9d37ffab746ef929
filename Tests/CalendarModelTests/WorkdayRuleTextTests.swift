import CalendarModel
import SeededRandom
import Testing

@Suite("Workday rule parts in RRULE text")
struct WorkdayRuleTextTests {
    typealias Rule = RecurrenceRule

    @Test("each X-WORKDAY form is read and prints back identically", arguments: [
        ("FREQ=DAILY;X-WORKDAY=SKIP", WorkdayRule.skip),
        ("FREQ=DAILY;X-WORKDAY=FORWARD", .forward),
        ("FREQ=MONTHLY;BYMONTHDAY=10;X-WORKDAY=BACKWARD", .backward),
        ("FREQ=DAILY;X-WORKDAY=MAKEUP", .makeup),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=3", .firstAfterBreak(days: 3)),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=1", .firstAfterBreak(days: 1)),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=366", .firstAfterBreak(days: 366)),
    ])
    func forms(text: String, workday: WorkdayRule) throws {
        let rule = try Rule(rfc5545: text)
        #expect(rule.workdayRule == workday)
        #expect(rule.workdayRegion == nil)
        #expect(rule.rfc5545 == text)
        #expect(try Rule(rfc5545: rule.rfc5545) == rule)
    }

    @Test("X-REGION is kept lower-case and printed upper-case, after X-WORKDAY and X-BREAK")
    func region() throws {
        let rule = try Rule(rfc5545: "X-REGION=cn;FREQ=DAILY;X-BREAK=2;x-workday=return")
        #expect(rule.workdayRule == .firstAfterBreak(days: 2))
        #expect(rule.workdayRegion == "cn")
        #expect(rule.rfc5545 == "FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=2;X-REGION=CN")
        #expect(try Rule(rfc5545: rule.rfc5545) == rule)
        #expect(try Rule(rfc5545: "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=CN") == Rule(rfc5545: "FREQ=DAILY;X-WORKDAY=skip;X-REGION=Cn"))
    }

    @Test("the workday parts follow every RFC 5545 part, WKST included")
    func order() throws {
        let text = "FREQ=WEEKLY;COUNT=10;INTERVAL=2;BYHOUR=9;BYDAY=MO,FR;WKST=SU;X-WORKDAY=FORWARD;X-REGION=CN"
        let rule = try Rule(rfc5545: "X-REGION=CN;X-WORKDAY=FORWARD;WKST=SU;BYDAY=MO,FR;BYHOUR=9;INTERVAL=2;COUNT=10;FREQ=WEEKLY")
        #expect(rule.rfc5545 == text)
    }

    @Test("the initializer takes the workday parts, defaulting to a plain rule")
    func programmatic() throws {
        #expect(try Rule(frequency: .daily).workdayRule == nil)
        let rule = try Rule(frequency: .daily, workdayRule: .skip, workdayRegion: "CN")
        #expect(rule.workdayRegion == "cn")
        #expect(rule.rfc5545 == "FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=CN")
        // ending(_:) keeps them; withWorkdayRule(_:region:) replaces them.
        #expect(try rule.ending(.count(5)).rfc5545 == "FREQ=DAILY;COUNT=5;X-WORKDAY=SKIP;X-REGION=CN")
        #expect(try rule.withWorkdayRule(nil).rfc5545 == "FREQ=DAILY")
        #expect(try Rule(frequency: .daily).withWorkdayRule(.makeup).rfc5545 == "FREQ=DAILY;X-WORKDAY=MAKEUP")
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .daily, workdayRule: .firstAfterBreak(days: 0)) }
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .daily, workdayRule: .firstAfterBreak(days: 367)) }
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .daily, workdayRegion: "cn") }
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .daily, workdayRule: .skip, workdayRegion: "c n") }
        #expect(throws: RecurrenceRuleError.self) { try rule.withWorkdayRule(nil, region: "cn") }
    }

    @Test("a malformed or misplaced workday part is refused, naming the part", arguments: [
        // (text, part, a word the message must contain)
        ("FREQ=DAILY;X-WORKDAY=SOMETIMES", "X-WORKDAY", "SOMETIMES"),
        ("FREQ=DAILY;X-WORKDAY=", "X-WORKDAY", "value"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-WORKDAY=SKIP", "X-WORKDAY", "twice"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;x-workday=FORWARD", "X-WORKDAY", "twice"),
        ("FREQ=DAILY;X-WORKDAY=RETURN", "X-BREAK", "RETURN"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=0", "X-BREAK", "0"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=367", "X-BREAK", "367"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=-3", "X-BREAK", "-3"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=three", "X-BREAK", "three"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=3;X-BREAK=4", "X-BREAK", "twice"),
        ("FREQ=DAILY;X-BREAK=3", "X-BREAK", "RETURN"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-BREAK=3", "X-BREAK", "SKIP"),
        ("FREQ=DAILY;X-BREAK=3;X-WORKDAY=FORWARD", "X-BREAK", "FORWARD"),
        ("FREQ=DAILY;X-REGION=CN", "X-REGION", "X-WORKDAY"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=C_N", "X-REGION", "C_N"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=ABCDEFGHIJKLMNOPQ", "X-REGION", "ABCDEFGHIJKLMNOPQ"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=CN;X-REGION=HK", "X-REGION", "twice"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=", "X-REGION", "value"),
        // Other extension parts stay refused.
        ("FREQ=DAILY;X-HOLIDAY=SKIP", "X-HOLIDAY", "X-WORKDAY"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-NAME=x", "X-NAME", "RFC 5545"),
        // The RFC 5545 parts are still checked beside a workday part.
        ("FREQ=DAILY;X-WORKDAY=SKIP;BYWEEKNO=1", "BYWEEKNO", "YEARLY"),
        ("X-WORKDAY=SKIP", "FREQ", "missing"),
    ])
    func refused(text: String, part: String, mention: String) {
        expectRefusal(of: text, naming: part, mentioning: mention)
    }

    @Test("the workday parts are described in words", arguments: [
        ("FREQ=DAILY;X-WORKDAY=SKIP", "every workday"),
        ("FREQ=DAILY;COUNT=10;X-WORKDAY=SKIP", "every workday, 10 times"),
        ("FREQ=DAILY;X-WORKDAY=SKIP;X-REGION=CN", "every workday (CN workday calendar)"),
        ("FREQ=DAILY;X-WORKDAY=MAKEUP", "every makeup workday"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=3", "the first workday after at least 3 days off"),
        ("FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=1", "the first workday after at least 1 day off"),
        ("FREQ=DAILY;X-WORKDAY=FORWARD", "every day, moved to the next workday when it falls on a day off"),
        ("FREQ=MONTHLY;BYMONTHDAY=10;X-WORKDAY=FORWARD",
         "FREQ=MONTHLY;BYMONTHDAY=10, moved to the next workday when it falls on a day off"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1;X-WORKDAY=BACKWARD",
         "FREQ=MONTHLY;BYMONTHDAY=-1, moved to the previous workday when it falls on a day off"),
        ("FREQ=WEEKLY;BYDAY=SA,SU;X-WORKDAY=MAKEUP", "FREQ=WEEKLY;BYDAY=SA,SU, only on makeup workdays"),
        ("FREQ=DAILY;INTERVAL=2;X-WORKDAY=SKIP", "FREQ=DAILY;INTERVAL=2, only on workdays"),
        ("FREQ=DAILY;BYHOUR=9;X-WORKDAY=RETURN;X-BREAK=2", "FREQ=DAILY;BYHOUR=9, only on the first workday after at least 2 days off"),
    ])
    func summary(text: String, words: String) throws {
        #expect(try Rule(rfc5545: text).workdaySummary == words)
    }

    @Test("a plain rule has no workday summary")
    func plainSummary() throws {
        #expect(try Rule(rfc5545: "FREQ=DAILY").workdaySummary == nil)
    }

    @Test("random rules with workday parts survive printing and parsing unchanged")
    func randomRoundTrip() throws {
        var random = SplitMix64(seed: 0x0057_04CD_A7E5)
        let forms: [WorkdayRule] = [.skip, .forward, .backward, .makeup]
        for _ in 0..<2000 {
            let workday = random.chance(0.2) ? .firstAfterBreak(days: random.int(1...366)) : random.element(forms)
            let region: String? = random.chance(0.5) ? nil : random.element(["cn", "hk", "us-ca", "de", "x1"])
            let frequency = random.element(Rule.Frequency.allCases)
            let end: Rule.End? = random.chance(0.5) ? nil : .count(random.int(1...500))
            let rule = try Rule(frequency: frequency, interval: random.int(1...3), end: end,
                                daysOfTheWeek: random.chance(0.3) ? [.every(.saturday), .every(.sunday)] : [],
                                hours: random.chance(0.3) ? [9, 17] : [], workdayRule: workday, workdayRegion: region)
            let text = rule.rfc5545
            #expect(try Rule(rfc5545: text) == rule, "\(text)")
            #expect(Rule(text) == rule, "\(text)")
        }
    }
}
