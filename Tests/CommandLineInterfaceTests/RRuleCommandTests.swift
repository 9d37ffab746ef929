import CalendarModel
import CommandLineInterface
import Foundation
import Testing

@Suite struct RRuleCommandTests {
    let workdays = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"

    @Test("prints the issue's example as RFC 3339 local times with the zone's offset")
    func printsWorkdaysInShanghai() {
        let run = CapturedRun(["rrule", workdays, "--start", "2026-12-01T08:50:00", "--tz", "Asia/Shanghai", "--count", "6"])
        #expect(run.status == 0)
        #expect(run.errors.isEmpty)
        #expect(run.output == [
            "2026-12-01T08:50:00+08:00", "2026-12-02T08:50:00+08:00", "2026-12-03T08:50:00+08:00",
            "2026-12-04T08:50:00+08:00", "2026-12-07T08:50:00+08:00", "2026-12-08T08:50:00+08:00",
        ])
    }

    @Test("prints ten occurrences unless told otherwise")
    func countDefaultsToTen() {
        let run = CapturedRun(["rrule", "FREQ=DAILY", "--start", "2026-12-01T08:50:00", "--tz", "UTC"])
        #expect(run.output.count == 10)
        #expect(run.output.last == "2026-12-10T08:50:00+00:00")
    }

    @Test("uses the machine's zone without --tz, and its offset follows daylight saving")
    func machineZoneByDefault() {
        let run = CapturedRun(["rrule", "FREQ=WEEKLY", "--start", "2026-03-22T09:00:00", "--count", "2"], machineZone: "Europe/London")
        #expect(run.output == ["2026-03-22T09:00:00+00:00", "2026-03-29T09:00:00+01:00"])
    }

    @Test("an all-day start prints dates")
    func allDayPrintsDates() {
        let run = CapturedRun(["rrule", "FREQ=MONTHLY;BYMONTHDAY=-1", "--start", "2027-01-31", "--tz", "Asia/Shanghai", "--count", "3"])
        #expect(run.status == 0)
        #expect(run.output == ["2027-01-31", "2027-02-28", "2027-03-31"])
    }

    @Test("--after lists occurrences strictly after the instant")
    func afterIsStrict() {
        // 2027-01-04T00:50:00Z is 08:50 in Shanghai: that occurrence is not after itself.
        let run = CapturedRun(["rrule", workdays, "--start", "2026-12-01T08:50:00", "--tz", "Asia/Shanghai",
                               "--after", "2027-01-04T00:50:00Z", "--count", "2"])
        #expect(run.output == ["2027-01-05T08:50:00+08:00", "2027-01-06T08:50:00+08:00"])
        let offsetForm = CapturedRun(["rrule", workdays, "--start", "2026-12-01T08:50:00", "--tz", "Asia/Shanghai",
                                      "--after", "2027-01-04T08:49:59+08:00", "--count", "1"])
        #expect(offsetForm.output == ["2027-01-04T08:50:00+08:00"])
    }

    @Test("--exdate removes occurrences and --rdate adds them, repeatable or comma-separated")
    func exceptionAndExtraDates() {
        let run = CapturedRun(["rrule", workdays, "--start", "2026-12-01T08:50:00", "--tz", "Asia/Shanghai", "--count", "4",
                               "--exdate", "2026-12-02T08:50:00,2026-12-03T08:50:00", "--rdate", "2026-12-05T10:00:00"])
        #expect(run.output == ["2026-12-01T08:50:00+08:00", "2026-12-04T08:50:00+08:00",
                               "2026-12-05T10:00:00+08:00", "2026-12-07T08:50:00+08:00"])
    }

    @Test("a malformed rule exits 65 with a message naming the part")
    func malformedRule() {
        let run = CapturedRun(["rrule", "FREQ=DAILY;BYMONTHDAY=32", "--start", "2026-12-01T08:50:00"])
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors.count == 1)
        #expect(run.errors[0].contains("BYMONTHDAY"))
        #expect(run.errors[0].contains("32"))
    }

    @Test("a date that does not exist exits 65 naming the option and the value", arguments: [
        ["--start", "2026-02-30T08:50:00"], ["--start", "tomorrow"], ["--after", "2027-01-01T00:00:00"],
        ["--exdate", "2026-12-02"], ["--rdate", "2026-13-01T00:00:00"],
    ])
    func badDates(_ option: [String]) {
        var arguments = ["rrule", "FREQ=DAILY", "--tz", "UTC"]
        if option[0] != "--start" { arguments += ["--start", "2026-12-01T08:50:00"] }
        let run = CapturedRun(arguments + option)
        #expect(run.status == 65)
        #expect(run.output.isEmpty)
        #expect(run.errors.first?.contains(option[0]) == true)
        #expect(run.errors.first?.contains(option[1]) == true)
    }

    @Test("an unknown zone exits 65 naming it")
    func unknownZone() {
        let run = CapturedRun(["rrule", "FREQ=DAILY", "--start", "2026-12-01T08:50:00", "--tz", "Mars/Olympus_Mons"])
        #expect(run.status == 65)
        #expect(run.errors.first?.contains("Mars/Olympus_Mons") == true)
    }

    @Test("without --start the rule starts today in the zone, as a date: Saturday morning in Shanghai, still Friday in London")
    func startsToday() {
        // 2026-12-04T23:30:00Z is Saturday 07:30 in Shanghai: the first workday is Monday the 7th.
        let saturday = Date(timeIntervalSince1970: 1_796_427_000)
        let run = CapturedRun(["rrule", "workdays", "--tz", "Asia/Shanghai", "--count", "3"], now: saturday)
        #expect(run.status == 0 && run.errors.isEmpty, "\(run.errors)")
        #expect(run.output == ["2026-12-07", "2026-12-08", "2026-12-09"])
        // In London it is still Friday the 4th, a workday.
        #expect(CapturedRun(["rrule", "workdays", "--tz", "Europe/London", "--count", "1"], now: saturday).output == ["2026-12-04"])
    }

    @Test("command-line mistakes exit 64", arguments: [
        ["rrule"], ["rrule", "FREQ=DAILY", "--start"],
        ["rrule", "FREQ=DAILY", "--start", "2026-12-01", "--bogus"],
        ["rrule", "FREQ=DAILY", "BYDAY=MO", "--start", "2026-12-01"], ["frobnicate"], [],
    ])
    func usageErrors(_ arguments: [String]) {
        let run = CapturedRun(arguments)
        #expect(run.status == 64)
        #expect(run.output.isEmpty)
        #expect(!run.errors.isEmpty)
    }

    @Test("an all-day start refuses an hourly rule with exit 65")
    func allDayRefusesTimeOfDay() {
        let run = CapturedRun(["rrule", "FREQ=HOURLY", "--start", "2026-12-01"])
        #expect(run.status == 65)
        #expect(run.errors.first?.contains("FREQ=HOURLY") == true)
    }

    @Test("a rule that can never produce prints only its start, at once")
    func impossibleRule() {
        let run = CapturedRun(["rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "--start", "2026-01-30T09:00:00", "--tz", "UTC"])
        #expect(run.status == 0)
        #expect(run.output == ["2026-01-30T09:00:00+00:00"])
    }

    @Test("--help describes the command and its exit statuses")
    func help() {
        let run = CapturedRun(["rrule", "--help"])
        #expect(run.status == 0)
        #expect(run.output.joined().contains("--exdate"))
        #expect(run.output.joined().contains("65"))
    }
}
