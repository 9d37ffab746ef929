import CalendarModel
@testable import RecurrenceEngine
import SeededRandom
import Testing

/// Where a COUNT rule ends is worked out by arithmetic for the regular
/// DAILY and WEEKLY rules (`CompiledRecurrence.countEndByArithmetic`) and
/// walked for every other: the two must agree wherever the first answers,
/// in zones with every kind of offset change, and the first must decline
/// what it cannot answer.
@Suite("COUNT's end by arithmetic agrees with the walk")
struct CountEndTests {
    static let zones = ["UTC", "Asia/Shanghai", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/St_Johns",
                        "Asia/Kolkata", "America/Sao_Paulo", "Europe/Dublin", "Pacific/Chatham", "Antarctica/Troll", "Africa/Casablanca",
                        "Pacific/Apia", "America/Havana"]
    static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    static func compiled(_ rule: String, start: LocalDateTime, zone: String, allDay: Bool = false, fold: TimeZoneRules.Fold = .earlier,
                         exceptions: [LocalDateTime] = []) throws -> CompiledRecurrence {
        CompiledRecurrence(rule: try RecurrenceRule(rfc5545: rule), start: start, isAllDay: allDay, timeZone: try TimeZoneRules.named(zone),
                           exceptionDates: exceptions, extraDates: [], workdays: nil, plans: nil, startFold: fold)
    }

    @Test("on 3,000 random DAILY, WEEKLY and MONTHLY-by-numbered-weekday rules in fourteen zones, every end the arithmetic gives is the walk's")
    func arithmeticMatchesTheWalk() throws {
        var random = SplitMix64(seed: 0xC0_0E_7E_0D)
        var answered = 0, declined = 0, inTransitionHours = 0
        var failures: [String] = []
        for _ in 0..<3_000 {
            let zone = random.element(Self.zones)
            let day = random.int(CivilDate.dayNumber(year: 1950, month: 1, day: 1)...CivilDate.dayNumber(year: 2090, month: 12, day: 31))
            let allDay = random.chance(0.1)
            // Often in the small hours, where most zones change their offset.
            let second = allDay ? 0 : random.chance(0.4) ? random.int(0...(4 * 3600 - 1)) / 60 * 60 : random.int(0...86_399) / 60 * 60
            if second < 4 * 3600 && !allDay { inTransitionHours += 1 }
            let start = LocalDateTime(localSeconds: Int64(day) * 86_400 + Int64(second))
            let count = random.chance(0.1) ? random.int(1...3) : random.int(1...(random.chance(0.2) ? 3_000 : 300))
            var parts = ["COUNT=\(count)", "INTERVAL=\(random.int(1...4))"]
            func weekdays() -> String {
                "BYDAY=" + random.distinct(random.int(1...7), from: Array(0...6)).sorted().map { Self.weekdays[$0] }.joined(separator: ",")
            }
            switch random.int(0...9) {
            case 0...4:
                parts.insert("FREQ=WEEKLY", at: 0)
                if random.chance(0.8) { parts.append(weekdays()) }
                if random.chance(0.5) { parts.append("WKST=" + random.element(Self.weekdays)) }
            case 5...7:
                parts.insert("FREQ=DAILY", at: 0)
                if random.chance(0.5) { parts.append(weekdays()) }
            default:
                parts.insert("FREQ=MONTHLY", at: 0)
                parts.append("BYDAY=\(random.element([1, 2, 3, 4, -1, -2, -3, -4]))\(random.element(Self.weekdays))")
            }
            let text = parts.joined(separator: ";")
            let exceptions = random.chance(0.3) ? [LocalDateTime(localSeconds: start.localSeconds + 86_400 * Int64(random.int(1...20)))] : []
            let recurrence = try Self.compiled(text, start: start, zone: zone, allDay: allDay, fold: random.chance(0.2) ? .later : .earlier,
                                               exceptions: exceptions)
            let walked = recurrence.countEndByWalking(count)
            guard let worked = recurrence.countEndByArithmetic(count) else {
                declined += 1
                continue
            }
            answered += 1
            if worked != walked.instant || walked.isBeyondBound {
                failures.append("\(text) from \(start) in \(zone)\(allDay ? " (all day)" : ""): arithmetic \(worked), walk \(walked.instant)")
            }
        }
        for failure in failures.prefix(10) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) disagreements")
        // Pacific/Apia (a day skipped) is always walked; nearly everything else is answered.
        #expect(answered >= 2_600 && declined >= 150, "answered \(answered), declined \(declined)")
        #expect(inTransitionHours >= 900)
    }

    @Test("rules with other parts, another time of day, a workday rule, or a zone that skipped a day are walked")
    func declinesWhatItCannotAnswer() throws {
        let start = try #require(LocalDateTime(parsing: "2026-03-02T09:00:00")) // a Monday
        for rule in ["FREQ=DAILY;COUNT=10;BYMONTH=3,4", "FREQ=DAILY;COUNT=10;BYHOUR=10", "FREQ=DAILY;COUNT=10;BYHOUR=9,17",
                     "FREQ=WEEKLY;COUNT=10;BYMONTH=3", "FREQ=WEEKLY;COUNT=10;BYDAY=MO,TU;BYSETPOS=1", "FREQ=MONTHLY;COUNT=10",
                     "FREQ=HOURLY;COUNT=10", "FREQ=MONTHLY;COUNT=10;BYDAY=5MO", "FREQ=MONTHLY;COUNT=10;BYDAY=1MO,3MO",
                     "FREQ=MONTHLY;COUNT=10;BYDAY=MO", "FREQ=DAILY;UNTIL=20260401T000000Z",
                     "FREQ=DAILY;COUNT=10;X-WORKDAY=SKIP;X-REGION=CN"] {
            let recurrence = try Self.compiled(rule, start: start, zone: "Asia/Shanghai")
            #expect(recurrence.countEndByArithmetic(10) == nil, "\(rule)")
        }
        let apia = try Self.compiled("FREQ=DAILY;COUNT=10", start: try #require(LocalDateTime(parsing: "2011-12-25T09:00:00")), zone: "Pacific/Apia")
        #expect(apia.countEndByArithmetic(10) == nil)
        // Across the day Samoa skipped (2011-12-30), ten daily occurrences end on 2012-01-04, as the walk finds.
        #expect(apia.countEndResult()?.instant == apia.countEndByWalking(10).instant)
    }

    @Test("ends pinned by hand: every other Monday and Wednesday from a Tuesday, daily across New York's spring gap, weekdays over a weekend, the last Friday of the month")
    func pinnedEnds() throws {
        // DTSTART Tue 2026-03-03 09:00 counts first; then We 4, (Mo 9, We 11 are an off week), Mo 16, We 18: the fourth is 2026-03-18T09:00+08:00.
        let weekly = try Self.compiled("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=4", start: try #require(LocalDateTime(parsing: "2026-03-03T09:00:00")),
                                       zone: "Asia/Shanghai")
        #expect(weekly.countEndByArithmetic(4) == 1_773_795_600) // 2026-03-18T01:00:00Z
        // Daily at 02:30 from 2026-03-07: the 2nd (03-08) falls in the gap and reads as 03:30 EDT; the 3rd is 03-09T02:30-04:00.
        let daily = try Self.compiled("FREQ=DAILY;COUNT=3", start: try #require(LocalDateTime(parsing: "2026-03-07T02:30:00")), zone: "America/New_York")
        #expect(daily.countEndByArithmetic(2) == 1_772_955_000) // 2026-03-08T07:30:00Z
        #expect(daily.countEndByArithmetic(3) == 1_773_037_800) // 2026-03-09T06:30:00Z
        #expect(daily.countEndByArithmetic(3) == daily.countEndByWalking(3).instant)
        // Weekdays from Thursday 2026-12-03: Th 3, Fr 4, Mo 7, Tu 8, We 9, Th 10.
        let workdays = try Self.compiled("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;COUNT=6", start: try #require(LocalDateTime(parsing: "2026-12-03T09:00:00")),
                                         zone: "Asia/Shanghai")
        #expect(workdays.countEndByArithmetic(6) == 1_796_864_400) // 2026-12-10T01:00:00Z
        // The last Friday from Monday 2026-11-02: the start, then 11-27 and 12-25.
        let lastFriday = try Self.compiled("FREQ=MONTHLY;BYDAY=-1FR;COUNT=3", start: try #require(LocalDateTime(parsing: "2026-11-02T18:00:00")),
                                           zone: "Europe/Berlin")
        #expect(lastFriday.countEndByArithmetic(3) == 1_798_218_000) // 2026-12-25T17:00:00Z
    }
}
