import CalendarModel
import HolidayCalendars
import Testing

/// Every way a file is refused, with the whole message: it must name the
/// file, the entry (line, or date / days[i] for JSON) and the reason.
@Suite("Malformed holiday files are refused whole, naming file, entry and reason")
struct MalformedFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let kind: HolidayDataError.Kind
        let message: String
        var testDescription: String { message }
    }

    // MARK: Compact format

    /// Line 1 is `region cn` unless the case leaves it out.
    static let compactCases: [Case] = [
        Case(text: compact("year 2021\n元旦 off 2020-11-30\n"), kind: .outOfRange,
             message: "bad.txt:3: 2020-11-30 is outside the notice year 2021, which gives dates from 2020-12-01 to 2021-12-31"),
        Case(text: compact("year 2021\n元旦 off 2022-01-01\n"), kind: .outOfRange,
             message: "bad.txt:3: 2022-01-01 is outside the notice year 2021, which gives dates from 2020-12-01 to 2021-12-31"),
        Case(text: compact("year 2021\n国庆节 off 10-01..10-07 work 10-08\n"), kind: .makeupOnWeekday,
             message: "bad.txt:3: a makeup workday on Friday 2021-10-08, which is a workday anyway"),
        Case(text: compact("year 2021\n元旦 off 01-01..01-03\n春节 off 01-03\n"), kind: .duplicateDate,
             message: "bad.txt:4: 2021-01-03 appears twice (first at line 3)"),
        Case(text: compact("year 2021\n元旦 off 01-01..01-03 01-02\n"), kind: .duplicateDate,
             message: "bad.txt:3: 2021-01-02 appears twice (first at line 3)"),
        Case(text: compact("year 2021\nnotice one\n国庆节 off 10-02\nnotice two\n国庆节 off 10-01..10-03 work 10-02\n"), kind: .duplicateDate,
             message: "bad.txt:6: 2021-10-02 appears twice (first at line 6)"),
        Case(text: compact("year 2021\n元旦 of 01-01\n"), kind: .unknownKeyword,
             message: "bad.txt:3: 'of' is not a keyword: expected 'off' or 'work'"),
        Case(text: compact("year 2021\n元旦 off 01-01 holiday 01-02\n"), kind: .unknownKeyword,
             message: "bad.txt:3: 'holiday' is neither a date nor a keyword: expected a date, 'off' or 'work'"),
        Case(text: compact("year 2021\n春节 off 02-30\n"), kind: .invalidDate,
             message: "bad.txt:3: '02-30' is not a date: February 2021 has 28 days"),
        Case(text: compact("year 2021\n春节 off 13-01\n"), kind: .invalidDate,
             message: "bad.txt:3: '13-01' is not a date: there is no month 13"),
        Case(text: compact("year 2021\n元旦 off 1-1\n"), kind: .invalidDate,
             message: "bad.txt:3: '1-1' is not a date: write MM-DD for a day of 2021, or YYYY-MM-DD"),
        Case(text: compact("year 2021\n元旦 off 01-01..1-3\n"), kind: .invalidDate,
             message: "bad.txt:3: '1-3' in '01-01..1-3' is not a date: write MM-DD for a day of 2021, or YYYY-MM-DD"),
        Case(text: compact("year 2021\n元旦 off 01-01..\n"), kind: .invalidDate,
             message: "bad.txt:3: '' in '01-01..' is not a date: write MM-DD for a day of 2021, or YYYY-MM-DD"),
        Case(text: compact("year 2021\n元旦 off 01-03..01-01\n"), kind: .invertedRange,
             message: "bad.txt:3: the range '01-03..01-01' ends before it starts"),
        Case(text: compact("year 2021\n元旦 off 2020-12-01..2022-02-01\n"), kind: .outOfRange,
             message: "bad.txt:3: the range '2020-12-01..2022-02-01' is 428 days long, more than a notice year holds"),
        Case(text: compact("year 2021\noff 01-01\n"), kind: .missingName,
             message: "bad.txt:3: the line has no holiday name before 'off' (write 'NAME off DATES')"),
        Case(text: compact("year 2027\n"), kind: .noData,
             message: "bad.txt:2: no data for 2027: no days off or makeup workdays are listed (is the notice out yet?)"),
        Case(text: compact("year 2026\n元旦 off 01-01\nyear 2027\nnotice not out yet\nyear 2028\n元旦 off 01-01\n"), kind: .noData,
             message: "bad.txt:4: no data for 2027: no days off or makeup workdays are listed (is the notice out yet?)"),
        Case(text: "# nothing but a comment\n", kind: .noData, message: "bad.txt: no data: the file has no 'year' section"),
        Case(text: "", kind: .noData, message: "bad.txt: no data: the file has no 'year' section"),
        Case(text: compact("year 21\n"), kind: .syntax, message: "bad.txt:2: expected 'year YYYY' from 1000 to 9999 (like 'year 2021')"),
        Case(text: compact("year 2021 2022\n"), kind: .syntax, message: "bad.txt:2: expected 'year YYYY' from 1000 to 9999 (like 'year 2021')"),
        // Four digits that would be written back as fewer (found by fuzzing: "year 0010" was written back as "year 10", which is refused).
        Case(text: compact("year 0010\n"), kind: .syntax, message: "bad.txt:2: expected 'year YYYY' from 1000 to 9999 (like 'year 2021')"),
        Case(text: "year 2021\n元旦 off 01-01\n", kind: .syntax, message: "bad.txt:1: 'year 2021' comes before any 'region' line"),
        Case(text: compact("元旦 off 01-01\n"), kind: .syntax,
             message: "bad.txt:2: '元旦' is not a keyword, and a holiday line cannot come before any 'year' line"),
        Case(text: compact("year 2021\n元旦\n"), kind: .syntax,
             message: "bad.txt:3: the holiday '元旦' lists no days: expected 'off DATES' and/or 'work DATES' after the name"),
        Case(text: compact("year 2021\n元旦 off work 01-02\n"), kind: .syntax, message: "bad.txt:3: 'off' lists no dates"),
        Case(text: compact("year 2021\n元旦 off 01-01 work\n"), kind: .syntax, message: "bad.txt:3: 'work' lists no dates"),
        Case(text: compact("year 2021\n元旦 01-01\n"), kind: .syntax,
             message: "bad.txt:3: '01-01' after the holiday name: expected 'off' or 'work' before the dates"),
        Case(text: compact("year 2021\nnotice\n"), kind: .syntax, message: "bad.txt:3: 'notice' needs a title, a URL or both"),
        Case(text: compact("notice a title\n"), kind: .syntax, message: "bad.txt:2: a 'notice' line before any 'year' line"),
        Case(text: "region CN\n", kind: .syntax,
             message: "bad.txt:1: expected 'region CODE' with a code of lowercase letters, digits and '-' (like 'region cn')"),
        Case(text: compact("year 2021\n元旦 off 01-01\nyear 2021\n元旦 off 01-01\n"), kind: .yearMismatch,
             message: "bad.txt:4: year 2021 of region cn appears twice (first at line 2)"),
        // A good year before the fault does not come back on its own.
        Case(text: compact("year 2021\n元旦 off 01-01..01-03\nyear 2022\n元旦 off 01-01..01-03\n春节 work 01-31\n"), kind: .makeupOnWeekday,
             message: "bad.txt:6: a makeup workday on Monday 2022-01-31, which is a workday anyway"),
    ]

    @Test("compact format", arguments: compactCases)
    func compactFormat(_ badCase: Case) {
        let error = refusal { () throws(HolidayDataError) in _ = try CompactHolidayFormat.parse(badCase.text, file: "bad.txt") }
        #expect(error?.kind == badCase.kind)
        #expect(error?.description == badCase.message)
        #expect(error?.file == "bad.txt")
    }

    @Test("compact format: bytes that are not UTF-8")
    func compactNotUTF8() {
        let error = refusal { () throws(HolidayDataError) in
            _ = try CompactHolidayFormat.parse(Array("region cn\nyear 2021\n".utf8) + [0xE5, 0x85] + Array(" off 01-01\n".utf8), file: "bad.txt")
        }
        #expect(error?.kind == .unreadable)
        #expect(error?.description == "bad.txt: the file is not UTF-8 text")
    }

    // MARK: holiday-cn JSON

    static func json(_ days: String, year: String = "2021", papers: String = "[]") -> String {
        "{\"year\": \(year), \"papers\": \(papers), \"days\": [\(days)]}"
    }

    static let jsonCases: [Case] = [
        Case(text: "{\"year\": 2021,\n \"papers\": [],\n \"days\": [,]}", kind: .syntax,
             message: "2021.json:3: not valid JSON at column 11: unexpected character ',' where a value should be"),
        Case(text: "{\"year\": 2021, \"papers\": [], \"days\": [{\"name\": \"元旦\", \"date\": \"2021-01-01\", \"isOffDay\": true},]}",
             kind: .syntax, message: "2021.json:1: not valid JSON at column 94: unexpected character ']' where a value should be"),
        Case(text: "{\"year\": 2021, \"papers\": [], \"days\": []", kind: .syntax,
             message: "2021.json:1: not valid JSON at column 40: expected ',' or '}' in an object"),
        Case(text: json("{\"name\": \"元旦\", \"date\": \"2021-01-01\", \"date\": \"2021-01-02\", \"isOffDay\": true}"), kind: .syntax,
             message: "2021.json:1: not valid JSON at column 76: the member \"date\" appears twice"),
        Case(text: "[]", kind: .syntax, message: "2021.json: expected a JSON object with 'year', 'papers' and 'days', found an array"),
        Case(text: "{\"year\": 2021, \"papers\": []}", kind: .syntax, message: "2021.json: the member 'days' is missing"),
        Case(text: "{\"year\": 2021, \"days\": []}", kind: .syntax, message: "2021.json: the member 'papers' is missing"),
        Case(text: json("", year: "\"2021\""), kind: .syntax, message: "2021.json: 'year' is a string, not a four-digit year"),
        Case(text: json("", year: "2020"), kind: .yearMismatch,
             message: "2021.json: the file holds year 2020, but 2021 was expected (from its name)"),
        Case(text: json("", papers: "[1]"), kind: .syntax, message: "2021.json: papers[0] is a number, not a URL"),
        Case(text: json("1"), kind: .syntax,
             message: "2021.json: days[0]: an entry is a number, not an object with name, date and isOffDay"),
        Case(text: json("{\"name\": \"春节\", \"isOffDay\": true}"), kind: .syntax, message: "2021.json: days[0]: the entry has no 'date'"),
        Case(text: json("{\"name\": \"春节\", \"date\": \"2021-02-30\", \"isOffDay\": true}"), kind: .invalidDate,
             message: "2021.json: days[0]: the date '2021-02-30' is not a date in the form YYYY-MM-DD"),
        Case(text: json("{\"name\": \"春节\", \"date\": 20210211, \"isOffDay\": true}"), kind: .invalidDate,
             message: "2021.json: days[0]: the date a number is not a date in the form YYYY-MM-DD"),
        Case(text: json("{\"name\": \"国庆节\", \"date\": \"2021-10-01\", \"isOffDay\": \"yes\"}"), kind: .unknownKeyword,
             message: "2021.json: 2021-10-01: 'isOffDay' is a string, not true (day off) or false (makeup workday) (days[0])"),
        Case(text: json("{\"name\": \"国庆节\", \"date\": \"2021-10-01\", \"isOffDay\": 1}"), kind: .unknownKeyword,
             message: "2021.json: 2021-10-01: 'isOffDay' is a number, not true (day off) or false (makeup workday) (days[0])"),
        Case(text: json("{\"name\": \"国庆节\", \"date\": \"2021-10-01\"}"), kind: .syntax,
             message: "2021.json: 2021-10-01: the entry has no 'isOffDay' (days[0])"),
        Case(text: json("{\"name\": \"\", \"date\": \"2021-10-01\", \"isOffDay\": true}"), kind: .missingName,
             message: "2021.json: 2021-10-01: the day off 2021-10-01 has no holiday name (days[0])"),
        Case(text: json("{\"date\": \"2021-10-09\", \"isOffDay\": false}"), kind: .missingName,
             message: "2021.json: 2021-10-09: the makeup workday 2021-10-09 has no holiday name (days[0])"),
        Case(text: json("{\"name\": \"国庆节\", \"date\": \"2021-10-01\", \"isOffDay\": true}, {\"name\": \"国庆节\", \"date\": \"2021-10-01\", \"isOffDay\": true}"),
             kind: .duplicateDate, message: "2021.json: 2021-10-01: 2021-10-01 appears twice (first at days[0]) (days[1])"),
        Case(text: json("{\"name\": \"国庆节\", \"date\": \"2021-09-22\", \"isOffDay\": false}"), kind: .makeupOnWeekday,
             message: "2021.json: 2021-09-22: a makeup workday on Wednesday 2021-09-22, which is a workday anyway"),
        // After another holiday's days off it is no return-to-work mark either.
        Case(text: json("{\"name\": \"中秋节\", \"date\": \"2021-09-21\", \"isOffDay\": true}, {\"name\": \"国庆节\", \"date\": \"2021-09-22\", \"isOffDay\": false}"),
             kind: .makeupOnWeekday, message: "2021.json: 2021-09-22: a makeup workday on Wednesday 2021-09-22, which is a workday anyway"),
        Case(text: json("{\"name\": \"元旦\", \"date\": \"2020-11-30\", \"isOffDay\": true}"), kind: .outOfRange,
             message: "2021.json: 2020-11-30: 2020-11-30 is outside the notice year 2021, which gives dates from 2020-12-01 to 2021-12-31 (days[0])"),
        Case(text: json(""), kind: .noData,
             message: "2021.json: no data for 2021: no days off or makeup workdays are listed (is the notice out yet?)"),
    ]

    @Test("holiday-cn JSON", arguments: jsonCases)
    func holidayCNJSON(_ badCase: Case) {
        let error = refusal { () throws(HolidayDataError) in
            _ = try HolidayCNJSON.parse(Array(badCase.text.utf8), file: "2021.json", expectedYear: 2021)
        }
        #expect(error?.kind == badCase.kind)
        #expect(error?.description == badCase.message)
    }

    @Test("holiday-cn JSON: a string that is not UTF-8, and a lone surrogate escape")
    func jsonEncoding() {
        let broken = Array("{\"year\": 2021, \"papers\": [], \"days\": [{\"name\": \"".utf8) + [0xE5, 0x85]
            + Array("\", \"date\": \"2021-10-01\", \"isOffDay\": true}]}".utf8)
        let notUTF8 = refusal { () throws(HolidayDataError) in _ = try HolidayCNJSON.parse(broken, file: "2021.json") }
        #expect(notUTF8?.kind == .syntax)
        #expect(notUTF8?.description.hasPrefix("2021.json:1: not valid JSON at column ") == true)
        #expect(notUTF8?.description.hasSuffix("a string is not valid UTF-8") == true, "\(String(describing: notUTF8))")

        let surrogate = refusal { () throws(HolidayDataError) in
            _ = try HolidayCNJSON.parse(Array(Self.json("{\"name\": \"\\ud800\", \"date\": \"2021-10-01\", \"isOffDay\": true}").utf8),
                                        file: "2021.json")
        }
        #expect(surrogate?.kind == .syntax)
        #expect(surrogate?.description.hasSuffix("a lone surrogate \\ud800 in a string") == true, "\(String(describing: surrogate))")
    }

    @Test("holiday-cn JSON: the day work resumes after a holiday, even over a weekend, is set aside; escapes are read")
    func jsonResumptionMarks() throws {
        // 2021-10-07 is a Thursday: 10-08 (Friday) right after. 2021-06-14 is
        // a Monday; 2021-06-12..13 a weekend: 06-11 is a Friday before it.
        let year = try HolidayCNJSON.parse(Array(Self.json("""
            {"name": "国庆\\u8282", "date": "2021-10-07", "isOffDay": true},
            {"name": "国庆节", "date": "2021-10-08", "isOffDay": false},
            {"name": "测试", "date": "2021-06-11", "isOffDay": true},
            {"name": "测试", "date": "2021-06-14", "isOffDay": false}
            """, papers: "[\"https://example.org/a\\/b\"]").utf8), file: "2021.json")
        #expect(year.entries.map(\.description) == ["2021-06-11 off 测试", "2021-10-07 off 国庆节"])
        #expect(year.ignoredEntries.map(\.description) == ["2021-06-14 work 测试", "2021-10-08 work 国庆节"])
        #expect(year.notices == [HolidayNotice(title: nil, url: "https://example.org/a/b")])
    }

    // MARK: holiday-cn ICS

    static func event(_ summary: String, _ start: String, _ end: String?) -> String {
        "BEGIN:VEVENT\r\nSUMMARY:\(summary)\r\nDTSTART;VALUE=DATE:\(start)\r\n" + (end.map { "DTEND;VALUE=DATE:\($0)\r\n" } ?? "")
            + "END:VEVENT\r\n"
    }

    /// Lines 1-2 open the calendar; the first event starts on line 3.
    static func calendar(_ events: String...) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events.joined() + "END:VCALENDAR\r\n"
    }

    static let icsCases: [Case] = [
        Case(text: "VERSION:2.0\r\n", kind: .syntax, message: "2021.ics:1: an iCalendar file starts with BEGIN:VCALENDAR"),
        Case(text: "", kind: .syntax, message: "2021.ics:1: an iCalendar file starts with BEGIN:VCALENDAR"),
        Case(text: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:元旦假期\r\n", kind: .syntax, message: "2021.ics:2: BEGIN:VEVENT is never closed"),
        Case(text: "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VTODO\r\n", kind: .syntax,
             message: "2021.ics:3: END:VTODO closes BEGIN:VEVENT of line 2"),
        Case(text: calendar() + "BEGIN:VEVENT\r\n", kind: .syntax, message: "2021.ics:4: text after END:VCALENDAR"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY 元旦假期\r\nEND:VEVENT\r\n"), kind: .syntax,
             message: "2021.ics:4: 'SUMMARY 元旦假期' is not a content line NAME[;PARAM=VALUE]:VALUE"),
        Case(text: calendar(event("休息", "20211001", "20211002")), kind: .unknownKeyword,
             message: "2021.ics:4: the SUMMARY '休息' is neither 'NAME假期' (days off) nor '上班(补NAME假期)' (makeup workday)"),
        Case(text: calendar(event("假期", "20211001", "20211002")), kind: .missingName,
             message: "2021.ics:4: the SUMMARY '假期' has no holiday name"),
        Case(text: calendar(event("上班(补假期)", "20211009", "20211010")), kind: .missingName,
             message: "2021.ics:4: the SUMMARY '上班(补假期)' has no holiday name"),
        Case(text: calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20211001\r\nEND:VEVENT\r\n"), kind: .missingName,
             message: "2021.ics:3: the event has no SUMMARY naming the holiday"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY:国庆节假期\r\nEND:VEVENT\r\n"), kind: .syntax,
             message: "2021.ics:3: the event has no DTSTART"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY:国庆节假期\r\nDTSTART:20211001T090000\r\nEND:VEVENT\r\n"), kind: .invalidDate,
             message: "2021.ics:5: DTSTART '20211001T090000' has a time of day: a holiday is an all-day event (VALUE=DATE)"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY:国庆节假期\r\nDTSTART;VALUE=DATE-TIME:20211001\r\nEND:VEVENT\r\n"), kind: .invalidDate,
             message: "2021.ics:5: DTSTART has VALUE=DATE-TIME: a holiday is an all-day event (VALUE=DATE)"),
        Case(text: calendar(event("国庆节假期", "20211301", "20211302")), kind: .invalidDate,
             message: "2021.ics:5: DTSTART '20211301' is not a date in the form YYYYMMDD"),
        Case(text: calendar(event("国庆节假期", "20211001", "20211001")), kind: .invertedRange,
             message: "2021.ics:6: DTEND 2021-10-01 is not after DTSTART 2021-10-01 (DTEND is exclusive: a one-day event ends the next day)"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY:国庆节假期\r\nDTSTART;VALUE=DATE:20211001\r\nDURATION:P7D\r\nEND:VEVENT\r\n"),
             kind: .syntax, message: "2021.ics:6: DURATION is not read here: holiday-cn gives each event a DTEND"),
        Case(text: calendar("BEGIN:VEVENT\r\nSUMMARY:国庆节假期\r\nSUMMARY:国庆节假期\r\nEND:VEVENT\r\n"), kind: .syntax,
             message: "2021.ics:5: a second SUMMARY in the event (first at line 4)"),
        Case(text: calendar(event("国庆节假期", "20211001", "20211008"), event("国庆节假期", "20211007", "20211009")), kind: .duplicateDate,
             message: "2021.ics:8: 2021-10-07 appears twice (first at line 3)"),
        Case(text: calendar(event("中秋节假期", "20210919", "20210922"), event("上班(补国庆节假期)", "20210922", "20210923")),
             kind: .makeupOnWeekday, message: "2021.ics:8: a makeup workday on Wednesday 2021-09-22, which is a workday anyway"),
        Case(text: calendar(event("国庆节假期", "20221001", "20221008")), kind: .outOfRange,
             message: "2021.ics:3: 2022-10-01 is outside the notice year 2021, which gives dates from 2020-12-01 to 2021-12-31"),
        Case(text: calendar(event("国庆节假期", "20211001", "20231001")), kind: .outOfRange,
             message: "2021.ics:6: the event from 2021-10-01 to 2023-10-01 is 730 days long, more than a notice year holds"),
        Case(text: calendar(), kind: .noData,
             message: "2021.ics: no data for 2021: the calendar has no events (is the notice out yet?)"),
    ]

    @Test("holiday-cn ICS", arguments: icsCases)
    func holidayCNICS(_ badCase: Case) {
        let error = refusal { () throws(HolidayDataError) in
            _ = try HolidayCNICS.parse(Array(badCase.text.utf8), file: "2021.ics", year: 2021)
        }
        #expect(error?.kind == badCase.kind)
        #expect(error?.description == badCase.message)
    }

    @Test("holiday-cn ICS: no events and no year given is still no data; a line that is not UTF-8 is named")
    func icsEdges() {
        let empty = refusal { () throws(HolidayDataError) in _ = try HolidayCNICS.parse(Array(Self.calendar().utf8), file: "x.ics") }
        #expect(empty?.kind == .noData)
        #expect(empty?.year == nil)
        #expect(empty?.description == "x.ics: no data: the calendar has no events (is the notice out yet?)")

        let bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:".utf8) + [0xE5, 0x85] + Array("\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let notUTF8 = refusal { () throws(HolidayDataError) in _ = try HolidayCNICS.parse(bytes, file: "x.ics") }
        #expect(notUTF8?.kind == .unreadable)
        #expect(notUTF8?.description == "x.ics:3: the line is not UTF-8 text")
    }

    @Test("holiday-cn ICS: folds are undone on bytes (even inside a character), LF alone ends a line, DTEND defaults to one day")
    func icsLeniencies() throws {
        // "国庆节假期" split inside the three bytes of 节 (E8 8A 82), then
        // folded with a tab; the second event ends lines with LF only and has
        // no DTEND; a VALARM inside it has a SUMMARY of its own.
        let summary = Array("国庆节假期".utf8)
        let bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:".utf8) + summary[0..<7] + Array("\r\n\t".utf8) + summary[7...]
            + Array("\r\nDTSTART;VALUE=DATE:20211001\r\nDTEND;VALUE=DATE:20211008\r\nEND:VEVENT\r\n".utf8)
            + Array("BEGIN:VEVENT\nSUMMARY:上班（补国庆节假期）\nDTSTART;VALUE=DATE:20211009\nBEGIN:VALARM\nSUMMARY:x\nEND:VALARM\nEND:VEVENT\n".utf8)
            + Array("END:VCALENDAR\r\n".utf8)
        let year = try HolidayCNICS.parse(bytes, file: "2021.ics")
        #expect(year.year == 2021)
        #expect(year.entries.map(\.description) == [
            "2021-10-01 off 国庆节", "2021-10-02 off 国庆节", "2021-10-03 off 国庆节", "2021-10-04 off 国庆节",
            "2021-10-05 off 国庆节", "2021-10-06 off 国庆节", "2021-10-07 off 国庆节", "2021-10-09 work 国庆节",
        ])
        #expect(year.notices.isEmpty)
        #expect(year.source == HolidaySource(format: .holidayCNICS, location: "2021.ics"))
    }

    @Test("HolidayData.parse refuses through each format's reader, and a JSON file's name must agree with its year")
    func dispatchByFormat() {
        let wrongYear = refusal { () throws(HolidayDataError) in
            _ = try HolidayData.parse(Array(Self.json("{\"name\": \"元旦\", \"date\": \"2021-01-01\", \"isOffDay\": true}").utf8),
                                      format: .holidayCNJSON, file: "2022.json", year: 2022)
        }
        #expect(wrongYear?.kind == .yearMismatch)
        #expect(wrongYear?.description == "2022.json: the file holds year 2021, but 2022 was expected (from its name)")
        let compactError = refusal { () throws(HolidayDataError) in
            _ = try HolidayData.parse(Array("region cn\nyear 2021\n".utf8), format: .compact, file: "x.txt")
        }
        #expect(compactError?.kind == .noData)
    }
}
