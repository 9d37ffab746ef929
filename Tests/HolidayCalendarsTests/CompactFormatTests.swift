import CalendarModel
import HolidayCalendars
import Testing

@Suite("Chime's compact holiday format")
struct CompactFormatTests {
    static let example2021 = """
        region cn
        year 2021
        notice 国务院办公厅关于2021年部分节假日安排的通知 http://www.gov.cn/zhengce/content/2020-11/25/content_5564127.htm
        元旦 off 01-01..01-03
        春节 off 02-11..02-17 work 02-07 02-20

        """

    @Test("the example of the format reads as written: ranges inclusive, off and work, the notice's title and URL")
    func readsTheExample() throws {
        let years = try CompactHolidayFormat.parse(Self.example2021, file: "example.txt")
        let year = try #require(years.first)
        #expect(years.count == 1)
        #expect(year.region == "cn")
        #expect(year.year == 2021)
        #expect(year.notices == [HolidayNotice(title: "国务院办公厅关于2021年部分节假日安排的通知",
                                               url: "http://www.gov.cn/zhengce/content/2020-11/25/content_5564127.htm")])
        #expect(year.entries.map(\.description) == [
            "2021-01-01 off 元旦", "2021-01-02 off 元旦", "2021-01-03 off 元旦",
            "2021-02-07 work 春节",
            "2021-02-11 off 春节", "2021-02-12 off 春节", "2021-02-13 off 春节", "2021-02-14 off 春节",
            "2021-02-15 off 春节", "2021-02-16 off 春节", "2021-02-17 off 春节",
            "2021-02-20 work 春节",
        ])
        #expect(year.offDayCount == 10)
        #expect(year.makeupWorkdayCount == 2)
        #expect(year[day("2021-02-07")] == HolidayEntry(date: day("2021-02-07"), isOffDay: false, name: "春节"))
        #expect(year[day("2021-02-08")] == nil)
        #expect(year.source == HolidaySource(format: .compact, location: "example.txt"))
        #expect(year.ignoredEntries.isEmpty)
    }

    @Test("writing gives the canonical text back, and the text reads back to the same years")
    func roundTrip() throws {
        let years = try CompactHolidayFormat.parse(Self.example2021, file: "example.txt")
        #expect(try CompactHolidayFormat.write(years) == Self.example2021)
        let again = try CompactHolidayFormat.parse(try CompactHolidayFormat.write(years), file: "example.txt")
        #expect(again == years)
    }

    @Test("a year whose names or notice the text cannot give back is refused naming it; titles' spaces and a header's line breaks are written as the reader reads them")
    func unwritable() throws {
        let source = HolidaySource(format: .holidayCNJSON, location: "2021.json")
        func year(named name: String, notices: [HolidayNotice] = []) throws -> HolidayYear {
            try HolidayYear(region: "cn", year: 2021, entries: [HolidayEntry(date: day("2021-01-01"), isOffDay: true, name: name)],
                            notices: notices, source: source)
        }
        // A space or line break splits the name; a keyword or '#' is read as something else; a combining mark joins the space before it.
        for name in ["New Year", "New\nYear", "New\tYear", "year", "off", "notice", "#1", "\u{301}x"] {
            #expect(!CompactHolidayFormat.canWrite(name: name), "\(name.debugDescription)")
            #expect(throws: CompactHolidayFormat.Unwritable.self, "\(name.debugDescription)") { try CompactHolidayFormat.write([try year(named: name)]) }
        }
        #expect(!CompactHolidayFormat.canWrite(name: ""))
        #expect(CompactHolidayFormat.canWrite(name: "New-Year") && CompactHolidayFormat.canWrite(name: "国庆节"))
        let spacedName = try year(named: "New Year")
        do throws(CompactHolidayFormat.Unwritable) {
            _ = try CompactHolidayFormat.write([spacedName])
            Issue.record("written")
        } catch {
            #expect(error.description == "region cn, year 2021: the holiday name 'New Year' is not one token that is no keyword and starts without '#'")
        }
        let linkTitle = [HolidayNotice(title: "see https://example.org/", url: nil)]
        #expect(throws: CompactHolidayFormat.Unwritable.self) { try CompactHolidayFormat.write([try year(named: "元旦", notices: linkTitle)]) }
        let spacedURL = [HolidayNotice(title: nil, url: "https://example.org/a b")]
        #expect(throws: CompactHolidayFormat.Unwritable.self) { try CompactHolidayFormat.write([try year(named: "元旦", notices: spacedURL)]) }

        let spaced = try year(named: "元旦", notices: [HolidayNotice(title: "a  notice\nof\t2021", url: "https://example.org/")])
        let text = try CompactHolidayFormat.write([spaced], header: ["two\nlines"])
        #expect(text == "# two\n# lines\n\nregion cn\nyear 2021\nnotice a notice of 2021 https://example.org/\n元旦 off 01-01\n")
        let reread = try #require(try CompactHolidayFormat.parse(text, file: "written.txt").first)
        #expect(reread.notices == [HolidayNotice(title: "a notice of 2021", url: "https://example.org/")])
        #expect(reread.entries == spaced.entries)
    }

    @Test("every bundled year survives writing and reading: entries, notices and hash")
    func bundledRoundTrip() throws {
        let bundled = try #require(try HolidayData.bundled(region: "cn"))
        let text = try CompactHolidayFormat.write(bundled, header: ["written by a test"])
        #expect(text.hasPrefix("# written by a test\n\nregion cn\nyear 2007\n"))
        let reread = try CompactHolidayFormat.parse(text, file: "rewritten.txt")
        #expect(reread.map(\.year) == bundled.map(\.year))
        for (old, new) in zip(bundled, reread) {
            #expect(new.entries == old.entries, "\(old.year)")
            #expect(new.notices == old.notices, "\(old.year)")
            #expect(new.contentHash == old.contentHash, "\(old.year)")
        }
        // Canonical text is a fixed point.
        #expect(try CompactHolidayFormat.write(reread, header: ["written by a test"]) == text)
    }

    @Test("dates of another year are written in full, and a range may cross the new year")
    func otherYearDates() throws {
        let text = "region cn\nyear 2019\n元旦 off 2018-12-30..01-01 work 2018-12-29\n"
        let year = try #require(try CompactHolidayFormat.parse(text, file: "2019.txt").first)
        #expect(year.entries.map(\.description) == ["2018-12-29 work 元旦", "2018-12-30 off 元旦", "2018-12-31 off 元旦", "2019-01-01 off 元旦"])
        #expect(try CompactHolidayFormat.write([year]) == text)
        // The first day allowed is December 1 of the year before.
        #expect(HolidayYear.allowedDates(forYear: 2019) == day("2018-12-01")...day("2019-12-31"))
        #expect(try CompactHolidayFormat.parse(compact("year 2019\n某日 off 2018-12-01\n"), file: "x.txt").first?.entries.count == 1)
    }

    @Test("a later notice of the same year overrides an earlier one date by date (2019: 劳动节 from one day to four)")
    func laterNoticeOverrides() throws {
        let year = try #require(try CompactHolidayFormat.parse(compact("""
            year 2019
            notice first
            劳动节 off 05-01
            国庆节 off 10-01..10-07 work 09-29 10-12
            notice second https://example.org/2
            劳动节 off 05-01..05-04 work 04-28 05-05
            """), file: "2019.txt").first)
        #expect(year.notices == [HolidayNotice(title: "first", url: nil), HolidayNotice(title: "second", url: "https://example.org/2")])
        #expect(year.entries.filter { $0.name == "劳动节" }.map(\.description) == [
            "2019-04-28 work 劳动节", "2019-05-01 off 劳动节", "2019-05-02 off 劳动节", "2019-05-03 off 劳动节",
            "2019-05-04 off 劳动节", "2019-05-05 work 劳动节",
        ])
        // An override may turn a makeup workday into a day off (2020-02-01).
        let twenty = try #require(try CompactHolidayFormat.parse(compact("""
            year 2020
            notice a
            春节 off 01-24..01-30 work 01-19 02-01
            notice b
            春节 off 01-31..02-02
            """), file: "2020.txt").first)
        #expect(twenty[day("2020-02-01")]?.isOffDay == true)
        #expect(twenty.makeupWorkdayCount == 1)
    }

    @Test("the bundled 2019 and 2020 sections hold both notices of their year")
    func bundledAmendingNotices() throws {
        let years = try #require(try HolidayData.bundled(region: "cn"))
        let noticeCounts = Dictionary(uniqueKeysWithValues: years.map { ($0.year, $0.notices.count) })
        #expect(noticeCounts.filter { $0.value > 1 }.keys.sorted() == [2015, 2019, 2020])
        let text = try #require(HolidayData.bundledText(region: "cn"))
        #expect(text.contains("notice 国务院办公厅关于调整2019年劳动节假期安排的通知 "))
        #expect(text.contains("notice 国务院办公厅关于延长2020年春节假期的通知 "))
    }

    @Test("comments, blank lines, tabs, CRLF line ends and a byte-order mark are all right")
    func layoutFreedom() throws {
        let text = "\u{FEFF}# header\r\nregion cn\r\n\r\nyear 2021\r\n\t# indented comment\r\n元旦\toff  01-01..01-03\r\n"
        let year = try #require(try CompactHolidayFormat.parse(text, file: "crlf.txt").first)
        #expect(year.entries.count == 3)
        #expect(year.notices.isEmpty)
    }

    @Test("a file may hold several regions and years, each year keeping its region")
    func severalRegions() throws {
        let years = try CompactHolidayFormat.parse("""
            region cn
            year 2021
            元旦 off 01-01
            region xx
            year 2021
            New-Year off 01-01
            year 2022
            New-Year off 01-01
            """, file: "many.txt")
        #expect(years.map { "\($0.region) \($0.year)" } == ["cn 2021", "xx 2021", "xx 2022"])
        #expect(try CompactHolidayFormat.write(years).components(separatedBy: "region ").count == 3)
    }

    @Test("the content hash is SHA-256 of the canonical text: format, notices and comments do not change it, a day does")
    func contentHash() throws {
        let plain = try #require(try CompactHolidayFormat.parse(compact("year 2021\n元旦 off 01-01..01-03\n"), file: "a.txt").first)
        #expect(plain.canonicalText == "region cn\nyear 2021\n元旦 off 01-01..01-03\n")
        #expect(plain.contentHash == SHA256.hex("region cn\nyear 2021\n元旦 off 01-01..01-03\n"))
        #expect(plain.contentHash.count == 64 && plain.contentHash.allSatisfy { "0123456789abcdef".contains($0) })

        let decorated = try #require(try CompactHolidayFormat.parse(compact("""
            # a comment
            year 2021
            notice some notice https://example.org/
            元旦 off 01-01 01-02..01-03
            """), file: "b.txt").first)
        #expect(decorated.contentHash == plain.contentHash)

        let json = try HolidayCNJSON.parse(Array("""
            {"year": 2021, "papers": [], "days": [
              {"name": "元旦", "date": "2021-01-03", "isOffDay": true},
              {"name": "元旦", "date": "2021-01-01", "isOffDay": true},
              {"name": "元旦", "date": "2021-01-02", "isOffDay": true}]}
            """.utf8), file: "2021.json")
        #expect(json.contentHash == plain.contentHash)

        let changed = try #require(try CompactHolidayFormat.parse(compact("year 2021\n元旦 off 01-01..01-02\n"), file: "c.txt").first)
        #expect(changed.contentHash != plain.contentHash)
        let renamed = try #require(try CompactHolidayFormat.parse(compact("year 2021\n新年 off 01-01..01-03\n"), file: "d.txt").first)
        #expect(renamed.contentHash != plain.contentHash)
    }

    @Test("a year built by hand is checked like a file, naming the date at fault")
    func handBuiltYear() throws {
        let source = HolidaySource(format: .compact, location: "store")
        let year = try HolidayYear(region: "cn", year: 2021, entries: [
            HolidayEntry(date: day("2021-10-09"), isOffDay: false, name: "国庆节"),
            HolidayEntry(date: day("2021-10-01"), isOffDay: true, name: "国庆节"),
        ], source: source)
        #expect(year.entries.map(\.date) == [day("2021-10-01"), day("2021-10-09")])

        let duplicate = refusal { () throws(HolidayDataError) in
            _ = try HolidayYear(region: "cn", year: 2021, entries: [
                HolidayEntry(date: day("2021-10-01"), isOffDay: true, name: "国庆节"),
                HolidayEntry(date: day("2021-10-01"), isOffDay: true, name: "国庆节"),
            ], source: source)
        }
        #expect(duplicate?.kind == .duplicateDate)
        #expect(duplicate?.description.hasPrefix("store: 2021-10-01: 2021-10-01 appears twice") == true, "\(String(describing: duplicate))")
        let empty = refusal { () throws(HolidayDataError) in _ = try HolidayYear(region: "cn", year: 2027, entries: [], source: source) }
        #expect(empty?.kind == .noData)
        #expect(empty?.year == 2027)
    }
}
