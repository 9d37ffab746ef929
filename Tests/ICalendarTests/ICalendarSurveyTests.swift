import CalendarModel
import Foundation
import ICalendar
import TestSupport
import Testing

/// A `Gathering` given a `Survey` hands over the items that are final as
/// it maps them, and those with occurrences or revisions once the last
/// component of their UID has come (a large import writes them in pieces):
/// what it hands over and what `finish` gives after must together be what
/// a gathering without a survey gives.
@Suite("iCalendar items taken as they settle")
struct ICalendarSurveyTests {
    static let calendar = ItemIdentifier("0123456789abcdef0123456789abcdef")!

    /// Every VCALENDAR of every fixture that reads as one.
    static func fixtureCalendars() throws -> [(name: String, calendar: ICalendarComponent)] {
        let root = PackagePaths.root + "/Tests/ICalendarTests/Fixtures"
        let names = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".ics") }.sorted()
        #expect(names.count >= 10, "the fixtures are missing: \(names)")
        var calendars: [(String, ICalendarComponent)] = []
        for name in names {
            let reading = try ICalendarReader().read(path: root + "/" + name)
            for calendar in reading.components where calendar.name == "VCALENDAR" { calendars.append((name, calendar)) }
        }
        return calendars
    }

    /// The gathering of `calendar` with a survey (of `calendar`'s own
    /// components unless `surveyed` gives others), taking what is final
    /// after each component; what was taken, and the rest.
    static func gatheredInPieces(_ calendar: ICalendarComponent, surveyed: [ICalendarComponent]? = nil)
        -> (taken: [ICalendarItems.Entry], rest: ICalendarItems.Result, takenAfter: [String: Int]) {
        var survey = ICalendarItems.Survey()
        for component in surveyed ?? calendar.components { survey.add(component) }
        let zones = ICalendarZones(calendar: calendar)
        var gathering = ICalendarItems.Gathering(into: Self.calendar, zones: zones, survey: survey)
        var taken: [ICalendarItems.Entry] = []
        // The position of the component after which each UID was taken.
        var takenAfter: [String: Int] = [:]
        for (position, component) in calendar.components.enumerated() {
            gathering.add(component)
            let final = gathering.takeFinal()
            for entry in final { takenAfter[entry.uid] = position }
            taken += final
        }
        return (taken, gathering.finish(), takenAfter)
    }

    @Test("over every fixture, what is taken as it settles and what finish gives are together what a gathering without a survey gives")
    func piecesAddUpToTheWhole() throws {
        var takenInAll = 0, takenWithOccurrences = 0
        for (name, calendar) in try Self.fixtureCalendars() {
            let whole = ICalendarItems.read(calendar: calendar, into: Self.calendar, zones: ICalendarZones(calendar: calendar))
            let (taken, rest, takenAfter) = Self.gatheredInPieces(calendar)
            takenInAll += taken.count
            takenWithOccurrences += taken.count { !$0.detached.isEmpty || !$0.followingSeries.isEmpty }
            #expect(Set(taken + rest.entries) == Set(whole.entries), "\(name)")
            #expect(taken.count + rest.entries.count == whole.entries.count, "\(name)")
            #expect(rest.problems == whole.problems, "\(name)")
            #expect(Set(rest.warnings) == Set(whole.warnings), "\(name)")
            // Nothing is taken before the last component of its UID.
            for (uid, position) in takenAfter {
                let last = calendar.components.lastIndex { $0["UID"].map { ICalendarText.unescape($0.value) } == uid }
                #expect(last == position, "\(name): \(uid) was taken after component \(position), its last is \(last.map(String.init) ?? "none")")
            }
        }
        #expect(takenInAll > 0, "no fixture item was ever final: the property was not exercised")
        #expect(takenWithOccurrences > 0, "no fixture series was taken with its occurrences: the property was not exercised")
    }

    @Test("over every fixture, a survey of a skimming reading, which holds the items' UIDs and RECURRENCE-IDs alone, takes what a survey of the whole items takes")
    func skimmedSurvey() throws {
        let root = PackagePaths.root + "/Tests/ICalendarTests/Fixtures"
        let names = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".ics") }.sorted()
        var takenInAll = 0
        for name in names {
            let bytes = try ICalendarReader.readFile(path: root + "/" + name, limit: ICalendarReader.maximumFileSize)
            guard let whole = try? ICalendarReader().read(bytes) else { continue }
            // The skimmed items each VCALENDAR hands over, by the line of its BEGIN.
            var skimmed: [Int: [ICalendarComponent]] = [:]
            _ = try ICalendarReader().read(bytes, skimmingItems: true) { component, calendar in
                skimmed[calendar.line, default: []].append(component)
                return false
            }
            for calendar in whole.components where calendar.name == "VCALENDAR" {
                let fromWhole = Self.gatheredInPieces(calendar)
                let fromSkimmed = Self.gatheredInPieces(calendar, surveyed: skimmed[calendar.line] ?? [])
                #expect(fromSkimmed.takenAfter == fromWhole.takenAfter, "\(name)")
                takenInAll += fromSkimmed.taken.count
                #expect(Set(fromSkimmed.taken.map(\.uid)) == Set(fromWhole.taken.map(\.uid)), "\(name)")
                #expect(Set(fromSkimmed.taken + fromSkimmed.rest.entries) == Set(fromWhole.taken + fromWhole.rest.entries), "\(name)")
            }
        }
        #expect(takenInAll > 0, "no fixture item was ever final: the property was not exercised")
    }

    @Test("a year span tells the years a calendar's items' starts, due dates, recurrence IDs and RDATEs fall in, through five years past the current one when an item repeats")
    func yearSpan() throws {
        func survey(_ text: String) throws -> ICalendarItems.YearSpan {
            let bytes = Array(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + text + "END:VCALENDAR\r\n").utf8)
            var survey = ICalendarItems.YearSpan()
            let reading = try ICalendarReader().read(bytes) { component, _ in
                survey.add(component)
                return true
            }
            #expect(reading.problems.isEmpty)
            return survey
        }
        let items = """
            BEGIN:VEVENT\r\nUID:a\r\nDTSTART;TZID=Europe/Berlin:20270322T090000\r\nDTEND;TZID=Europe/Berlin:20400322T093000\r\nEND:VEVENT\r\n\
            BEGIN:VTODO\r\nUID:b\r\nDUE;VALUE=DATE:20240110\r\nEND:VTODO\r\n\
            BEGIN:VEVENT\r\nUID:a\r\nRECURRENCE-ID:20290101T000000Z\r\nDTSTART:20290102T000000Z\r\nEND:VEVENT\r\n\
            BEGIN:VJOURNAL\r\nUID:c\r\nDTSTART:19900101\r\nEND:VJOURNAL\r\n
            """
        // A DTEND is not counted: an item's end is within days of its start, but for a typo like this one.
        #expect(try survey(items).years(currentYear: 2026) == 2024...2029)
        let repeating = items + "BEGIN:VEVENT\r\nUID:d\r\nDTSTART:20250101\r\nRRULE:FREQ=YEARLY\r\nEND:VEVENT\r\n"
        #expect(try survey(repeating).years(currentYear: 2026) == 2024...2031)
        #expect(try survey(repeating).years(currentYear: 2020) == 2024...2029)
        // Each of an RDATE's dates counts, in lists, in more than one RDATE, and as the start of a PERIOD.
        let added = items + """
            BEGIN:VEVENT\r\nUID:f\r\nDTSTART:20260105T090000Z\r\nRDATE:20270105T090000Z,20310105T090000Z\r\n\
            RDATE;VALUE=PERIOD:20190105T090000Z/PT1H\r\nRDATE;VALUE=DATE:20280105\r\nEND:VEVENT\r\n
            """
        #expect(try survey(added).years(currentYear: 2026) == 2019...2031)
        // A start that is not a date does not count; a survey of no timed item knows no years.
        #expect(try survey("BEGIN:VEVENT\r\nUID:e\r\nDTSTART:tomorrow\r\nEND:VEVENT\r\n").years(currentYear: 2026) == nil)
        #expect(ICalendarItems.YearSpan().years(currentYear: 2026) == nil)
    }

    @Test("an item whose UID comes once is taken as it is mapped; a series with a moved occurrence and a revised item once their UID's last component has come, settled; items without a UID wait for finish")
    func whatWaits() throws {
        func event(_ uid: String?, _ extra: [String] = [], summary: String = "Item") -> [String] {
            ["BEGIN:VEVENT"] + (uid.map { ["UID:\($0)"] } ?? []) + ["DTSTAMP:20261201T000000Z", "DTSTART:20261201T090000Z", "SUMMARY:\(summary)"]
                + extra + ["END:VEVENT"]
        }
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//test//EN"]
            + event("single@chime.test")
            + event("series@chime.test", ["RRULE:FREQ=DAILY;COUNT=3"])
            + event("revised@chime.test", ["SEQUENCE:1"])
            + event(nil, summary: "Twin") + event(nil, summary: "Twin")
            + event(nil, summary: "Alone")
            + event("series@chime.test", ["RECURRENCE-ID:20261202T090000Z"])
            + event("revised@chime.test", ["SEQUENCE:2"], summary: "Revised")
            + ["BEGIN:VTODO", "UID:todo@chime.test", "DTSTAMP:20261201T000000Z", "SUMMARY:Todo", "END:VTODO", "END:VCALENDAR"]
        let read = try ICalendarReader().read(lines.joined(separator: "\r\n") + "\r\n")
        let calendar = try #require(read.components.first)
        let (taken, rest, takenAfter) = Self.gatheredInPieces(calendar)
        #expect(taken.map(\.uid) == ["single@chime.test", "series@chime.test", "revised@chime.test", "todo@chime.test"])
        // Components 0 to 8: the series' moved occurrence is the seventh, the revision the eighth.
        #expect(takenAfter == ["single@chime.test": 0, "series@chime.test": 6, "revised@chime.test": 7, "todo@chime.test": 8])
        // An event without a UID is keyed by its content, which a skimmed survey does not read: the twins (one content, one key) and Alone wait.
        #expect(rest.entries.count == 2 && rest.entries.allSatisfy { $0.uid.hasSuffix("@derived") })
        guard case .event(let revised)? = taken.first(where: { $0.uid == "revised@chime.test" })?.item else {
            Issue.record("no revised event"); return
        }
        #expect(revised.title == "Revised", "the later revision stands, as without a survey")
        #expect(taken.first { $0.uid == "series@chime.test" }?.detached.count == 1)
    }
}
