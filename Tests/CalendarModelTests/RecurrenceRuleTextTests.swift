import CalendarModel
import SeededRandom
import Testing

/// Expects `text` to be refused with an error that names `part` first and
/// mentions `mention`.
func expectRefusal(of text: String, naming part: String, mentioning mention: String,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        let rule = try RecurrenceRule(rfc5545: text)
        Issue.record("'\(text)' was accepted as \(rule.rfc5545)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.part == part, "'\(text)': \(error)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("invalid recurrence rule: \(part) "), "'\(text)': \(error)", sourceLocation: sourceLocation)
        #expect(error.description.contains(mention), "'\(text)': \(error)", sourceLocation: sourceLocation)
    }
}

@Suite("RFC 5545 RRULE text")
struct RecurrenceRuleTextTests {
    typealias Rule = RecurrenceRule
    typealias Day = RecurrenceRule.DayOfWeek

    // MARK: Each part

    @Test("all seven frequencies parse and print", arguments: zip(
        ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"],
        [Rule.Frequency.secondly, .minutely, .hourly, .daily, .weekly, .monthly, .yearly]))
    func frequencies(name: String, frequency: Rule.Frequency) throws {
        let rule = try Rule(rfc5545: "FREQ=\(name)")
        #expect(rule.frequency == frequency)
        #expect(rule.interval == 1)
        #expect(rule.end == nil)
        #expect(rule.firstDayOfTheWeek == .monday)
        #expect(rule.rfc5545 == "FREQ=\(name)")
    }

    @Test("INTERVAL is read, and printed only when it is not 1")
    func interval() throws {
        let rule = try Rule(rfc5545: "FREQ=WEEKLY;INTERVAL=2")
        #expect(rule.interval == 2)
        #expect(rule.rfc5545 == "FREQ=WEEKLY;INTERVAL=2")
        #expect(try Rule(rfc5545: "FREQ=WEEKLY;INTERVAL=1").rfc5545 == "FREQ=WEEKLY")
    }

    @Test("COUNT is read as the rule's end")
    func count() throws {
        let rule = try Rule(rfc5545: "FREQ=DAILY;COUNT=10")
        #expect(rule.end == .count(10))
        #expect(rule.count == 10)
        #expect(rule.until == nil)
        #expect(rule.rfc5545 == "FREQ=DAILY;COUNT=10")
    }

    @Test("UNTIL is read in its DATE, floating DATE-TIME and UTC DATE-TIME forms", arguments: [
        ("20261231", Rule.Until.date(CivilDate(year: 2026, month: 12, day: 31)!)),
        ("20261231T235959", .local(LocalDateTime(parsing: "2026-12-31T23:59:59")!)),
        ("20261231T155959Z", .utc(LocalDateTime(parsing: "2026-12-31T15:59:59")!)),
    ])
    func until(text: String, until: Rule.Until) throws {
        let rule = try Rule(rfc5545: "FREQ=DAILY;UNTIL=\(text)")
        #expect(rule.until == until)
        #expect(rule.count == nil)
        #expect(rule.rfc5545 == "FREQ=DAILY;UNTIL=\(text)")
    }

    @Test("BYSECOND, BYMINUTE and BYHOUR accept their whole ranges, leap second included")
    func timeParts() throws {
        let rule = try Rule(rfc5545: "FREQ=DAILY;BYSECOND=0,30,60;BYMINUTE=0,15,59;BYHOUR=0,9,23")
        #expect(rule.seconds == [0, 30, 60])
        #expect(rule.minutes == [0, 15, 59])
        #expect(rule.hours == [0, 9, 23])
        #expect(rule.rfc5545 == "FREQ=DAILY;BYSECOND=0,30,60;BYMINUTE=0,15,59;BYHOUR=0,9,23")
    }

    @Test("BYDAY reads plain and numbered weekdays, with or without a sign")
    func byDay() throws {
        let rule = try Rule(rfc5545: "FREQ=MONTHLY;BYDAY=-1FR,2TU,+3WE,MO,-5SU,5SA")
        #expect(rule.daysOfTheWeek == [
            Day(.friday, position: -1), Day(.tuesday, position: 2), Day(.wednesday, position: 3),
            .every(.monday), Day(.sunday, position: -5), Day(.saturday, position: 5),
        ])
        #expect(rule.rfc5545 == "FREQ=MONTHLY;BYDAY=-1FR,2TU,3WE,MO,-5SU,5SA")
    }

    @Test("a yearly BYDAY may number weekdays up to 53 either way")
    func yearlyByDay() throws {
        let rule = try Rule(rfc5545: "FREQ=YEARLY;BYDAY=20MO,-53SU,+53TH")
        #expect(rule.daysOfTheWeek == [Day(.monday, position: 20), Day(.sunday, position: -53), Day(.thursday, position: 53)])
        #expect(rule.rfc5545 == "FREQ=YEARLY;BYDAY=20MO,-53SU,53TH")
    }

    @Test("BYMONTHDAY reads days from either end of the month")
    func byMonthDay() throws {
        let rule = try Rule(rfc5545: "FREQ=MONTHLY;BYMONTHDAY=1,-1,+15,31,-31")
        #expect(rule.daysOfTheMonth == [1, -1, 15, 31, -31])
        #expect(rule.rfc5545 == "FREQ=MONTHLY;BYMONTHDAY=1,-1,15,31,-31")
    }

    @Test("BYYEARDAY reads days from either end of the year")
    func byYearDay() throws {
        let rule = try Rule(rfc5545: "FREQ=YEARLY;BYYEARDAY=1,-1,+100,366,-366")
        #expect(rule.daysOfTheYear == [1, -1, 100, 366, -366])
        #expect(rule.rfc5545 == "FREQ=YEARLY;BYYEARDAY=1,-1,100,366,-366")
    }

    @Test("BYWEEKNO reads weeks from either end of the year")
    func byWeekNo() throws {
        let rule = try Rule(rfc5545: "FREQ=YEARLY;BYWEEKNO=1,-1,+20,53,-53")
        #expect(rule.weeksOfTheYear == [1, -1, 20, 53, -53])
        #expect(rule.rfc5545 == "FREQ=YEARLY;BYWEEKNO=1,-1,20,53,-53")
    }

    @Test("BYMONTH reads months 1 to 12")
    func byMonth() throws {
        let rule = try Rule(rfc5545: "FREQ=YEARLY;BYMONTH=1,6,12")
        #expect(rule.monthsOfTheYear == [1, 6, 12])
        #expect(rule.rfc5545 == "FREQ=YEARLY;BYMONTH=1,6,12")
    }

    @Test("BYSETPOS reads positions from either end of the set")
    func bySetPos() throws {
        let rule = try Rule(rfc5545: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1,+2,366,-366")
        #expect(rule.setPositions == [1, -1, 2, 366, -366])
        #expect(rule.rfc5545 == "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1,2,366,-366")
    }

    @Test("WKST is read, and printed only when it is not Monday", arguments: Weekday.allCases)
    func weekStart(day: Weekday) throws {
        let rule = try Rule(rfc5545: "FREQ=WEEKLY;WKST=\(day.code)")
        #expect(rule.firstDayOfTheWeek == day)
        #expect(rule.rfc5545 == (day == .monday ? "FREQ=WEEKLY" : "FREQ=WEEKLY;WKST=\(day.code)"))
    }

    @Test("an RRULE: prefix and lower-case names and codes are accepted")
    func prefixAndCase() throws {
        let expected = try Rule(rfc5545: "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;WKST=SU")
        for text in ["RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR;WKST=SU", "rrule:freq=monthly;interval=2;byday=-1fr;wkst=su",
                     "RRule:Freq=Monthly;Interval=2;ByDay=-1Fr;WkSt=Su"] {
            #expect(try Rule(rfc5545: text) == expected, "\(text)")
        }
    }

    @Test("parts may come in any order")
    func anyOrder() throws {
        let rule = try Rule(rfc5545: "BYMONTH=3;COUNT=4;BYDAY=2SU;FREQ=YEARLY")
        #expect(rule == (try Rule(frequency: .yearly, end: .count(4), daysOfTheWeek: [Day(.sunday, position: 2)], monthsOfTheYear: [3])))
    }

    // MARK: Round trips

    @Test("canonical text prints back identically", arguments: [
        "FREQ=DAILY",
        "FREQ=DAILY;COUNT=10",
        "FREQ=DAILY;UNTIL=19971224T000000Z",
        "FREQ=WEEKLY;UNTIL=19971007T000000Z;BYDAY=TU,TH;WKST=SU",
        "FREQ=MONTHLY;COUNT=10;INTERVAL=2;BYDAY=1SU,-1SU",
        "FREQ=MONTHLY;INTERVAL=18;BYMONTHDAY=10,11,12,13,14,15",
        "FREQ=YEARLY;BYDAY=20MO",
        "FREQ=YEARLY;BYDAY=MO;BYWEEKNO=20",
        "FREQ=YEARLY;INTERVAL=4;BYMINUTE=30;BYHOUR=8;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8;BYMONTH=11",
        "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3",
        "FREQ=HOURLY;UNTIL=19970902T170000Z;INTERVAL=3",
        "FREQ=MINUTELY;COUNT=6;INTERVAL=20",
        "FREQ=SECONDLY;BYSECOND=0,60",
        "FREQ=YEARLY;UNTIL=20261231;BYYEARDAY=1,100,200",
        "FREQ=WEEKLY;UNTIL=20261231T235959;INTERVAL=2;BYDAY=MO,FR",
        "RSCALE=CHINESE;FREQ=YEARLY",
        "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=4,4L;SKIP=BACKWARD",
        "RSCALE=CHINESE;FREQ=MONTHLY;COUNT=12;BYMONTHDAY=1,15;BYMONTH=6L",
        "RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=FORWARD",
    ])
    func canonicalRoundTrip(text: String) throws {
        let rule = try Rule(rfc5545: text)
        #expect(rule.rfc5545 == text)
        #expect(rule.description == text)
        #expect(try Rule(rfc5545: rule.rfc5545) == rule)
    }

    @Test("other spellings print in canonical form and reparse to the same rule", arguments: [
        ("RRULE:INTERVAL=2;FREQ=monthly;BYDAY=+3we;COUNT=10", "FREQ=MONTHLY;COUNT=10;INTERVAL=2;BYDAY=3WE"),
        ("FREQ=DAILY;INTERVAL=1;WKST=MO", "FREQ=DAILY"),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=+1;BYHOUR=9", "FREQ=YEARLY;BYHOUR=9;BYMONTHDAY=1;BYMONTH=3"),
        ("WKST=SU;BYSETPOS=-1;BYDAY=SA,SU;FREQ=MONTHLY", "FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=-1;WKST=SU"),
        ("FREQ=DAILY;UNTIL=20261231T155959z", "FREQ=DAILY;UNTIL=20261231T155959Z"),
        // RFC 7529: RSCALE's names are case-insensitive; RSCALE=GREGORIAN without a SKIP is a plain rule.
        ("FREQ=YEARLY;SKIP=omit;RSCALE=chinese;BYMONTH=4l,3", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=3,4L"),
        ("RSCALE=GREGORIAN;FREQ=YEARLY", "FREQ=YEARLY"),
        ("RSCALE=Gregorian;FREQ=DAILY;SKIP=BACKWARD", "RSCALE=GREGORIAN;FREQ=DAILY;SKIP=BACKWARD"),
    ])
    func normalisedRoundTrip(text: String, canonical: String) throws {
        let rule = try Rule(rfc5545: text)
        #expect(rule.rfc5545 == canonical)
        #expect(try Rule(rfc5545: canonical) == rule)
    }

    @Test("thousands of random valid rules survive printing and parsing unchanged")
    func randomRoundTrip() throws {
        var random = SplitMix64(seed: 0x00C0_FFEE_5545)
        for index in 0..<5_000 {
            let rule: Rule
            do {
                rule = try Self.randomRule(using: &random)
            } catch {
                Issue.record("rule \(index): a generated valid rule was refused: \(error)")
                continue
            }
            let text = rule.rfc5545
            do {
                let parsed = try Rule(rfc5545: text)
                #expect(parsed == rule, "\(text)")
                #expect(parsed.rfc5545 == text)
            } catch {
                Issue.record("rule \(index): '\(text)' was refused: \(error)")
            }
        }
    }

    /// RFC 5545's COUNT and INTERVAL are `1*DIGIT`: the printer writes any
    /// positive Int, so the parser must read back what it prints.
    @Test("a COUNT or INTERVAL of ten digits prints text that parses back")
    func longNumbersRoundTrip() throws {
        for rule in [try Rule(frequency: .daily, end: .count(1_000_000_000)), try Rule(frequency: .daily, interval: 1_000_000_000)] {
            let text = rule.rfc5545
            #expect((try? Rule(rfc5545: text)) == rule, "\(text)")
        }
    }

    @Test("the LosslessStringConvertible initializer returns nil for refused text")
    func losslessString() throws {
        #expect(Rule("FREQ=WEEKLY;BYDAY=MO") == (try Rule(frequency: .weekly, daysOfTheWeek: [.every(.monday)])))
        #expect(Rule("FREQ=WEEKLY;BYDAY=1MO") == nil)
        #expect(Rule("") == nil)
    }

    // MARK: Errors

    @Test("a malformed or forbidden rule is refused, naming the part at fault", arguments: [
        // (text, part, a word the message must contain)
        ("", "rule", "empty"), ("RRULE:", "rule", "empty"), ("   ", "rule", "empty"),
        ("INTERVAL=2;COUNT=3", "FREQ", "missing"),
        ("FREQ=FORTNIGHTLY", "FREQ", "FORTNIGHTLY"),
        ("FREQ=", "FREQ", "value"),
        ("FREQ=WEEKLY;INTERVAL=0", "INTERVAL", "0"),
        ("FREQ=WEEKLY;INTERVAL=-2", "INTERVAL", "-2"),
        ("FREQ=WEEKLY;INTERVAL=2x", "INTERVAL", "2x"),
        ("FREQ=DAILY;COUNT=0", "COUNT", "0"),
        ("FREQ=DAILY;COUNT=1.5", "COUNT", "1.5"),
        ("FREQ=DAILY;COUNT=3;UNTIL=20261231", "UNTIL", "COUNT"),
        ("FREQ=DAILY;UNTIL=20261231;COUNT=3", "COUNT", "UNTIL"),
        ("FREQ=DAILY;BYHOUR=9;BYHOUR=10", "BYHOUR", "twice"),
        ("FREQ=DAILY;byhour=9;BYHOUR=10", "BYHOUR", "twice"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ", "twice"),
        ("FREQ=DAILY;FOO=1", "FOO", "FOO"),
        ("FREQ=DAILY;BYHOUR=", "BYHOUR", "value"),
        ("FREQ=DAILY;BYHOUR=9,,10", "BYHOUR", "''"),
        ("FREQ=DAILY;BYHOUR=nine", "BYHOUR", "nine"),
        ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY", "0"),
        ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY", "32"),
        ("FREQ=MONTHLY;BYMONTHDAY=-32", "BYMONTHDAY", "-32"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH", "13"),
        ("FREQ=YEARLY;BYMONTH=0", "BYMONTH", "0"),
        ("FREQ=YEARLY;BYMONTH=-1", "BYMONTH", "-1"),
        ("FREQ=DAILY;BYHOUR=24", "BYHOUR", "24"),
        ("FREQ=DAILY;BYMINUTE=60", "BYMINUTE", "60"),
        ("FREQ=MINUTELY;BYSECOND=61", "BYSECOND", "61"),
        ("FREQ=YEARLY;BYYEARDAY=367", "BYYEARDAY", "367"),
        ("FREQ=YEARLY;BYYEARDAY=-367", "BYYEARDAY", "-367"),
        ("FREQ=YEARLY;BYYEARDAY=0", "BYYEARDAY", "0"),
        ("FREQ=YEARLY;BYWEEKNO=54", "BYWEEKNO", "54"),
        ("FREQ=YEARLY;BYWEEKNO=-54", "BYWEEKNO", "-54"),
        ("FREQ=YEARLY;BYWEEKNO=0", "BYWEEKNO", "0"),
        ("FREQ=WEEKLY;BYDAY=XX", "BYDAY", "XX"),
        ("FREQ=WEEKLY;BYDAY=M", "BYDAY", "M"),
        ("FREQ=MONTHLY;BYDAY=0MO", "BYDAY", "0MO"),
        ("FREQ=MONTHLY;BYDAY=+MO", "BYDAY", "+MO"),
        ("FREQ=YEARLY;BYDAY=54MO", "BYDAY", "54"),
        ("FREQ=YEARLY;BYDAY=-54MO", "BYDAY", "-54"),
        ("FREQ=MONTHLY;BYDAY=MO,,TU", "BYDAY", "''"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0", "BYSETPOS", "0"),
        ("FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367", "BYSETPOS", "367"),
        ("FREQ=MONTHLY;BYSETPOS=1", "BYSETPOS", "BY"),
        ("FREQ=MONTHLY;COUNT=3;BYSETPOS=-1;WKST=SU", "BYSETPOS", "BY"),
        ("FREQ=DAILY;UNTIL=garbage", "UNTIL", "garbage"),
        ("FREQ=DAILY;UNTIL=2026-12-31", "UNTIL", "2026-12-31"),
        ("FREQ=DAILY;UNTIL=20261332", "UNTIL", "20261332"),
        ("FREQ=DAILY;UNTIL=20261231T240000Z", "UNTIL", "20261231T240000Z"),
        ("FREQ=DAILY;UNTIL=20261231T2359Z", "UNTIL", "20261231T2359Z"),
        ("FREQ=MONTHLY;BYWEEKNO=1", "BYWEEKNO", "YEARLY"),
        ("FREQ=WEEKLY;BYWEEKNO=1", "BYWEEKNO", "YEARLY"),
        ("FREQ=DAILY;BYYEARDAY=1", "BYYEARDAY", "DAILY"),
        ("FREQ=WEEKLY;BYYEARDAY=1", "BYYEARDAY", "WEEKLY"),
        ("FREQ=MONTHLY;BYYEARDAY=1", "BYYEARDAY", "MONTHLY"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY", "WEEKLY"),
        ("FREQ=WEEKLY;BYDAY=1MO", "BYDAY", "MONTHLY"),
        ("FREQ=DAILY;BYDAY=-1FR", "BYDAY", "MONTHLY"),
        ("FREQ=HOURLY;BYDAY=2TU", "BYDAY", "MONTHLY"),
        ("FREQ=YEARLY;BYWEEKNO=20;BYDAY=1MO", "BYDAY", "BYWEEKNO"),
        ("FREQ=MONTHLY;BYDAY=6MO", "BYDAY", "5"),
        ("FREQ=MONTHLY;BYDAY=-6MO", "BYDAY", "5"),
        ("FREQ=WEEKLY;WKST=XX", "WKST", "XX"),
        ("FREQ=WEEKLY;WKST=", "WKST", "value"),
        ("RSCALE=HEBREW;FREQ=YEARLY", "RSCALE", "HEBREW"),
        ("FREQ=MONTHLY;SKIP=BACKWARD", "SKIP", "RSCALE"),
        ("RSCALE=CHINESE;FREQ=MONTHLY;SKIP=SIDEWAYS", "SKIP", "SIDEWAYS"),
        ("FREQ=YEARLY;BYMONTH=4L", "BYMONTH", "RSCALE=CHINESE"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=13L", "BYMONTH", "13"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=L", "BYMONTH", "'L'"),
        ("RSCALE=CHINESE;FREQ=WEEKLY", "RSCALE=CHINESE", "FREQ=WEEKLY"),
        ("RSCALE=CHINESE;FREQ=MONTHLY;BYDAY=1MO", "BYDAY", "RSCALE=CHINESE"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYYEARDAY=1", "BYYEARDAY", "RSCALE=CHINESE"),
        ("RSCALE=GREGORIAN;FREQ=YEARLY;BYWEEKNO=1;SKIP=FORWARD", "BYWEEKNO", "SKIP=FORWARD"),
    ])
    func refused(text: String, part: String, mention: String) {
        expectRefusal(of: text, naming: part, mentioning: mention)
    }

    @Test("a piece without '=' is refused, naming the piece")
    func pieceWithoutEquals() {
        for (text, piece) in [("FREQ", "FREQ"), ("FREQ=DAILY;COUNT", "COUNT"), ("FREQ=DAILY;=3", "=3")] {
            let error = #expect(throws: RecurrenceRuleError.self) { try Rule(rfc5545: text) }
            #expect(error?.part.contains(piece) == true, "'\(text)': \(String(describing: error))")
            #expect(error?.description.contains("NAME=VALUE") == true, "'\(text)': \(String(describing: error))")
        }
    }

    @Test("the initializer and ending(_:) validate like the parser")
    func programmaticValidation() throws {
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .monthly, daysOfTheMonth: [0]) }
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .daily, interval: 0) }
        #expect(throws: RecurrenceRuleError.self) { try Rule(frequency: .weekly, daysOfTheWeek: [Day(.monday, position: 1)]) }
        let rule = try Rule(frequency: .daily)
        #expect(throws: RecurrenceRuleError.self) { try rule.ending(.count(0)) }
        let ended = try rule.ending(.until(.date(CivilDate(year: 2026, month: 12, day: 31)!)))
        #expect(ended.rfc5545 == "FREQ=DAILY;UNTIL=20261231")
        #expect(try ended.ending(nil) == rule)
    }

    @Test("an UNTIL past year 9999 or before year 0 is refused however it is built, as RFC 5545's four-digit years cannot write it")
    func untilOutsideFourDigitYears() throws {
        let rule = try Rule(frequency: .weekly)
        let tooLate = LocalDateTime(localSeconds: 253_402_300_800) // 10000-01-01T00:00:00
        let tooEarly = LocalDateTime(localSeconds: -62_167_219_201) // -0001-12-31T23:59:59
        for until in [Rule.Until.utc(tooLate), .local(tooLate), .date(tooLate.date), .utc(tooEarly), .date(tooEarly.date)] {
            let error = #expect(throws: RecurrenceRuleError.self) { try rule.ending(.until(until)) }
            #expect(error?.part == "UNTIL", "\(until)")
            #expect(error?.description.contains("0000") == true, "\(String(describing: error))")
        }
        let last = LocalDateTime(localSeconds: 253_402_300_799) // 9999-12-31T23:59:59
        #expect(try rule.ending(.until(.utc(last))).rfc5545 == "FREQ=WEEKLY;UNTIL=99991231T235959Z")
    }

    // MARK: Random rules

    /// A rule that RFC 5545 allows, built part by part within each part's
    /// range and the combinations the frequency permits.
    private static func randomRule(using random: inout SplitMix64) throws(RecurrenceRuleError) -> Rule {
        func maybe(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
        func list(_ percent: Int, _ make: () -> Int) -> [Int] {
            guard maybe(percent) else { return [] }
            return (0..<Int.random(in: 1...4, using: &random)).map { _ in make() }
        }
        func signed(_ range: ClosedRange<Int>) -> Int {
            let value = Int.random(in: range, using: &random)
            return maybe(50) ? -value : value
        }
        func weekday() -> Weekday { Weekday.allCases.randomElement(using: &random)! }
        func wallTime() -> LocalDateTime {
            LocalDateTime(localSeconds: Int64.random(in: -2_208_988_800...7_258_118_399, using: &random))
        }

        let frequency = Rule.Frequency.allCases.randomElement(using: &random)!
        let interval = maybe(50) ? 1 : (maybe(90) ? Int.random(in: 2...100, using: &random) : Int.random(in: 2...999_999_999, using: &random))
        let end: Rule.End? = switch Int.random(in: 0..<5, using: &random) {
        case 0: nil
        case 1: .count(maybe(90) ? Int.random(in: 1...1_000, using: &random) : Int.random(in: 1...999_999_999, using: &random))
        case 2: .until(.date(wallTime().date))
        case 3: .until(.local(wallTime()))
        default: .until(.utc(wallTime()))
        }
        let weeks = frequency == .yearly ? list(30) { signed(1...53) } : []
        let maxPosition = frequency == .monthly ? 5 : (frequency == .yearly && weeks.isEmpty ? 53 : 0)
        let days: [Day] = maybe(50) ? [] : (0..<Int.random(in: 1...4, using: &random)).map { _ in
            Day(weekday(), position: maxPosition > 0 && maybe(50) ? signed(1...maxPosition) : 0)
        }
        let monthDays = frequency == .weekly ? [] : list(30) { signed(1...31) }
        let yearDays = [.daily, .weekly, .monthly].contains(frequency) ? [] : list(20) { signed(1...366) }
        let months = list(30) { Int.random(in: 1...12, using: &random) }
        let hours = list(30) { Int.random(in: 0...23, using: &random) }
        let minutes = list(30) { Int.random(in: 0...59, using: &random) }
        let seconds = list(20) { Int.random(in: 0...60, using: &random) }
        let anyBy = !(weeks.isEmpty && days.isEmpty && monthDays.isEmpty && yearDays.isEmpty && months.isEmpty
            && hours.isEmpty && minutes.isEmpty && seconds.isEmpty)
        let positions = anyBy ? list(30) { signed(1...366) } : []
        return try Rule(frequency: frequency, interval: interval, end: end, daysOfTheWeek: days, daysOfTheMonth: monthDays,
                        daysOfTheYear: yearDays, weeksOfTheYear: weeks, monthsOfTheYear: months, hours: hours,
                        minutes: minutes, seconds: seconds, setPositions: positions, firstDayOfTheWeek: weekday())
    }
}
