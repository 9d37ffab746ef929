import CalendarModel
@testable import CommandLineInterface
import Testing

/// `every …` phrases for `--repeat` and `chime rrule`.
@Suite struct RecurrencePhraseTests {
    @Test("a phrase makes the RFC 5545 rule a person means by it", arguments: [
        ("every day", "FREQ=DAILY"), ("every 2 days", "FREQ=DAILY;INTERVAL=2"), ("every other day", "FREQ=DAILY;INTERVAL=2"),
        ("every week", "FREQ=WEEKLY"), ("every other week", "FREQ=WEEKLY;INTERVAL=2"), ("every month", "FREQ=MONTHLY"),
        ("every 3 months", "FREQ=MONTHLY;INTERVAL=3"), ("every year", "FREQ=YEARLY"), ("every 2 years", "FREQ=YEARLY;INTERVAL=2"),
        ("every hour", "FREQ=HOURLY"), ("every 2 hours", "FREQ=HOURLY;INTERVAL=2"), ("every 30 minutes", "FREQ=MINUTELY;INTERVAL=30"),
        ("every monday", "FREQ=WEEKLY;BYDAY=MO"), ("every mondays", "FREQ=WEEKLY;BYDAY=MO"), ("every tues", "FREQ=WEEKLY;BYDAY=TU"),
        ("every mon, wed and fri", "FREQ=WEEKLY;BYDAY=MO,WE,FR"), ("every mon,wed,fri", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
        ("every friday and monday", "FREQ=WEEKLY;BYDAY=FR,MO"), ("every mon mon", "FREQ=WEEKLY;BYDAY=MO"),
        ("every other friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"), ("every 3 thursdays", "FREQ=WEEKLY;INTERVAL=3;BYDAY=TH"),
        ("every week on monday", "FREQ=WEEKLY;BYDAY=MO"), ("every 2 weeks on mon and thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
        ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("every workday", "FREQ=DAILY;X-WORKDAY=SKIP"),
        ("every weekend", "FREQ=WEEKLY;BYDAY=SA,SU"),
        ("every first monday", "FREQ=MONTHLY;BYDAY=1MO"), ("every last friday", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("every 2nd tue", "FREQ=MONTHLY;BYDAY=2TU"), ("every fifth sunday", "FREQ=MONTHLY;BYDAY=5SU"),
        ("every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15"), ("every month on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("every month on 3", "FREQ=MONTHLY;BYMONTHDAY=3"), ("every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("every month on the last friday", "FREQ=MONTHLY;BYDAY=-1FR"), ("every 2 months on the first monday", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO"),
        ("every day 10 times", "FREQ=DAILY;COUNT=10"), ("every monday for 4 times", "FREQ=WEEKLY;COUNT=4;BYDAY=MO"),
        ("every workday 1 time", "FREQ=DAILY;COUNT=1;X-WORKDAY=SKIP"),
        ("every dec 24", "FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12"), ("every 24th december", "FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12"),
        ("every year on feb 29", "FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2"), ("every 2 years on sept 1st", "FREQ=YEARLY;INTERVAL=2;BYMONTHDAY=1;BYMONTH=9"),
        ("every 4th thursday of november", "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11"),
        ("every year on the last monday of may", "FREQ=YEARLY;BYDAY=-1MO;BYMONTH=5"), ("every dec 25 5 times", "FREQ=YEARLY;COUNT=5;BYMONTHDAY=25;BYMONTH=12"),
        ("Every Other Friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"), ("  every   day  ", "FREQ=DAILY"),
    ])
    func phrases(phrase: String, rule: String) throws {
        #expect(try RuleShorthand.expand(phrase).rule == rule)
        #expect(try RuleShorthand.expand(phrase).phrase == RecurrencePhrase.Reading(rule: rule))
        // What it makes is a rule Chime reads, and prints back the same.
        #expect(try RecurrencePhrase.rule(phrase) == rule)
        #expect(try RecurrenceRule(rfc5545: rule).rfc5545 == rule)
    }

    @Test("text that is not a phrase is left to the words and to RFC 5545", arguments: [
        ("FREQ=DAILY", "FREQ=DAILY"), ("RRULE:FREQ=WEEKLY", "FREQ=WEEKLY"), ("workdays", "FREQ=DAILY;X-WORKDAY=SKIP"),
        ("everyday", "everyday"),
    ])
    func notAPhrase(text: String, expanded: String) throws {
        #expect(try RuleShorthand.expand(text).rule == expanded)
        #expect(try RuleShorthand.expand(text).phrase == nil)
        #expect(try RuleShorthand.expand(text).inWords == (text == "workdays"))
    }

    @Test("a phrase that says no rule is refused, saying why", arguments: [
        ("every", "say what repeats after 'every', as in 'every day' or 'every monday'"),
        ("every blursday", "'blursday' is not a unit (day, week, month, year, hour, minute) or a weekday"),
        ("every dya", "'dya' is not a unit (day, week, month, year, hour, minute) or a weekday; did you mean 'day'?"),
        ("every 0 days", "the interval must be a whole number from 1 to 18 digits, not 0"),
        ("every 9999999999999999999 days", "the interval must be a whole number from 1 to 18 digits, not 9999999999999999999"),
        ("every day 9999999999999999999 times", "'times' needs a count before it, as in 'every day 10 times'"),
        ("every 2", "say what repeats every 2, as in 'every 2 days'"),
        ("every day on monday", "'on' goes with weeks (on monday), months (on the 15th) and years (on dec 24), not day"),
        ("every feb 30", "February has no day 30 (it has 29)"), ("every year on apr 31st", "April has no day 31 (it has 30)"),
        ("every year on monday", "'on' after 'year' needs a date or a weekday of a month, as in 'every year on dec 24' or 'every year on the 4th thursday of november'"),
        ("every year on the 4th thursday in november", "'on' after 'year' needs a date or a weekday of a month, as in 'every year on dec 24' or 'every year on the 4th thursday of november'"),
        ("every week monday", "'monday' after 'week': expected 'on' or the end, as in 'every week on monday'"),
        ("every week on", "'on' needs weekdays after it, as in 'every week on monday'"),
        ("every week on the 15th", "'15th' is not a weekday (monday … sunday, or mon … sun)"),
        ("every month on the 32nd", "'32nd' is not a day of the month (1st … 31st, or last day)"),
        ("every month on", "'on' needs days after it, as in 'every month on the 15th'"),
        ("every monday and blursday", "'blursday' is not a weekday (monday … sunday, or mon … sun)"),
        ("every last", "expected one weekday after the position, as in 'every first monday' or 'every last friday'"),
        ("every first monday friday", "expected one weekday after the position, as in 'every first monday' or 'every last friday'"),
        ("every weekday please", "'please': nothing may follow here but an ending such as '10 times'"),
        ("every day times", "'times' needs a count before it, as in 'every day 10 times'"),
        ("every day at 9am", "the time of day comes from the start or due time, not the rule: --due 'mon 9am' --repeat 'every monday'"),
        ("every monday at 9am", "the time of day comes from the start or due time, not the rule: --due 'mon 9am' --repeat 'every monday'"),
        ("every last friday at 5pm", "the time of day comes from the start or due time, not the rule: --due 'mon 9am' --repeat 'every monday'"),
        ("every weekday at 8:50", "the time of day comes from the start or due time, not the rule: --due 'mon 9am' --repeat 'every monday'"),
        ("every day 0 times", "'times' needs a count before it, as in 'every day 10 times'"),
    ])
    func refused(phrase: String, reason: String) {
        #expect(throws: RecurrencePhrase.Refusal.self) { try RuleShorthand.expand(phrase).rule }
        do {
            _ = try RuleShorthand.expand(phrase)
        } catch {
            #expect(error.description == reason)
        }
    }

    @Test("a Chinese phrase makes the rule its English one makes", arguments: [
        ("每天", "FREQ=DAILY"), ("每日", "FREQ=DAILY"), ("每2天", "FREQ=DAILY;INTERVAL=2"), ("每两天", "FREQ=DAILY;INTERVAL=2"),
        ("每周", "FREQ=WEEKLY"), ("每个星期", "FREQ=WEEKLY"), ("每两周", "FREQ=WEEKLY;INTERVAL=2"), ("每月", "FREQ=MONTHLY"),
        ("每个月", "FREQ=MONTHLY"), ("每三个月", "FREQ=MONTHLY;INTERVAL=3"), ("每年", "FREQ=YEARLY"), ("每小时", "FREQ=HOURLY"),
        ("每30分钟", "FREQ=MINUTELY;INTERVAL=30"), ("每个工作日", "FREQ=DAILY;X-WORKDAY=SKIP"), ("工作日", "FREQ=DAILY;X-WORKDAY=SKIP"),
        ("每工作日", "FREQ=DAILY;X-WORKDAY=SKIP"), ("每个周末", "FREQ=WEEKLY;BYDAY=SA,SU"), ("每周一", "FREQ=WEEKLY;BYDAY=MO"),
        ("每星期五", "FREQ=WEEKLY;BYDAY=FR"), ("每礼拜天", "FREQ=WEEKLY;BYDAY=SU"), ("每周一三五", "FREQ=WEEKLY;BYDAY=MO,WE,FR"),
        ("每周一、三、五", "FREQ=WEEKLY;BYDAY=MO,WE,FR"), ("每周一和周四", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("每周一到周五", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("每周一至五", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("每周二到周四", "FREQ=WEEKLY;BYDAY=TU,WE,TH"), ("每两周的周五", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("每2周周一和周四", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"), ("每月15号", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("每月1号和15号", "FREQ=MONTHLY;BYMONTHDAY=1,15"), ("每个月的1日、15日", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("每月最后一天", "FREQ=MONTHLY;BYMONTHDAY=-1"), ("每月第一个周一", "FREQ=MONTHLY;BYDAY=1MO"),
        ("每月最后一个周五", "FREQ=MONTHLY;BYDAY=-1FR"), ("每月第2个星期二", "FREQ=MONTHLY;BYDAY=2TU"),
        ("每個工作日", "FREQ=DAILY;X-WORKDAY=SKIP"), ("每週一三五", "FREQ=WEEKLY;BYDAY=MO,WE,FR"), ("每月最後一個週五", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("每月１號和１５號", "FREQ=MONTHLY;BYMONTHDAY=1,15"), ("每天共10次", "FREQ=DAILY;COUNT=10"), ("每周一 4次", "FREQ=WEEKLY;COUNT=4;BYDAY=MO"), ("每个工作日共十次", "FREQ=DAILY;COUNT=10;X-WORKDAY=SKIP"),
        ("每年12月24日", "FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12"), ("每年的十月一号", "FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=10"),
        ("每年11月第四个周四", "FREQ=YEARLY;BYDAY=4TH;BYMONTH=11"), ("每年5月最后一个星期一", "FREQ=YEARLY;BYDAY=-1MO;BYMONTH=5"),
        ("每两年2月29日", "FREQ=YEARLY;INTERVAL=2;BYMONTHDAY=29;BYMONTH=2"),
        ("每隔一天", "FREQ=DAILY;INTERVAL=2"), ("每隔一周的周五", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"), ("每隔1个月", "FREQ=MONTHLY;INTERVAL=2"),
        // The Chinese calendar (RFC 7529): a day that may be missing is kept on the day before.
        ("每年农历", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"), ("农历每年", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"),
        ("每月农历", "RSCALE=CHINESE;FREQ=MONTHLY;SKIP=BACKWARD"),
        ("每年农历八月十五", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=15;BYMONTH=8"), ("每年农历正月初一", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=1;BYMONTH=1"),
        ("每年农历闰四月初八", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=4L;SKIP=BACKWARD"),
        ("每年农历腊月三十", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=12;SKIP=BACKWARD"),
        ("每年阴历冬月廿三", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=23;BYMONTH=11"), ("每年除夕", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=12"),
        ("每月农历初一和十五", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1,15"), ("每逢农历初一十五", "RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("每年农历八月十五共3次", "RSCALE=CHINESE;FREQ=YEARLY;COUNT=3;BYMONTHDAY=15;BYMONTH=8"),
        ("every lunar year", "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD"), ("every lunar year on 8/15", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=15;BYMONTH=8"),
        ("every lunar year on leap 4/8", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=4L;SKIP=BACKWARD"),
        ("every lunar year on the last day", "RSCALE=CHINESE;FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=12"),
        ("every lunar month on the 1st and 15th 5 times", "RSCALE=CHINESE;FREQ=MONTHLY;COUNT=5;BYMONTHDAY=1,15"),
    ])
    func chinesePhrases(phrase: String, rule: String) throws {
        #expect(try RuleShorthand.expand(phrase).rule == rule)
        #expect(try RecurrencePhrase.rule(phrase) == rule)
    }

    @Test("a Chinese 'until' is kept for the caller, which reads it as any WHEN", arguments: [
        ("每天直到12月31日", "FREQ=DAILY", "12月31日"), ("每周一到12月31日为止", "FREQ=WEEKLY;BYDAY=MO", "12月31日"),
        ("every day until 12月31日", "FREQ=DAILY", "12月31日"),
        // The first 到 runs the days, the second ends the series.
        ("每周一到周五到12月31日为止", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "12月31日"),
        ("每周一至周五直到2027年1月1日", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2027年1月1日"),
    ])
    func chineseUntil(phrase: String, rule: String, until: String) throws {
        #expect(try RecurrencePhrase.read(phrase) == RecurrencePhrase.Reading(rule: rule, until: until))
    }

    @Test("a Chinese phrase that says no rule is refused, saying why", arguments: [
        ("每", "say what repeats after '每', as in '每天' or '每周一'"),
        ("每周八", "'八' is not a weekday (一 … 日)"), ("每季度", "'季度' is not a unit (天, 周, 月, 年, 小时, 分钟), a weekday (周一) or 工作日"),
        ("每周五到周一", "'fri' to 'mon' runs backwards; write 周一到周五"),
        ("每月32号", "'32' is not a day of the month (1st … 31st, or last day)"),
        ("每月15", "'15' needs 号 or 日 after it, as in '每月15号'"),
        ("每月第六个周一", "'第六个周一': 第 needs 1 to 5 after it, as in '第一个周一'"),
        ("每天几次", "'次' needs a count before it, as in '每天共10次'"),
        ("每天下午", "'下午' after '天' is not understood"),
        ("每0天", "the interval must be a whole number from 1 to 18 digits, not 0"),
        ("每年13月1日", "'13月1日' after '年' is not a month, as in '每年12月24日' or '每年11月第四个周四'"),
        ("每年12月", "'12月' needs a day after the month, as in '每年12月24日'"),
        ("每年2月30日", "February has no day 30 (it has 29)"),
        ("每隔两天", "'每隔两天' is read two ways (every second or every third); write the interval, as in 每2天 or 每3天"),
        ("每隔天", "'每隔天' is read two ways (every second or every third); write the interval, as in 每2天 or 每3天"),
        ("每年农历十三月初一", "'十三月初一' is not a month and day of the Chinese calendar, as in '每年农历八月十五'"),
        ("每月农历初一和下午", "'下午' is not a day of a Chinese month (初一, 十五, 廿九, 三十)"),
        ("every lunar week", "'lunar' goes with year or month, as in 'every lunar year', 'every lunar year on 8/15' or 'every lunar month on the 1st and 15th'"),
        ("every lunar year on 13/1", "a lunar date is month/day, as in 'every lunar year on 8/15' or 'on leap 4/8' (months 1–12, days 1–30)"),
        ("every lunar month on the last friday", "a lunar month's days are numbered (the 1st, the 15th), not weekdays"),
    ])
    func chineseRefused(phrase: String, reason: String) {
        #expect(throws: RecurrencePhrase.Refusal(reason)) { try RuleShorthand.expand(phrase) }
    }

    @Test("--repeat takes a Chinese phrase: the clock-in reminder every workday at 08:50 (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func chineseThroughTheCommandLine() throws {
        let scratch = Scratch()
        let clockIn = scratch.add("reminder", "打卡", "--due", "明天8:50", "--repeat", "每个工作日")
        #expect(try scratch.ok("show", clockIn, "--json").json()["recurrenceRule"] as? String == "FREQ=DAILY;X-WORKDAY=SKIP")
        let gym = scratch.add("reminder", "健身", "--due", "18:00", "--repeat", "每周一三五直到12月31日")
        #expect(try scratch.ok("show", gym, "--json").json()["recurrenceRule"] as? String == "FREQ=WEEKLY;UNTIL=20261231T155959Z;BYDAY=MO,WE,FR")
        let run = scratch.run("rrule", "每月最后一个周五", "--start", "2026-12-25T17:00:00", "--tz", "Asia/Shanghai", "--count", "2")
        #expect(run.output == ["2026-12-25T17:00:00+08:00", "2027-01-29T17:00:00+08:00"])
    }

    @Test("a lunar birthday through chime: due 农历三月初八 09:00 each lunar year is 2027-04-14, then 2028-04-02, and show names its Chinese date (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func lunarBirthdayThroughTheCommandLine() throws {
        let scratch = Scratch()
        let birthday = scratch.add("reminder", "妈妈生日", "--due", "农历三月初八 9:00", "--repeat", "每年农历")
        let shown = try scratch.ok("show", birthday, "--json").json()
        #expect(shown["recurrenceRule"] as? String == "RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD")
        #expect(shown["due"] as? String == "2027-04-14T09:00:00+08:00")
        #expect(scratch.run("show", birthday).output.contains("Repeats:  RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD (from 农历三月初八)"))
        let run = scratch.run("rrule", "每年农历", "--start", "2027-04-14T09:00:00", "--tz", "Asia/Shanghai", "--count", "3")
        #expect(run.output == ["2027-04-14T09:00:00+08:00", "2028-04-02T09:00:00+08:00", "2029-04-21T09:00:00+08:00"])
        // chime next names the Chinese date as the reason for the day, in text and JSON.
        #expect(scratch.ok("next", "--count", "2").output == [
            "Wed 04-14 09:00        妈妈生日  [\(birthday)]  at the time — 农历三月初八",
            "Sun 04-02 09:00        妈妈生日  [\(birthday)]  at the time — 农历三月初八",
        ])
        let firings = try #require(try scratch.ok("next", "--count", "1", "--json").json()["firings"] as? [[String: Any]])
        #expect(firings.map { $0["why"] as? String } == ["农历三月初八"])
    }

    @Test("--repeat takes a phrase: the item keeps the rule it makes, and chime rrule expands it")
    func throughTheCommandLine() throws {
        let scratch = Scratch()  // Tuesday 2026-12-01, 08:00 in Shanghai
        let gym = scratch.add("reminder", "Gym", "--due", "mon 18:00", "--repeat", "every mon, wed and fri")
        #expect(try scratch.ok("show", gym, "--json").json()["recurrenceRule"] as? String == "FREQ=WEEKLY;BYDAY=MO,WE,FR")
        // Monday 2026-12-07, Wednesday 12-09, Friday 12-11, then Monday 12-14.
        let run = scratch.run("rrule", "every mon, wed and fri", "--start", "2026-12-07T18:00:00", "--tz", "Asia/Shanghai", "--count", "4")
        #expect(run.status == 0)
        #expect(run.output == ["2026-12-07T18:00:00+08:00", "2026-12-09T18:00:00+08:00", "2026-12-11T18:00:00+08:00",
                               "2026-12-14T18:00:00+08:00"])
        // The last Friday of December 2026 and January 2027: 2026-12-25, 2027-01-29.
        let last = scratch.run("rrule", "every last friday", "--start", "2026-12-25T17:00:00", "--tz", "Asia/Shanghai", "--count", "2")
        #expect(last.output == ["2026-12-25T17:00:00+08:00", "2027-01-29T17:00:00+08:00"])

        try scratch.refuses(["add", "event", "X", "--start", "08:50", "--repeat", "every blursday"], status: 65, mentioning: [
            "chime add event: --repeat 'every blursday': 'blursday' is not a unit (day, week, month, year, hour, minute) or a weekday",
        ])
        let help = scratch.run("rrule", "--help").text
        #expect(help.contains("every last friday") && help.contains("FREQ=MONTHLY;BYDAY=-1FR"))
    }

    @Test("an 'until' ending is kept apart for the caller to read against the start; with a count it is refused", arguments: [
        ("every day until dec 31", "FREQ=DAILY", "dec 31"), ("every mon and fri until 2027-06-30 17:00", "FREQ=WEEKLY;BYDAY=MO,FR", "2027-06-30 17:00"),
        ("Every Other Week Until Dec 24, 2027", "FREQ=WEEKLY;INTERVAL=2", "dec 24 2027"),
    ])
    func untilEnding(phrase: String, rule: String, until: String) throws {
        #expect(try RecurrencePhrase.read(phrase) == RecurrencePhrase.Reading(rule: rule, until: until))
        #expect(throws: RecurrencePhrase.Refusal("'until' needs the series' start to be read against")) { try RecurrencePhrase.rule(phrase) }
        #expect(throws: RecurrencePhrase.Refusal("'until' needs a day after it, as in 'every day until dec 31'")) {
            try RecurrencePhrase.read("every day until")
        }
        #expect(throws: RecurrencePhrase.Refusal("give '… times' or 'until …', not both")) {
            try RecurrencePhrase.read("every day 10 times until friday")
        }
    }

    @Test("'until' through the command line: a day means through its end, in the form the start wants (UTC, floating, a date); before the start is refused (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func untilThroughTheCommandLine() throws {
        let scratch = Scratch()
        let rule = { (id: String) throws -> String? in try scratch.ok("show", id, "--json").json()["recurrenceRule"] as? String }
        // Friday 2026-12-04 ends at 23:59:59+08:00, 15:59:59Z.
        let zoned = scratch.add("event", "Stand-up", "--start", "tomorrow 9am", "--repeat", "every day until friday")
        #expect(try rule(zoned) == "FREQ=DAILY;UNTIL=20261204T155959Z")
        let floating = scratch.add("event", "Stretch", "--floating", "--start", "tomorrow 9am", "--repeat", "every day until friday")
        #expect(try rule(floating) == "FREQ=DAILY;UNTIL=20261204T235959")
        let allDay = scratch.add("event", "Fair", "--start", "2026-12-02", "--repeat", "every day until friday")
        #expect(try rule(allDay) == "FREQ=DAILY;UNTIL=20261204")
        let timed = scratch.add("reminder", "Water", "--due", "10:00", "--repeat", "every 2 hours until today 16:00")
        #expect(try rule(timed) == "FREQ=HOURLY;UNTIL=20261201T080000Z;INTERVAL=2")
        // 10:00, 12:00, 14:00, 16:00 and no more.
        #expect(scratch.ok("next", "--count", "10").output.filter { $0.contains("Water") }.count == 4)
        let edited = scratch.add("reminder", "Plants", "--due", "2026-12-02T18:00")
        scratch.ok("edit", edited, "--repeat", "every day until 2026-12-05")
        #expect(try rule(edited) == "FREQ=DAILY;UNTIL=20261205T155959Z")

        try scratch.refuses(["add", "event", "Late", "--start", "2026-12-05T09:00", "--repeat", "every day until friday"], status: 65, mentioning: [
            "chime add event: --repeat 'every day until friday': until 2026-12-04T23:59:59+08:00 is before the start, 2026-12-05T09:00:00+08:00",
        ])
        try scratch.refuses(["add", "event", "X", "--start", "09:00", "--repeat", "every day until someday"], status: 65, mentioning: [
            "chime add event: --repeat 'every day until someday': until: 'someday' is not a date or time",
        ])

        // chime rrule reads it against --start: through the end of 2026-12-03.
        let run = scratch.run("rrule", "every day until 2026-12-03", "--start", "2026-12-01T08:50:00", "--tz", "Asia/Shanghai")
        #expect(run.status == 0)
        #expect(run.output == ["2026-12-01T08:50:00+08:00", "2026-12-02T08:50:00+08:00", "2026-12-03T08:50:00+08:00"])
        let dates = scratch.run("rrule", "every day until dec 3", "--start", "2026-12-01", "--tz", "Asia/Shanghai")
        #expect(dates.output == ["2026-12-01", "2026-12-02", "2026-12-03"])
    }

    @Test("the first day on or after a date that a phrase's rule falls on", arguments: [
        ("FREQ=WEEKLY;BYDAY=MO", "2026-12-09", "2026-12-14"), // Wednesday → Monday
        ("FREQ=WEEKLY;BYDAY=MO", "2026-12-14", "2026-12-14"), // already one
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-12-05", "2026-12-07"), // Saturday → Monday
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "2026-12-01", "2026-12-04"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-12-01", "2026-12-25"), // the last Friday of December 2026
        ("FREQ=MONTHLY;BYDAY=-1FR", "2026-12-26", "2027-01-29"),
        ("FREQ=MONTHLY;BYDAY=1MO", "2026-12-08", "2027-01-04"),
        ("FREQ=MONTHLY;BYDAY=5SU", "2026-12-01", "2027-01-31"), // December 2026 has four Sundays
        ("FREQ=MONTHLY;BYMONTHDAY=31", "2027-02-01", "2027-03-31"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "2027-02-10", "2027-02-28"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-12-02", "2026-12-15"),
        ("FREQ=YEARLY;BYMONTHDAY=24;BYMONTH=12", "2026-12-25", "2027-12-24"),
        ("FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2", "2097-03-01", "2104-02-29"), // 2100 is no leap year
        ("FREQ=YEARLY;BYDAY=4TH;BYMONTH=11", "2026-12-01", "2027-11-25"), // Thanksgiving 2027
        ("FREQ=YEARLY;BYDAY=-1MO;BYMONTH=5", "2027-01-01", "2027-05-31"),
        ("FREQ=WEEKLY", "2026-12-09", "2026-12-09"), // days that follow the start
        ("FREQ=DAILY;X-WORKDAY=SKIP", "2026-12-05", "2026-12-05"), // left to the workday calendar
        // Chinese dates: 中秋 2027-09-15; 初一 of 冬月 2026-12-09; 四月初八 2027-05-13 standing for a
        // 闰四月 the year has not; 腊月廿九 2027-02-05 for a 三十 the short month has not.
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=8;BYMONTHDAY=15", "2026-12-07", "2027-09-15"),
        ("RSCALE=CHINESE;FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-12-07", "2026-12-09"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=4L;BYMONTHDAY=8;SKIP=BACKWARD", "2026-12-07", "2027-05-13"),
        ("RSCALE=CHINESE;FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=30;SKIP=BACKWARD", "2026-12-07", "2027-02-05"),
        ("RSCALE=CHINESE;FREQ=YEARLY;SKIP=BACKWARD", "2026-12-07", "2026-12-07"), // days that follow the start
    ])
    func firstDay(rule: String, from: String, expected: String) throws {
        let day = RuleShorthand.firstDay(of: try RecurrenceRule(rfc5545: rule), onOrAfter: try #require(CivilDate(parsing: from)))
        #expect(day == CivilDate(parsing: expected))
    }

    @Test("a series given in words starts on their first day on or after the one given; RRULE text keeps its start (now = Tuesday 2026-12-01T08:00:00+08:00)")
    func phraseMovesTheStart() throws {
        let scratch = Scratch()
        let json = { (id: String) throws -> [String: Any] in try scratch.ok("show", id, "--json").json() }
        let gym = scratch.add("reminder", "Gym", "--due", "18:00", "--repeat", "every mon and thu")
        #expect(try json(gym)["due"] as? String == "2026-12-03T18:00:00+08:00") // Thursday
        let review = scratch.add("event", "Review", "--start", "tomorrow 9am", "--duration", "1h", "--repeat", "every friday")
        #expect(try json(review)["start"] as? String == "2026-12-04T09:00:00+08:00")
        #expect(try json(review)["end"] as? String == "2026-12-04T10:00:00+08:00")
        let rent = scratch.add("reminder", "Rent", "--due", "2026-12-02", "--repeat", "every month on the 1st")
        #expect(try json(rent)["due"] as? String == "2027-01-01")
        // A word says its days too: weekdays from Saturday 2026-12-05 starts on Monday 12-07.
        let memo = scratch.add("reminder", "Memo", "--due", "2026-12-05T09:00", "--repeat", "weekdays")
        #expect(try json(memo)["due"] as? String == "2026-12-07T09:00:00+08:00")
        // RRULE text: the start is the first occurrence, as RFC 5545 says.
        let rfc = scratch.add("event", "RFC", "--start", "tomorrow 9am", "--repeat", "FREQ=WEEKLY;BYDAY=FR")
        #expect(try json(rfc)["start"] as? String == "2026-12-02T09:00:00+08:00")
        // An edit to a phrase moves the start the same way.
        scratch.ok("edit", rfc, "--repeat", "every last friday")
        #expect(try json(rfc)["start"] as? String == "2026-12-25T09:00:00+08:00")
        #expect(try json(rfc)["recurrenceRule"] as? String == "FREQ=MONTHLY;BYDAY=-1FR")
        scratch.ok("edit", gym, "--repeat", "every sat")
        #expect(try json(gym)["due"] as? String == "2026-12-05T18:00:00+08:00")
        // A date of the year: a birthday given from today rings first on the day.
        let birthday = scratch.add("reminder", "妈妈生日", "--due", "9am", "--repeat", "每年3月8日")
        #expect(try json(birthday)["due"] as? String == "2027-03-08T09:00:00+08:00")
        #expect(try json(birthday)["recurrenceRule"] as? String == "FREQ=YEARLY;BYMONTHDAY=8;BYMONTH=3")
    }
}
