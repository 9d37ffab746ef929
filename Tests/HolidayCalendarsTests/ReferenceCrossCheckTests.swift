import CalendarModel
import Foundation
import HolidayCalendars
import Testing

/// The bundled data is written from the notices; holiday-cn's files are an
/// independent transcription of the same notices. Any difference fails.
@Suite("Bundled cn data against the holiday-cn reference files")
struct ReferenceCrossCheckTests {
    static func bundledYear(_ year: Int) throws -> HolidayYear {
        let years = try #require(try HolidayData.bundled(region: "cn"))
        return try #require(years.first { $0.year == year }, "no bundled year \(year)")
    }

    /// The differences between two lists of entries, one line each, for a readable failure.
    static func differences(_ left: [HolidayEntry], _ right: [HolidayEntry], _ leftName: String, _ rightName: String) -> [String] {
        let leftSet = Set(left), rightSet = Set(right)
        return left.filter { !rightSet.contains($0) }.map { "only in \(leftName): \($0)" }
            + right.filter { !leftSet.contains($0) }.map { "only in \(rightName): \($0)" }
    }

    /// 2010: the makeup workdays 09-25 (for 中秋节) and 09-26 (for 国庆节, as
    /// the notice says: "国庆节：…9月26日（星期日）、10月9日（星期六）上班")
    /// are one event `上班(补中秋节假期)` 20100925-20100927 in 2010.ics.
    static let icsNameLosses: [Int: [String]] = [
        2010: ["2010-09-26: 中秋节 in the ICS, 国庆节 in the JSON"],
    ]

    @Test("the reference files are in the repository, every year's JSON and ICS with holiday-cn's licence (a missing one fails)")
    func referenceFilesAreInTheRepository() throws {
        let folder = try Reference.requireFolder()
        #expect(folder.hasPrefix(Reference.packageRoot + "/Tests/"))
        let names = (2007...2027).flatMap { ["\($0).json", "\($0).ics"] } + ["README.md", "LICENSE"]
        for name in names {
            #expect(FileManager.default.isReadableFile(atPath: folder + "/" + name), "no fixture \(folder)/\(name)")
        }
        let licence = try String(contentsOfFile: folder + "/LICENSE", encoding: .utf8)
        #expect(licence.contains("MIT License") && licence.contains("Copyright (c) 2019 NateScarlet")
                && licence.contains("github.com/NateScarlet/holiday-cn"))
    }

    @Test("bundled, reference JSON and reference ICS give the same days, names and hash", arguments: 2007...2026)
    func sameYear(_ year: Int) throws {
        let bundled = try Self.bundledYear(year)
        let json = try HolidayCNJSON.parse(try Reference.bytes("\(year).json"), file: "\(year).json", expectedYear: year)
        let ics = try HolidayCNICS.parse(try Reference.bytes("\(year).ics"), file: "\(year).ics", year: year)

        let bundledVersusJSON = Self.differences(bundled.entries, json.entries, "cn.txt", "\(year).json")
        #expect(bundledVersusJSON.isEmpty, "\(bundledVersusJSON.joined(separator: "\n"))")
        // Dates and off/work agree exactly; names too, except where
        // holiday-cn's ICS writer merged adjacent runs of two holidays into
        // one event named after the first (pinned, so a fix upstream shows).
        #expect(ics.entries.map(\.date) == json.entries.map(\.date))
        #expect(ics.entries.map(\.isOffDay) == json.entries.map(\.isOffDay))
        let nameLosses = zip(json.entries, ics.entries).filter { $0.name != $1.name }
            .map { "\($0.date): \($1.name) in the ICS, \($0.name) in the JSON" }
        #expect(nameLosses == (Self.icsNameLosses[year] ?? []))
        #expect(bundled.entries.count == json.entries.count && json.entries.count == ics.entries.count)

        // The canonical form does not depend on the format the days came in.
        #expect(bundled.contentHash == json.contentHash)
        #expect((json.contentHash == ics.contentHash) == nameLosses.isEmpty)
        // Both holiday-cn files set aside the same marks (only 2020 has one).
        #expect(json.ignoredEntries == ics.ignoredEntries)
        #expect(json.ignoredEntries.isEmpty == (year != 2020))

        // Every notice the reference used is named, with a title, in its order.
        #expect(bundled.notices.map(\.url) == json.notices.map(\.url))
        #expect(bundled.notices.allSatisfy { $0.title?.isEmpty == false })
        #expect(bundled.source == HolidaySource(format: .compact, location: "bundled:cn.txt"))
        #expect(json.source == HolidaySource(format: .holidayCNJSON, location: "\(year).json"))
    }

    @Test("an ICS file read without a year takes the latest year of its dates", arguments: [2008, 2019, 2023, 2026])
    func icsYearFromDates(_ year: Int) throws {
        // These years start in the previous December (2008, 2019, 2023) or not (2026).
        let ics = try HolidayCNICS.parse(try Reference.bytes("\(year).ics"), file: "calendar.ics")
        #expect(ics.year == year)
        #expect(ics.entries == (try Self.bundledYear(year)).entries)
    }

    @Test("the bundled data is every notice year from 2007 to 2026 and nothing else")
    func bundledCoverage() throws {
        let years = try #require(try HolidayData.bundled(region: "cn"))
        #expect(years.map(\.year) == Array(2007...2026))
        #expect(years.allSatisfy { $0.region == "cn" })
        #expect(HolidayData.bundledRegions == ["cn"])
        #expect(try HolidayData.bundled(region: "xx") == nil)
        #expect(try WorkdayCalendar.bundled(region: "cn")?.coveredYears == Array(2007...2026))
    }

    @Test("2027, whose notice is not out: both reference files are reported as no data, not as a year of plain weeks")
    func year2027HasNoData() throws {
        let jsonBytes = try Reference.bytes("2027.json"), icsBytes = try Reference.bytes("2027.ics")
        let json = refusal { () throws(HolidayDataError) in
            _ = try HolidayCNJSON.parse(jsonBytes, file: "2027.json", expectedYear: 2027)
        }
        #expect(json?.kind == .noData)
        #expect(json?.year == 2027)
        #expect(json?.description.hasPrefix("2027.json: no data for 2027") == true, "\(String(describing: json))")

        let ics = refusal { () throws(HolidayDataError) in
            _ = try HolidayCNICS.parse(icsBytes, file: "2027.ics", year: 2027)
        }
        #expect(ics?.kind == .noData)
        #expect(ics?.year == 2027)
        #expect(ics?.description.contains("2027.ics") == true)
    }

    @Test("2020-02-03, holiday-cn's mark of the Monday work resumed after the prolonged Spring Festival, is set aside, not taken for a makeup workday")
    func resumptionMarkOf2020() throws {
        let json = try HolidayCNJSON.parse(try Reference.bytes("2020.json"), file: "2020.json")
        let monday = HolidayEntry(date: day("2020-02-03"), isOffDay: false, name: "春节")
        #expect(json.ignoredEntries == [monday])
        #expect(json[day("2020-02-03")] == nil)
        // The prolonged break itself: 2020-01-31..02-02 off, and the makeup
        // workday the first notice set on 2020-02-01 (a Saturday) is gone.
        for iso in ["2020-01-31", "2020-02-01", "2020-02-02"] {
            #expect(json[day(iso)] == HolidayEntry(date: day(iso), isOffDay: true, name: "春节"), "\(iso)")
        }
        let calendar = try #require(try WorkdayCalendar.bundled(region: "cn"))
        #expect(calendar.answer(on: day("2020-02-03")) == WorkdayAnswer(date: day("2020-02-03"), isWorkday: true,
                                                                          reason: .ordinaryWorkday, missingYear: nil))
        #expect(calendar.answer(on: day("2020-02-01")).reason == .holiday("春节"))
    }

    @Test("HolidayData.read takes the format from the extension and the year from the name")
    func readByPath() throws {
        let folder = try Reference.requireFolder()
        let fromJSON = try HolidayData.read(path: folder + "/2021.json")
        let fromICS = try HolidayData.read(path: folder + "/2021.ics")
        #expect(fromJSON.map(\.year) == [2021])
        #expect(fromICS.map(\.year) == [2021])
        #expect(fromJSON.first?.entries == fromICS.first?.entries)
        #expect(fromJSON.first?.source == HolidaySource(format: .holidayCNJSON, location: folder + "/2021.json"))

        #expect(HolidayData.format(ofFileNamed: "/x/2021.JSON") == .holidayCNJSON)
        #expect(HolidayData.format(ofFileNamed: "cn.txt") == .compact)
        #expect(HolidayData.format(ofFileNamed: "2021.csv") == nil)
        #expect(HolidayData.year(ofFileNamed: "/tmp/2021.ics") == 2021)
        #expect(HolidayData.year(ofFileNamed: "holidays.ics") == nil)

        let missing = refusal { () throws(HolidayDataError) in _ = try HolidayData.read(path: folder + "/1999.json") }
        #expect(missing?.kind == .unreadable)
        #expect(missing?.description == folder + "/1999.json: cannot be read: No such file or directory")
        let unknown = refusal { () throws(HolidayDataError) in _ = try HolidayData.read(path: folder + "/README.md") }
        #expect(unknown?.kind == .unreadable)
    }
}
