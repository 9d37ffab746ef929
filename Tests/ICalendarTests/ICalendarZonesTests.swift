import CalendarModel
import Foundation
import Testing
@testable import ICalendar

/// Reads a fixture into components with the least parsing that serves these
/// tests (unfolding, NAME;PARAM=V:value); the module's real reader is
/// another part's work and is not leaned on here.
private func fixture(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ICalendarComponent {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "ics", subdirectory: "Fixtures/zones"),
                           "missing fixture zones/\(name).ics", sourceLocation: sourceLocation)
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines: [String] = []
    for raw in text.components(separatedBy: "\r\n") where !raw.isEmpty {
        if raw.hasPrefix(" "), !lines.isEmpty { lines[lines.count - 1] += raw.dropFirst() } else { lines.append(raw) }
    }
    var stack: [ICalendarComponent] = []
    var root: ICalendarComponent?
    for (number, line) in lines.enumerated() {
        let colon = try #require(line.firstIndex(of: ":"), sourceLocation: sourceLocation)
        let head = line[..<colon].split(separator: ";")
        let value = String(line[line.index(after: colon)...])
        let name = String(head[0])
        if name == "BEGIN" { stack.append(ICalendarComponent(name: value, line: number + 1)); continue }
        if name == "END" {
            let done = stack.removeLast()
            if stack.isEmpty { root = done } else { stack[stack.count - 1].components.append(done) }
            continue
        }
        let parameters = head.dropFirst().map { part -> ICalendarParameter in
            let pair = part.split(separator: "=", maxSplits: 1)
            return ICalendarParameter(String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
        }
        stack[stack.count - 1].properties.append(ICalendarProperty(name: name, parameters: parameters, value: value, line: number + 1))
    }
    return try #require(root, sourceLocation: sourceLocation)
}

private func instant(_ zone: String, _ wall: String) throws -> Int64 {
    let rules = try TimeZoneRules.named(zone)
    return rules.resolve(try #require(LocalDateTime(parsing: wall))).instant
}

@Suite("ICalendarZones")
struct ICalendarZonesTests {
    @Test("a Windows zone ID with Outlook's VTIMEZONE resolves to CLDR's main IANA zone")
    func windowsID() throws {
        let zones = ICalendarZones(calendar: try fixture("outlook"))
        #expect(try zones.zone(forTZID: "W. Europe Standard Time") == "Europe/Berlin")
        #expect(try zones.zone(forTZID: "China Standard Time") == "Asia/Shanghai")
        #expect(try zones.zone(forTZID: "Eastern Standard Time") == "America/New_York")
        #expect(try zones.zone(forTZID: "india standard time") == "Asia/Kolkata")
    }

    @Test("Outlook's display names resolve through the places they list, with or without a VTIMEZONE")
    func displayNames() throws {
        let zones = ICalendarZones(calendar: try fixture("outlook"), years: 2020...2030)
        #expect(try zones.zone(forTZID: "(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi") == "Asia/Shanghai")
        #expect(try zones.zone(forTZID: "(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna") == "Europe/Berlin")
        #expect(try zones.zone(forTZID: "(UTC-05:00) Eastern Time (US & Canada)") == "America/New_York")
    }

    @Test("Lightning's mozilla.org prefix and a leading slash are stripped to the IANA name")
    func mozillaPrefix() throws {
        let zones = ICalendarZones(calendar: try fixture("lightning"))
        #expect(try zones.zone(forTZID: "/mozilla.org/20050126_1/Europe/Berlin") == "Europe/Berlin")
        #expect(try zones.zone(forTZID: "/America/New_York") == "America/New_York")
        #expect(try zones.zone(forTZID: "/softwarestudio.org/Olson_20011030_5/Asia/Shanghai") == "Asia/Shanghai")
    }

    @Test("a custom TZID whose VTIMEZONE equals Europe/Berlin's rules resolves to Europe/Berlin")
    func customMatchingBerlin() throws {
        let zones = ICalendarZones(calendar: try fixture("custom"))
        #expect(try zones.zone(forTZID: "My Zone") == "Europe/Berlin")
    }

    /// Outlook writes 1601 as the start of a VTIMEZONE's rules; today's
    /// European rules have held only since 1996 (the autumn change was in
    /// September before) and today's American ones since 2007.
    @Test("Outlook's VTIMEZONEs of today's rules 'since 1601' under TZIDs of their own resolve to Europe/Berlin and America/New_York over their items' years, and to a POSIX rule when the items reach back to 1990")
    func customOutlookZonesOverTheItemsYears() throws {
        let calendar = try fixture("outlook-custom")
        let recent = ICalendarZones(calendar: calendar, itemYears: { 2026...2032 })
        #expect(try recent.zone(forTZID: "Customized Time Zone") == "Europe/Berlin")
        #expect(try recent.zone(forTZID: "Customized Time Zone 1") == "America/New_York")
        let reachingBack = ICalendarZones(calendar: calendar, itemYears: { 1990...2032 })
        #expect(try reachingBack.zone(forTZID: "Customized Time Zone") == "POSIX:<+0100>-1<+0200>,M3.5.0,M10.5.0/3")
        #expect(try reachingBack.zone(forTZID: "Customized Time Zone 1") == "POSIX:<-0500>5<-0400>,M3.2.0,M11.1.0")
        // Given years win over the items' (a caller that knows better).
        let given = ICalendarZones(calendar: calendar, years: 1990...2032, itemYears: { 2026...2032 })
        #expect(try given.zone(forTZID: "Customized Time Zone").hasPrefix("POSIX:"))
        // Knowing neither, the VTIMEZONE's own years (1970 on) are matched, as before.
        #expect(try ICalendarZones(calendar: calendar).zone(forTZID: "Customized Time Zone").hasPrefix("POSIX:"))
    }

    @Test("a VTIMEZONE that matches no IANA zone becomes a POSIX rule that reads wall times across its changes")
    func customPOSIX() throws {
        let zones = ICalendarZones(calendar: try fixture("custom"))
        let zone = try zones.zone(forTZID: "Nowhere Time")
        #expect(zone == "POSIX:NWST-3:45NWDT,M4.1.0,M9.5.0/3")
        // Inside the spring-forward gap: read on the offset before it, +03:45.
        #expect(try instant(zone, "2026-04-05T02:30:00") == 1_775_342_700) // 2026-04-04T22:45:00Z
        #expect(try instant(zone, "2026-07-01T12:00:00") == 1_782_890_100) // 2026-07-01T07:15:00Z
        // Inside the fall-back fold: the first of the two, +04:45.
        #expect(try instant(zone, "2026-09-27T02:30:00") == 1_790_459_100) // 2026-09-26T21:45:00Z
        #expect(try instant(zone, "2026-12-01T12:00:00") == 1_796_112_900) // 2026-12-01T08:15:00Z
        #expect(try zones.zone(forTZID: "Fixed Somewhere") == "POSIX:<+0317>-3:17")
        #expect(try instant("POSIX:<+0317>-3:17", "2026-12-01T11:17:00") == 1_796_112_000) // 2026-12-01T08:00:00Z
    }

    @Test("a VTIMEZONE whose offset changed before its latest state keeps those changes: a repeated hour reads first, a skipped one on the offset before")
    func customHistory() throws {
        // icalendar's issue_722 zone (+10, then +12 from 2024, then back to +10 at 08:00 on May 5), and a step up to +12 again in September.
        let lines = ["BEGIN:VCALENDAR", "BEGIN:VTIMEZONE", "TZID:MyTimezone",
                     "BEGIN:STANDARD", "TZOFFSETFROM:+1000", "TZOFFSETTO:+1200", "DTSTART:20240101T000000", "TZNAME:winter", "END:STANDARD",
                     "BEGIN:DAYLIGHT", "TZOFFSETFROM:+1200", "TZOFFSETTO:+1000", "DTSTART:20240505T080000", "TZNAME:summer", "END:DAYLIGHT",
                     "BEGIN:STANDARD", "TZOFFSETFROM:+1000", "TZOFFSETTO:+1200", "DTSTART:20240901T020000", "TZNAME:winter", "END:STANDARD",
                     "END:VTIMEZONE", "END:VCALENDAR"]
        let reading = try ICalendarReader().read(Array((lines.joined(separator: "\r\n") + "\r\n").utf8))
        let zones = ICalendarZones(calendar: try #require(reading.components.first), years: 2024...2030)
        let zone = try zones.zone(forTZID: "MyTimezone")
        #expect(zone == "POSIX:winter-12|36000|43200@1704031200|36000@1714852800|43200@1725120000", "\(zone)")
        #expect(try instant(zone, "2024-03-03T08:00:00") == 1_709_409_600) // 2024-03-02T20:00:00Z, on +12
        #expect(try instant(zone, "2024-08-03T08:00:00") == 1_722_636_000) // 2024-08-02T22:00:00Z, on +10
        // 06:00 to 08:00 on May 5 happens twice: the first, on +12 (RFC 5545 §3.3.5).
        #expect(try instant(zone, "2024-05-05T07:00:01") == 1_714_849_201) // 2024-05-04T19:00:01Z
        #expect(try instant(zone, "2024-05-05T08:00:01") == 1_714_860_001) // 2024-05-04T22:00:01Z, once, on +10
        // 02:00 to 04:00 on September 1 never happens: read on the offset before the gap, +10.
        #expect(try instant(zone, "2024-09-01T02:30:00") == 1_725_121_800) // 2024-08-31T16:30:00Z
        #expect(try instant(zone, "2026-01-01T12:00:00") == 1_767_225_600) // 2026-01-01T00:00:00Z, the latest rule's +12
        // The identifier reads back as the same zone, as a store holding it does.
        #expect(try TimeZoneRules.named(zone).changes(in: ICalendarZones.instants(2024...2030)).map(\.instant)
                == [1_704_031_200, 1_714_852_800, 1_725_120_000])
    }

    @Test("X-WR-TIMEZONE names the floating zone; a calendar without one has none")
    func floatingZone() throws {
        #expect(ICalendarZones(calendar: try fixture("custom")).floatingZone == "Asia/Shanghai")
        #expect(ICalendarZones(calendar: try fixture("lightning")).floatingZone == nil)
        let unknown = ICalendarComponent(name: "VCALENDAR", properties: [ICalendarProperty(name: "X-WR-TIMEZONE", value: "Mars/Olympus")])
        #expect(ICalendarZones(calendar: unknown).floatingZone == nil)
    }

    @Test("an unknown TZID with no VTIMEZONE is an error naming it")
    func unknownTZID() throws {
        let zones = ICalendarZones(calendar: try fixture("outlook"))
        let error = #expect(throws: ICalendarValueError.self) { try zones.zone(forTZID: "Planet Express Time") }
        #expect(error?.value == "Planet Express Time")
        #expect(error?.description.contains("is neither an IANA zone, a Windows zone, nor defined by a VTIMEZONE in the file") == true)
        // Cached answers, errors included, are the same the second time.
        #expect(throws: ICalendarValueError.self) { try zones.zone(forTZID: "Planet Express Time") }
    }

    @Test("the committed Windows table holds CLDR's main zones for well-known Windows IDs")
    func windowsTable() {
        #expect(WindowsZones.mainZone["China Standard Time"] == "Asia/Shanghai")
        #expect(WindowsZones.mainZone["W. Europe Standard Time"] == "Europe/Berlin")
        #expect(WindowsZones.mainZone["Eastern Standard Time"] == "America/New_York")
        // CLDR says Asia/Calcutta; the generator makes it tzdata's current name.
        #expect(WindowsZones.mainZone["India Standard Time"] == "Asia/Kolkata")
        #expect(WindowsZones.displayNames["(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi"] == "China Standard Time")
        #expect(WindowsZones.mainZone.count > 130)
    }

    @Test("TimeZoneRules refuses a POSIX: identifier that is not a POSIX rule")
    func badPOSIX() {
        #expect(throws: TimeZoneRulesError.self) { try TimeZoneRules.named("POSIX:not a rule") }
    }

    @Test("a generated VTIMEZONE read back gives the zone's offsets at every change, one second either side",
          arguments: ["Asia/Shanghai", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kolkata"])
    func exportRoundTrip(zone: String) throws {
        let years = 2010...2030
        let vtimezone = try #require(ICalendarZones.vtimezone(for: zone, years: years))
        #expect(vtimezone["TZID"]?.value == zone)
        let read = try ICalendarZones.rules(of: vtimezone, years: years)
        let rules = try TimeZoneRules.named(zone)
        let range = ICalendarZones.instants(years)
        let changes = rules.changes(in: (range.lowerBound + 86_400)...(range.upperBound - 86_400))
        for change in changes {
            for moment in [change.instant - 1, change.instant, change.instant + 1] {
                #expect(read.offset(at: moment) == rules.offset(at: moment), "\(zone) at \(moment)")
            }
        }
        #expect(read.offset(at: range.lowerBound + 86_400) == rules.offset(at: range.lowerBound + 86_400))
        if zone == "Asia/Shanghai" || zone == "Asia/Kolkata" {
            #expect(vtimezone.components.map(\.name) == ["STANDARD"])
        }
        if zone == "America/New_York" {
            #expect(vtimezone.components.contains { $0["RRULE"]?.value == "FREQ=YEARLY;BYMONTH=3;BYDAY=2SU" })
            // The POSIX rule made from it is the zone's own footer.
            #expect(ICalendarZones.posixRule(of: vtimezone) == "<-0500>5<-0400>,M3.2.0,M11.1.0")
        }
    }

    @Test("a generated VTIMEZONE covers its years from January 1 of the first, and writes out a rule no RRULE can hold through 2037")
    func exportCoverage() throws {
        // São Paulo in January 2018 was on summer time, which ended on 2018-02-18.
        let saoPaulo = try #require(ICalendarZones.vtimezone(for: "America/Sao_Paulo", years: 2018...2019))
        let first = try #require(saoPaulo.components.first)
        #expect(first.name == "DAYLIGHT")
        #expect(first["DTSTART"]?.value == "20180101T000000")
        #expect(first["TZOFFSETTO"]?.value == "-0200")
        #expect(saoPaulo.components.compactMap { $0["DTSTART"]?.value }.allSatisfy { $0 >= "20180101T000000" })

        // Cairo's summer ends at 24:00 on the last Thursday of October (M10.5.4/24): no RRULE holds it.
        let cairo = try #require(ICalendarZones.vtimezone(for: "Africa/Cairo", years: 2022...2027))
        #expect(!cairo.components.contains { $0["RRULE"] != nil })
        let starts = cairo.components.compactMap { $0["DTSTART"]?.value }
        #expect(starts.contains { $0.hasPrefix("2037") }, "\(starts)")
        let read = try ICalendarZones.rules(of: cairo, years: 2022...2037)
        let rules = try TimeZoneRules.named("Africa/Cairo")
        // Midsummer and midwinter of 2030 and 2037 (2030-07-01, 2030-01-01, 2037-07-01, 2037-01-01, all 00:00Z).
        for instant: Int64 in [1_909_094_400, 1_893_456_000, 2_130_019_200, 2_114_380_800] {
            #expect(read.offset(at: instant) == rules.offset(at: instant), "at \(instant)")
        }
        #expect(rules.offset(at: 2_130_019_200) == 3 * 3600)
    }
}
