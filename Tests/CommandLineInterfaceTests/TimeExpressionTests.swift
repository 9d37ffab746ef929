@testable import CalendarModel
import CommandLineInterface
import Testing

/// Reads `text` at `now` (RFC 3339) on `zone`'s wall clock.
private func read(_ text: String, now: String, in zone: String) throws(TimeExpressionError) -> TimeExpression.Meaning {
    try TimeExpression(text, now: instant(now), zone: rules(zone)).meaning
}

private func rules(_ zone: String) -> TimeZoneRules { try! TimeZoneRules.named(zone) }
private func instant(_ rfc3339: String) -> Int64 { Int64(RFC3339.instant(rfc3339)!) }
private func wall(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }
private func date(_ text: String) -> CivilDate { CivilDate(parsing: text)! }

/// An instant as RFC 3339 with the offset `zone` has then, to compare with
/// the literals below.
private func rfc3339(_ instant: Int64, in zone: String) -> String {
    let rules = rules(zone)
    let offset = Int(rules.offset(at: instant))
    let magnitude = abs(offset)
    let hours = magnitude / 3600, minutes = magnitude / 60 % 60
    return "\(rules.localTime(at: instant))\(offset < 0 ? "-" : "+")\(hours < 10 ? "0" : "")\(hours):\(minutes < 10 ? "0" : "")\(minutes)"
}

/// The error reading `text` throws, or nil when it reads.
private func refusal(_ text: String, now: String, in zone: String) -> TimeExpressionError? {
    do {
        _ = try read(text, now: now, in: zone)
        return nil
    } catch {
        return error
    }
}

@Suite struct TimeExpressionTests {
    /// now = 2026-11-30T10:00:00+08:00 in Asia/Shanghai, a Monday.
    static let now = "2026-11-30T10:00:00+08:00"
    static let shanghai = "Asia/Shanghai"
    static let newYork = "America/New_York"

    func meaning(_ text: String) throws -> TimeExpression.Meaning {
        try read(text, now: Self.now, in: Self.shanghai)
    }

    // MARK: Dates

    @Test("a date alone: ISO 8601 dates, today, tomorrow, yesterday (now = 2026-11-30T10:00:00+08:00 in Asia/Shanghai)",
          arguments: [
              ("2026-12-01", "2026-12-01"), ("2024-02-29", "2024-02-29"), ("0001-01-01", "0001-01-01"),
              ("today", "2026-11-30"), ("tomorrow", "2026-12-01"), ("yesterday", "2026-11-29"),
          ])
    func dates(text: String, expected: String) throws {
        #expect(try meaning(text) == .date(date(expected)))
    }

    @Test("a weekday name is the next such day, a week ahead when it is today's (now = Monday 2026-11-30 in Asia/Shanghai)",
          arguments: [
              ("monday", "2026-12-07"), ("tuesday", "2026-12-01"), ("wednesday", "2026-12-02"), ("thursday", "2026-12-03"),
              ("friday", "2026-12-04"), ("saturday", "2026-12-05"), ("sunday", "2026-12-06"),
          ])
    func weekdays(text: String, expected: String) throws {
        #expect(try meaning(text) == .date(date(expected)))
    }

    @Test("'today' is the date on the zone's wall clock (now = 2026-11-30T20:00:00Z: 12-01 in Shanghai, 11-30 in New York)")
    func todayDependsOnTheZone() throws {
        #expect(try read("today", now: "2026-11-30T20:00:00Z", in: Self.shanghai) == .date(date("2026-12-01")))
        #expect(try read("today", now: "2026-11-30T20:00:00Z", in: Self.newYork) == .date(date("2026-11-30")))
        #expect(try read("16:00", now: "2026-11-30T20:00:00Z", in: Self.shanghai) == .wallClock(wall("2026-12-01T16:00:00")))
        #expect(try read("16:00", now: "2026-11-30T20:00:00Z", in: Self.newYork) == .wallClock(wall("2026-11-30T16:00:00")))
    }

    // MARK: Wall-clock times

    @Test("a wall-clock time: ISO with T or one space, seconds optional, or a named day and a time (now = 2026-11-30T10:00:00+08:00)",
          arguments: [
              ("2026-12-01T08:50", "2026-12-01T08:50:00"),
              ("2026-12-01T08:50:30", "2026-12-01T08:50:30"),
              ("2026-12-01 08:50", "2026-12-01T08:50:00"),
              ("2026-12-01 08:50:30", "2026-12-01T08:50:30"),
              ("2026-12-01 8:50", "2026-12-01T08:50:00"),
              ("today 08:50", "2026-11-30T08:50:00"), // already past, but asked for by name
              ("today 17:00", "2026-11-30T17:00:00"),
              ("tomorrow 17:00", "2026-12-01T17:00:00"),
              ("yesterday 9:00", "2026-11-29T09:00:00"),
              ("friday 9:00", "2026-12-04T09:00:00"),
              ("monday 23:59:59", "2026-12-07T23:59:59"),
          ])
    func wallClockTimes(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
    }

    @Test("a time of day alone is the next time the wall clock reads it: today if still ahead, else tomorrow (now = 2026-11-30T10:00:00+08:00)",
          arguments: [
              ("08:50", "2026-12-01T08:50:00"), // before now: tomorrow
              ("8:50", "2026-12-01T08:50:00"),
              ("09:59:59", "2026-12-01T09:59:59"),
              ("10:00", "2026-12-01T10:00:00"), // exactly now is not ahead
              ("10:00:01", "2026-11-30T10:00:01"), // after now: today
              ("10:30", "2026-11-30T10:30:00"),
              ("23:59", "2026-11-30T23:59:00"),
              ("00:00", "2026-12-01T00:00:00"),
          ])
    func nextTimeOfDay(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
    }

    @Test("just before midnight, a morning time is tomorrow's and a later second is still today's (now = 2026-11-30T23:59:30+08:00)")
    func nextTimeOfDayNearMidnight() throws {
        let now = "2026-11-30T23:59:30+08:00"
        #expect(try read("00:10", now: now, in: Self.shanghai) == .wallClock(wall("2026-12-01T00:10:00")))
        #expect(try read("23:59:45", now: now, in: Self.shanghai) == .wallClock(wall("2026-11-30T23:59:45")))
        #expect(try read("23:59", now: now, in: Self.shanghai) == .wallClock(wall("2026-12-01T23:59:00")))
    }

    // MARK: Instants

    @Test("RFC 3339 with an offset or Z is an instant, read the same in any zone: 2026-12-01T00:50:00Z",
          arguments: [
              "2026-12-01T08:50:00+08:00", "2026-12-01T00:50:00Z", "2026-11-30T19:50:00-05:00",
              "2026-12-01t00:50:00z", "2026-12-01T08:50:00.75+08:00", "2026-12-01 08:50:00+08:00",
              "2026-12-01T08:50+08:00", "2026-12-01T00:50Z",
          ])
    func rfc3339Instants(text: String) throws {
        #expect(try meaning(text) == .instant(instant("2026-12-01T00:50:00Z")))
        #expect(try read(text, now: Self.now, in: Self.newYork) == .instant(instant("2026-12-01T00:50:00Z")))
    }

    @Test("now and relative times count from now (now = 2026-11-30T10:00:00+08:00 in Asia/Shanghai)",
          arguments: [
              ("now", "2026-11-30T10:00:00+08:00"),
              ("+10m", "2026-11-30T10:10:00+08:00"),
              ("+2h", "2026-11-30T12:00:00+08:00"),
              ("+1d", "2026-12-01T10:00:00+08:00"),
              ("+1h30m", "2026-11-30T11:30:00+08:00"),
              ("-15m", "2026-11-30T09:45:00+08:00"),
              ("+90s", "2026-11-30T10:01:30+08:00"),
              ("+1w", "2026-12-07T10:00:00+08:00"),
              ("+1d2h", "2026-12-01T12:00:00+08:00"),
              ("-1d", "2026-11-29T10:00:00+08:00"),
              ("+0m", "2026-11-30T10:00:00+08:00"),
              ("+366d", "2027-12-01T10:00:00+08:00"),
              ("-366d", "2025-11-29T10:00:00+08:00"),
          ])
    func relativeTimes(text: String, expected: String) throws {
        #expect(try meaning(text) == .instant(instant(expected)))
    }

    @Test("a 12-hour time, noon and midnight are the next time the wall clock reads them (now = 2026-11-30T10:00:00+08:00)",
          arguments: [
              ("9am", "2026-12-01T09:00:00"), // before now: tomorrow
              ("11am", "2026-11-30T11:00:00"),
              ("9:30pm", "2026-11-30T21:30:00"),
              ("9:30 PM", "2026-11-30T21:30:00"),
              ("9 a.m.", "2026-12-01T09:00:00"),
              ("5p.m.", "2026-11-30T17:00:00"),
              ("10:00:01am", "2026-11-30T10:00:01"),
              ("12am", "2026-12-01T00:00:00"), // midnight
              ("12:30am", "2026-12-01T00:30:00"),
              ("12pm", "2026-11-30T12:00:00"), // noon
              ("noon", "2026-11-30T12:00:00"),
              ("midnight", "2026-12-01T00:00:00"),
              ("at 5pm", "2026-11-30T17:00:00"),
              ("at 08:50", "2026-12-01T08:50:00"),
          ])
    func twelveHourTimes(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
    }

    @Test("a day and a time in words, in either order, with 'at' if one likes (now = Monday 2026-11-30T10:00:00+08:00)",
          arguments: [
              ("tomorrow 5pm", "2026-12-01T17:00:00"), ("tomorrow at 5pm", "2026-12-01T17:00:00"),
              ("5pm tomorrow", "2026-12-01T17:00:00"), ("at 5pm tomorrow", "2026-12-01T17:00:00"),
              ("friday at 9:00", "2026-12-04T09:00:00"), ("next friday 9am", "2026-12-04T09:00:00"),
              ("fri 9am", "2026-12-04T09:00:00"), ("today noon", "2026-11-30T12:00:00"),
              ("today 9am", "2026-11-30T09:00:00"), // already past, but asked for by name
              ("tomorrow midnight", "2026-12-01T00:00:00"),
              ("dec 24 9am", "2026-12-24T09:00:00"), ("9am dec 24", "2026-12-24T09:00:00"),
              ("dec 24 at noon", "2026-12-24T12:00:00"), ("24 december 2027 17:00", "2027-12-24T17:00:00"),
              ("2026-12-01 at 08:50", "2026-12-01T08:50:00"), ("2026-12-01 9am", "2026-12-01T09:00:00"),
              ("Dec 24 9AM", "2026-12-24T09:00:00"),
          ])
    func dayAndTimeInWords(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
    }

    @Test("weekday abbreviations, 'next' and 'this', and month names (now = Monday 2026-11-30 in Asia/Shanghai)",
          arguments: [
              ("mon", "2026-12-07"), ("tue", "2026-12-01"), ("tues", "2026-12-01"), ("wed", "2026-12-02"),
              ("thu", "2026-12-03"), ("thurs", "2026-12-03"), ("fri", "2026-12-04"), ("sat", "2026-12-05"), ("sun", "2026-12-06"),
              ("next monday", "2026-12-07"), ("next tuesday", "2026-12-01"), ("Next Friday", "2026-12-04"),
              ("this monday", "2026-11-30"), ("this friday", "2026-12-04"),
              ("dec 24", "2026-12-24"), ("december 24", "2026-12-24"), ("24 dec", "2026-12-24"), ("24th december", "2026-12-24"),
              ("dec 24, 2027", "2027-12-24"), ("24 dec 2025", "2025-12-24"), ("sept 1", "2027-09-01"),
              ("nov 30", "2026-11-30"), // today is not past
              ("nov 29", "2027-11-29"), // yesterday is: next year's
              ("feb 29", "2028-02-29"), ("1st jan", "2027-01-01"), ("jan 2nd", "2027-01-02"),
          ])
    func daysInWords(text: String, expected: String) throws {
        #expect(try meaning(text) == .date(date(expected)))
    }

    @Test("relative times in words: 'in' an amount, or an amount 'ago' (now = 2026-11-30T10:00:00+08:00 in Asia/Shanghai)",
          arguments: [
              ("in 10 minutes", "2026-11-30T10:10:00+08:00"), ("in 2 hours", "2026-11-30T12:00:00+08:00"),
              ("in an hour", "2026-11-30T11:00:00+08:00"), ("in a day", "2026-12-01T10:00:00+08:00"),
              ("in 1 hour 30 minutes", "2026-11-30T11:30:00+08:00"), ("in 1 hour and 30 minutes", "2026-11-30T11:30:00+08:00"),
              ("in 1h30m", "2026-11-30T11:30:00+08:00"), ("in 1h 30m", "2026-11-30T11:30:00+08:00"),
              ("in 90 secs", "2026-11-30T10:01:30+08:00"), ("in 2 weeks", "2026-12-14T10:00:00+08:00"),
              ("In 10 Mins", "2026-11-30T10:10:00+08:00"),
              ("10 minutes ago", "2026-11-30T09:50:00+08:00"), ("2 days ago", "2026-11-28T10:00:00+08:00"),
              ("+10min", "2026-11-30T10:10:00+08:00"), ("+1 hour", "2026-11-30T11:00:00+08:00"),
              ("-15 minutes", "2026-11-30T09:45:00+08:00"),
          ])
    func relativeTimesInWords(text: String, expected: String) throws {
        #expect(try meaning(text) == .instant(instant(expected)))
    }

    // MARK: Chinese words (now = Monday 2026-11-30T10:00:00+08:00 in Asia/Shanghai)

    @Test("Chinese days and times of day, with or without spaces, in digits or in Chinese numbers",
          arguments: [
              ("明天9点", "2026-12-01T09:00:00"), ("明天 9点", "2026-12-01T09:00:00"), ("明天上午9点半", "2026-12-01T09:30:00"),
              ("明天下午3点", "2026-12-01T15:00:00"), ("后天晚上8点", "2026-12-02T20:00:00"), ("下周一 8:50", "2026-12-07T08:50:00"),
              ("下周一8:50", "2026-12-07T08:50:00"), ("周五下午3:30", "2026-12-04T15:30:00"), ("星期五 17:00", "2026-12-04T17:00:00"),
              ("12月24日 9点", "2026-12-24T09:00:00"), ("2027年1月4日 上午9点15分", "2027-01-04T09:15:00"),
              ("十二月二十四日九点", "2026-12-24T09:00:00"), ("明天中午", "2026-12-01T12:00:00"), ("今天中午12点", "2026-11-30T12:00:00"),
              ("明天凌晨2点", "2026-12-01T02:00:00"), ("明天凌晨12点", "2026-12-01T00:00:00"), ("明天9点一刻", "2026-12-01T09:15:00"),
              ("明天9点三刻", "2026-12-01T09:45:00"), ("明天9点05", "2026-12-01T09:05:00"), ("明天9时", "2026-12-01T09:00:00"),
              ("9点", "2026-12-01T09:00:00"), // already past today: tomorrow's
              ("下午3点", "2026-11-30T15:00:00"), ("中午", "2026-11-30T12:00:00"), ("tomorrow 下午3点", "2026-12-01T15:00:00"),
              ("明天 at 9am", "2026-12-01T09:00:00"), ("两点", "2026-12-01T02:00:00"), ("晚上十一点", "2026-11-30T23:00:00"),
              // Chinese-calendar days, the next from today: 中秋 2027-09-15, 冬月初一 2026-12-09, 腊月廿九 2027-02-05,
              // 三月初八 2027-04-14, and 闰四月初八 only in a year that has one (2058-05-29).
              ("农历八月十五 20:00", "2027-09-15T20:00:00"), ("农历冬月初一 9点", "2026-12-09T09:00:00"),
              ("阴历腊月廿九 上午10点", "2027-02-05T10:00:00"), ("农历三月初八 9:00", "2027-04-14T09:00:00"),
              ("农历十一月初一 9:00", "2026-12-09T09:00:00"), ("农历闰四月初八 9:00", "2058-05-29T09:00:00"),
          ])
    func chineseWallClockTimes(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
    }

    @Test("Chinese days: relative days, weekdays (the next such day; 这周, 下周, 上周 by calendar week from Monday), month and day",
          arguments: [
              ("今天", "2026-11-30"), ("明天", "2026-12-01"), ("后天", "2026-12-02"), ("大后天", "2026-12-03"), ("昨天", "2026-11-29"),
              ("前天", "2026-11-28"), ("周一", "2026-12-07"), ("周二", "2026-12-01"), ("星期天", "2026-12-06"), ("礼拜六", "2026-12-05"),
              ("周日", "2026-12-06"), ("这周一", "2026-11-30"), ("本周五", "2026-12-04"), ("这周日", "2026-12-06"),
              ("下周三", "2026-12-09"), ("下下周一", "2026-12-14"), ("上周五", "2026-11-27"), ("12月24日", "2026-12-24"),
              ("12月24号", "2026-12-24"), ("11月29日", "2027-11-29"), ("11月30日", "2026-11-30"), ("2027年12月24日", "2027-12-24"),
              ("二〇二七年一月四日", "2027-01-04"), ("2月29日", "2028-02-29"), ("今年12月31日", "2026-12-31"), ("明年1月4日", "2027-01-04"),
              ("后年2月29日", "2028-02-29"), ("去年11月29日", "2025-11-29"),
          ])
    func chineseDays(text: String, expected: String) throws {
        #expect(try meaning(text) == .date(date(expected)))
    }

    @Test("Chinese times from now: an amount and a unit, then 后 (later) or 前 (earlier)",
          arguments: [
              ("10分钟后", "2026-11-30T10:10:00+08:00"), ("半小时后", "2026-11-30T10:30:00+08:00"), ("两小时后", "2026-11-30T12:00:00+08:00"),
              ("2个小时以后", "2026-11-30T12:00:00+08:00"), ("3天后", "2026-12-03T10:00:00+08:00"), ("1周后", "2026-12-07T10:00:00+08:00"),
              ("10分钟前", "2026-11-30T09:50:00+08:00"), ("三天前", "2026-11-27T10:00:00+08:00"), ("30秒后", "2026-11-30T10:00:30+08:00"),
              ("十五分钟之后", "2026-11-30T10:15:00+08:00"), ("一个星期后", "2026-12-07T10:00:00+08:00"),
          ])
    func chineseRelativeTimes(text: String, expected: String) throws {
        #expect(try meaning(text) == .instant(instant(expected)))
    }

    @Test("traditional characters, full-width digits and the ideographic space read as the simplified words and ASCII",
          arguments: [
              ("後天下午兩點", "2026-12-02T14:00:00"), ("週五晚上８點", "2026-12-04T20:00:00"), ("明天８：５０", "2026-12-01T08:50:00"),
              ("下週一\u{3000}9點半", "2026-12-07T09:30:00"), ("１２月２４日 上午10時", "2026-12-24T10:00:00"),
          ])
    func chineseTraditionalAndFullWidth(text: String, expected: String) throws {
        #expect(try meaning(text) == .wallClock(wall(expected)))
        #expect(try meaning("兩個小時後") == .instant(instant("2026-11-30T12:00:00+08:00")))
    }

    @Test("Chinese words that name no time are refused, saying why",
          arguments: [
              ("明天下午", "'下午' needs a time after it, as in '下午3点'"),
              ("晚上12点", "'晚上12点' is ambiguous; write 0点 of the next day, or 中午12点"),
              ("下午13点", "'下午13点': hour 13 is past 12"), ("25点", "hour 25 is past 23"), ("9点60分", "minute 60 is past 59"),
              ("13月1日", "there is no month 13"), ("2月30日", "2月 has no day 30"), ("2027年2月29日", "2027年2月 has no day 29"),
              ("明天下雨", "'下雨' is not a day or a time of day"), ("12月", "'12月' needs a day after it, as in '12月24日'"),
              ("2027年", "a year needs a month and a day after it, as in '2027年1月4日'"),
              ("明年", "a year needs a month and a day after it, as in '2027年1月4日'"), ("明年2月29日", "2027年2月 has no day 29"),
              ("几分钟后", "'几' is not a number of minutes"),
              ("明天明天", "expected one day and one time at most, as in 'tomorrow 08:50'"),
              ("400天后", "the most Chime accepts is 366 days"),
              ("农历", "'农历' needs a month and a day after it, as in '农历八月十五' or '农历闰四月初八'"),
              ("农历十三月一", "'农历' needs a month and a day after it, as in '农历八月十五' or '农历闰四月初八'"),
              ("农历闰腊月初一", "农历闰腊月初一 falls on no day from today to 2100"),
          ] as [(String, String)])
    func chineseRefused(text: String, reason: String) {
        #expect(refusal(text, now: Self.now, in: Self.shanghai) == TimeExpressionError(text: text, expected: .time, reason: reason))
    }

    // MARK: Daylight saving (America/New_York: 2026-03-08 02:00 → 03:00, 2026-11-01 02:00 → 01:00)

    @Test("'tomorrow' across spring forward is the next calendar date, its midnight still at -05:00 (now = 2026-03-07T12:00:00-05:00)")
    func tomorrowAcrossSpringForward() throws {
        let now = "2026-03-07T12:00:00-05:00"
        let tomorrow = try read("tomorrow", now: now, in: Self.newYork)
        #expect(tomorrow == .date(date("2026-03-08")))
        #expect(rfc3339(tomorrow.instant(in: rules(Self.newYork)), in: Self.newYork) == "2026-03-08T00:00:00-05:00")
        let noon = try read("tomorrow 12:00", now: now, in: Self.newYork)
        #expect(noon == .wallClock(wall("2026-03-08T12:00:00")))
        #expect(rfc3339(noon.instant(in: rules(Self.newYork)), in: Self.newYork) == "2026-03-08T12:00:00-04:00")
        #expect(noon.instant(in: rules(Self.newYork)) - instant(now) == 23 * 3600)
        // Late in the evening the answer is the same date.
        #expect(try read("tomorrow", now: "2026-03-07T23:30:00-05:00", in: Self.newYork) == .date(date("2026-03-08")))
    }

    @Test("+1d is the same wall-clock time on the next calendar day, +24h is 86,400 s later",
          arguments: [
              // Spring forward: the day has 23 hours.
              ("2026-03-07T12:00:00-05:00", "+1d", "2026-03-08T12:00:00-04:00", 82_800),
              ("2026-03-07T12:00:00-05:00", "+24h", "2026-03-08T13:00:00-04:00", 86_400),
              ("2026-03-08T12:00:00-04:00", "-1d", "2026-03-07T12:00:00-05:00", -82_800),
              // Fall back: the day has 25 hours.
              ("2026-10-31T12:00:00-04:00", "+1d", "2026-11-01T12:00:00-05:00", 90_000),
              ("2026-10-31T12:00:00-04:00", "+24h", "2026-11-01T11:00:00-05:00", 86_400),
              ("2026-10-31T12:00:00-04:00", "+1440m", "2026-11-01T11:00:00-05:00", 86_400),
              // In words, the same.
              ("2026-03-07T12:00:00-05:00", "in 1 day", "2026-03-08T12:00:00-04:00", 82_800),
              ("2026-03-07T12:00:00-05:00", "in 24 hours", "2026-03-08T13:00:00-04:00", 86_400),
              ("2026-11-01T12:00:00-05:00", "1 day ago", "2026-10-31T12:00:00-04:00", -90_000),
          ])
    func calendarDaysAgainstHours(now: String, text: String, expected: String, seconds: Int64) throws {
        let meaning = try read(text, now: now, in: Self.newYork)
        guard case .instant(let result) = meaning else {
            Issue.record("\(text) should be an instant, got \(meaning)")
            return
        }
        #expect(rfc3339(result, in: Self.newYork) == expected)
        #expect(result - instant(now) == seconds)
    }

    @Test("+1d landing in the spring-forward gap moves forward by the gap (now = 2026-03-07T02:30:00-05:00 → 2026-03-08T03:30:00-04:00)")
    func dayStepIntoGap() throws {
        let meaning = try read("+1d", now: "2026-03-07T02:30:00-05:00", in: Self.newYork)
        #expect(meaning == .instant(instant("2026-03-08T03:30:00-04:00")))
    }

    @Test("'today 02:30' on New York's spring-forward day is 02:30 on the wall, which resolves forward to 03:30-04:00 (now = 2026-03-08T00:30:00-05:00)",
          arguments: ["today 02:30", "02:30", "2026-03-08 02:30", "2026-03-08T02:30"])
    func wallClockInGap(text: String) throws {
        let zone = rules(Self.newYork)
        let meaning = try read(text, now: "2026-03-08T00:30:00-05:00", in: Self.newYork)
        #expect(meaning == .wallClock(wall("2026-03-08T02:30:00")))
        #expect(rfc3339(meaning.instant(in: zone), in: Self.newYork) == "2026-03-08T03:30:00-04:00")
        // The item keeps the wall time as written, so a rule repeating it keeps 02:30.
        #expect(meaning.itemTime(in: zone) == .zoned(wall("2026-03-08T02:30:00"), zone: Self.newYork))
    }

    @Test("a wall-clock time in the fall-back fold takes the first of its two instants (01:30 on 2026-11-01 → 01:30-04:00)")
    func wallClockInFold() throws {
        let meaning = try read("2026-11-01 01:30", now: Self.now, in: Self.newYork)
        #expect(rfc3339(meaning.instant(in: rules(Self.newYork)), in: Self.newYork) == "2026-11-01T01:30:00-04:00")
    }

    // MARK: Case and whitespace

    @Test("words and the T and Z letters may be in any case (now = 2026-11-30T10:00:00+08:00)",
          arguments: [
              ("Tomorrow", "tomorrow"), ("TOMORROW", "tomorrow"), ("Yesterday", "yesterday"), ("Monday", "monday"),
              ("TODAY 08:50", "today 08:50"), ("NOW", "now"), ("2026-12-01t08:50", "2026-12-01T08:50"),
              ("2026-12-01T00:50:00z", "2026-12-01T00:50:00Z"), ("+10M", "+10m"), ("+1H30M", "+1h30m"),
          ])
    func caseInsensitive(text: String, canonical: String) throws {
        #expect(try meaning(text) == meaning(canonical))
    }

    @Test("whitespace around the text is ignored, and a date and a time may be apart by any run of spaces",
          arguments: [
              ("  tomorrow", "tomorrow"), ("tomorrow\n", "tomorrow"), ("\ttoday   08:50 ", "today 08:50"),
              (" +10m ", "+10m"), ("2026-12-01  08:50", "2026-12-01 08:50"), ("\u{00A0}08:50", "08:50"),
          ])
    func whitespaceTrimmed(text: String, canonical: String) throws {
        #expect(try meaning(text) == meaning(canonical))
    }

    @Test("the expression keeps the text as given")
    func keepsText() throws {
        let expression = try TimeExpression("  Tomorrow 08:50 ", now: instant(Self.now), zone: rules(Self.shanghai))
        #expect(expression.text == "  Tomorrow 08:50 ")
        #expect(expression.meaning == .wallClock(wall("2026-12-01T08:50:00")))
    }

    // MARK: Refusals

    @Test("text that names no time is refused, naming the text, why, and the forms that work",
          arguments: [
              ("garbage", nil), ("", "it is empty"), ("   ", "it is empty"),
              ("25:00", "hour 25 is past 23"), ("24:00", "hour 24 is past 23 (write 00:00 of the next day)"),
              ("08:60", "minute 60 is past 59"), ("08:50:60", "second 60 is past 59"), ("today 25:00", "hour 25 is past 23"),
              ("2026-02-30", "February 2026 has only 28 days"), ("2026-04-31", "April 2026 has only 30 days"),
              ("2026-13-01", "there is no month 13"), ("2026-12-00", "there is no day 0"),
              ("2026-02-29T08:50", "February 2026 has only 28 days"),
              ("2026-12-01T08:50+24:00", "the offset +24:00 is out of range"),
              ("+", "a sign needs an amount after it, as in +10m"), ("-", "a sign needs an amount after it, as in -15m"),
              ("+10x", "unknown unit 'x' (the units are s, m, h, d and w)"),
              ("10", "a bare number is ambiguous; write 10:00 or 10am for a time of day, or +10m or +10h for a time from now"),
              ("13", "a bare number is ambiguous; write 13:00 for a time of day, or +13m or +13h for a time from now"),
              ("25", "a bare number is ambiguous; write +25m or +25h for a time from now"),
              ("+10", "a bare number is ambiguous; give a unit, as in 10m or 10h"),
              ("+1h30", "'30' has no unit (s, m, h, d or w)"),
              ("+99999999d", "the most Chime accepts is 366 days"), ("+367d", "the most Chime accepts is 366 days"),
              ("-8785h", "the most Chime accepts is 366 days"),
              ("+99999999999999999999999999w", "the most Chime accepts is 366 days"),
              ("+1.5h", "use whole numbers, as in 90m or 1h30m"),
              ("+30m1h", "give each unit once, largest first, as in 1h30m"),
              ("10m", "write +10m for 10m from now"),
              ("today 08:50 extra", "'extra' is not a day or a time of day"),
              ("tomorrow tomorrow", "expected one day and one time at most, as in 'tomorrow 08:50'"),
              ("9am 5pm", "expected one day and one time at most, as in 'tomorrow 08:50'"),
              ("tomorrow friday", "expected one day and one time at most, as in 'tomorrow 08:50'"),
              ("tomorrow 08:50Z", "'08:50z' is not a day or a time of day"), ("now 08:50", "'now' is not a day or a time of day"),
              ("next week", "'next' is not a day or a time of day"), ("tomorrow at", "'at' needs a time of day after it, as in 'tomorrow at 5pm'"),
              ("friday 9", "a bare number is ambiguous; write 9:00 or 9am for a time of day"),
              ("friday 17", "a bare number is ambiguous; write 17:00 for a time of day"),
              ("friday 2026", "'2026' is not a day or a time of day"),
              ("at tomorrow", "'tomorrow' after 'at' is not a time of day"),
              ("13pm", "hour 13 is past 12 on a 12-hour clock (write 13:00 or 1pm)"),
              ("30pm", "hour 30 is past 12 on a 12-hour clock (write 30:00 or a time up to 11pm)"),
              ("0am", "a 12-hour clock has no hour 0 (write 12am or 00:00)"), ("9:60pm", "minute 60 is past 59"),
              ("friday 9:30:60 am", "second 60 is past 59"),
              ("feb 30", "February has only 29 days"), ("feb 29 2027", "February 2027 has only 28 days"),
              ("dec 32", "there is no day 32 in December"), ("31 april", "April has only 30 days"),
              ("in", "'in' needs an amount after it, as in 'in 10 minutes'"),
              ("in 10", "a bare number is ambiguous; give a unit, as in 10m or 10h"),
              ("in 2 months", "'months': months and years have no fixed length (the units are s, m, h, d and w)"),
              ("in 400 days", "the most Chime accepts is 366 days"),
              ("8:5", nil), ("123:45", nil), ("2026-12-01T", nil), ("2026-1-5", nil), ("+-10m", nil), ("next", nil),
              ("in ten minutes", nil), ("9xm", nil), ("am", nil), ("2026-12-01T9am", nil),
              ("2026-12-01T08:50:00+0800", nil), ("1h30m", "write +1h30m for 1h30m from now"),
          ] as [(String, String?)])
    func refused(text: String, reason: String?) {
        let error = refusal(text, now: Self.now, in: Self.shanghai)
        #expect(error == TimeExpressionError(text: text, expected: .time, reason: reason))
        #expect(error?.description == "'\(text)' is not a date or time\(reason.map { ": " + $0 } ?? "") "
            + "(try 2026-12-01, 2026-12-01T08:50, 08:50, 9am, tomorrow, 'friday 5pm', 'dec 24', +10m, 'in 10 minutes', or RFC 3339 with an offset)")
    }

    @Test("the message for a day that does not exist, word for word, and the command failure it makes (status 65)")
    func messageWordForWord() throws {
        let error = try #require(refusal("2026-02-30", now: Self.now, in: Self.shanghai))
        #expect(error.description == "'2026-02-30' is not a date or time: February 2026 has only 28 days "
            + "(try 2026-12-01, 2026-12-01T08:50, 08:50, 9am, tomorrow, 'friday 5pm', 'dec 24', +10m, 'in 10 minutes', or RFC 3339 with an offset)")
        let failure = error.failure(in: "chime add: --start")
        #expect(failure.status == 65)
        #expect(failure.message == "chime add: --start: " + error.description)
        let garbage = try #require(refusal("garbage", now: Self.now, in: Self.shanghai))
        #expect(garbage.description == "'garbage' is not a date or time "
            + "(try 2026-12-01, 2026-12-01T08:50, 08:50, 9am, tomorrow, 'friday 5pm', 'dec 24', +10m, 'in 10 minutes', or RFC 3339 with an offset)")
    }

    // MARK: From a meaning to an instant or an item time

    @Test("a date is its local midnight; one whose midnight is in a gap moves forward (America/Santiago, 2026-09-06 00:00 → 01:00-03:00)",
          arguments: [
              ("2026-12-01", "Asia/Shanghai", "2026-12-01T00:00:00+08:00"),
              ("2026-12-01", "America/New_York", "2026-12-01T00:00:00-05:00"),
              ("2026-09-06", "America/Santiago", "2026-09-06T01:00:00-03:00"),
          ])
    func dateInstants(text: String, zone: String, expected: String) {
        #expect(rfc3339(TimeExpression.Meaning.date(date(text)).instant(in: rules(zone)), in: zone) == expected)
    }

    @Test("'tomorrow' on the eve of Santiago's midnight gap is 2026-09-06, which starts at 01:00-03:00 (now = 2026-09-05T12:00:00-04:00)")
    func tomorrowIntoMidnightGap() throws {
        let expression = try TimeExpression("tomorrow", now: instant("2026-09-05T12:00:00-04:00"), zone: rules("America/Santiago"))
        #expect(expression.meaning == .date(date("2026-09-06")))
        #expect(rfc3339(expression.instant(in: rules("America/Santiago")), in: "America/Santiago") == "2026-09-06T01:00:00-03:00")
    }

    @Test("an item time: a date stays a date, a wall-clock time is zoned or floating, an instant becomes its wall-clock reading in the zone",
          arguments: [
              (TimeExpression.Meaning.date(date("2026-12-01")), false, ItemTime.date(date("2026-12-01"))),
              (.date(date("2026-12-01")), true, .date(date("2026-12-01"))),
              (.wallClock(wall("2026-12-01T08:50:00")), false, .zoned(wall("2026-12-01T08:50:00"), zone: "America/New_York")),
              (.wallClock(wall("2026-12-01T08:50:00")), true, .floating(wall("2026-12-01T08:50:00"))),
              (.instant(instant("2026-12-01T00:50:00Z")), false, .zoned(wall("2026-11-30T19:50:00"), zone: "America/New_York")),
              (.instant(instant("2026-12-01T00:50:00Z")), true, .floating(wall("2026-11-30T19:50:00"))),
          ])
    func itemTimes(meaning: TimeExpression.Meaning, floating: Bool, expected: ItemTime) {
        #expect(meaning.itemTime(in: rules("America/New_York"), floating: floating) == expected)
    }

    @Test("the expression forwards instant(in:) and itemTime(in:) to its meaning")
    func expressionForwards() throws {
        let zone = rules(Self.shanghai)
        let expression = try TimeExpression("tomorrow 08:50", now: instant(Self.now), zone: zone)
        #expect(rfc3339(expression.instant(in: zone), in: Self.shanghai) == "2026-12-01T08:50:00+08:00")
        #expect(expression.itemTime(in: zone) == .zoned(wall("2026-12-01T08:50:00"), zone: Self.shanghai))
    }
}
