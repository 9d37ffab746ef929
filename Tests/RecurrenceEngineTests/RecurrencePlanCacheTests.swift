import CalendarModel
import RecurrenceEngine
import SeededRandom
import Testing

/// A plan is shared by every series of one rule that starts at the same time
/// of day (and on the same weekday or day of the month where the rule takes
/// those from DTSTART); each series keeps its own first period. Sharing must
/// change nothing a series produces.
@Suite("Plans shared between series")
struct RecurrencePlanCacheTests {
    /// Rules whose plans depend on DTSTART in each way: the time of day
    /// only, the weekday, the day of the month, month and day, and sub-daily
    /// ones whose skipped days and hours align to the series' first period.
    static let rules = [
        "FREQ=WEEKLY", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH", "FREQ=WEEKLY;INTERVAL=3;COUNT=12",
        "FREQ=MONTHLY", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;INTERVAL=5;BYMONTHDAY=31",
        "FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=2,8", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", "FREQ=DAILY;INTERVAL=3",
        "FREQ=HOURLY;INTERVAL=5;BYDAY=SA", "FREQ=HOURLY;INTERVAL=7;BYHOUR=9,10,23", "FREQ=MINUTELY;INTERVAL=97;BYHOUR=6",
        "FREQ=DAILY;BYSETPOS=-1;BYHOUR=8,17", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;UNTIL=20300101T000000Z",
    ]

    @Test("series of one rule expand the same with a shared cache as alone, across starts, zones and seeks")
    func sharingChangesNothing() throws {
        let zones = [try TimeZoneRules.named("Asia/Shanghai"), try TimeZoneRules.named("America/New_York"),
                     try TimeZoneRules.named("Australia/Lord_Howe")]
        let cache = RecurrencePlanCache()
        var random = SplitMix64(seed: 0x91A7_CAC4E)
        var built = 0
        for text in Self.rules {
            let rule = try RecurrenceRule(rfc5545: text)
            for _ in 0..<40 {
                // Few times of day, many days: most starts share a plan.
                let day = CivilDate(dayNumber: CivilDate(year: 2020, month: 1, day: 1)!.dayNumber + random.int(0...3000))
                let start = LocalDateTime(date: day, hour: random.element([0, 9, 23]), minute: random.element([0, 30]))!
                let zone = random.element(zones)
                let shared = Recurrence(rule: rule, start: start, timeZone: zone, plans: cache)
                let alone = Recurrence(rule: rule, start: start, timeZone: zone)
                built += 1
                let expected = Array(alone.occurrences().prefix(60))
                #expect(Array(shared.occurrences().prefix(60)) == expected, "\(text) from \(start.basicFormat) in \(zone.identifier)")
                let after = (expected.first?.instant ?? 0) + random.int64(0...400 * 86_400)
                #expect(Array(shared.occurrences(after: after).prefix(10)) == Array(alone.occurrences(after: after).prefix(10)),
                        "\(text) from \(start.basicFormat) in \(zone.identifier), after \(after)")
            }
        }
        // It did share: far fewer plans than series.
        #expect(cache.count > Self.rules.count && cache.count < built / 2, "\(cache.count) plans for \(built) series")
    }

    @Test("an equal rule parsed again gets its own plan, and a full cache starts afresh")
    func rulesAreToldApartByIdentityAndTheCacheIsBounded() throws {
        let cache = RecurrencePlanCache(capacity: 3)
        let zone = try TimeZoneRules.named("UTC")
        let start = LocalDateTime(date: CivilDate(year: 2026, month: 12, day: 1)!, hour: 8, minute: 50)!
        let first = try RecurrenceRule(rfc5545: "FREQ=DAILY")
        _ = Recurrence(rule: first, start: start, timeZone: zone, plans: cache)
        _ = Recurrence(rule: first, start: LocalDateTime(localSeconds: start.localSeconds + 86_400), timeZone: zone, plans: cache)
        #expect(cache.count == 1)
        _ = Recurrence(rule: try RecurrenceRule(rfc5545: "FREQ=DAILY"), start: start, timeZone: zone, plans: cache)
        #expect(cache.count == 2)
        _ = Recurrence(rule: first, start: LocalDateTime(localSeconds: start.localSeconds + 60), timeZone: zone, plans: cache)
        #expect(cache.count == 3)
        let fourth = try RecurrenceRule(rfc5545: "FREQ=WEEKLY")
        let recurrence = Recurrence(rule: fourth, start: start, timeZone: zone, plans: cache)
        #expect(cache.count == 1)
        // 2026-12-08T08:50 UTC, a week after the start.
        #expect(Array(recurrence.occurrences().prefix(2)).last?.instant == 1_796_719_800)
    }
}
