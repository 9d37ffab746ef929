import CalendarExchange
import CalendarModel
import CalendarStore
import Foundation
import TestSupport
import Testing

@Suite("Other projects' test calendars")
struct PackageCalendarsTests {
    /// Chime's occurrence starts of an imported file, as the oracle writes them.
    static func starts(_ file: String, in range: Range<Date>) throws -> (faults: Int, starts: [String])? {
        let store = try CalendarStore(path: ":memory:", machineTimeZone: .utc)
        guard let bytes = try? CalendarImport.bytes(of: file),
              let plan = try? CalendarImport.plan(bytes, source: file, defaultCalendar: try store.defaultCalendarForNewEvents(), store: store)
        else { return nil }
        guard plan.faults.isEmpty, (try? CalendarImport.apply([plan], store: store)) != nil else { return (plan.faults.count, []) }
        let events = try store.events(overlapping: range)
        let starts = try events.map { event -> String in
            switch event.start {
            case .date(let day): return Oracles.Moment.date(day).description
            case .floating(let time): return Oracles.Moment.floating(time).description
            case .zoned(let time, let zone, let fold): return Oracles.Moment.instant(try TimeZoneRules.named(zone).resolve(time, fold: fold).instant).description
            }
        }
        return (0, starts.sorted())
    }

    @Test("icalendar's and recurring-ical-events' own test calendars import without a crash, and where both read one, the occurrences mostly agree")
    func differential() throws {
        let files = try Oracles.testCalendars(of: "icalendar") + Oracles.testCalendars(of: "recurring-ical-events")
        #expect(files.count > 150, "only \(files.count) calendars")
        let range = Date(timeIntervalSince1970: RFC3339.instant("1990-01-01T00:00:00Z")!)..<Date(timeIntervalSince1970: RFC3339.instant("2035-01-01T00:00:00Z")!)
        var agreed: [String] = [], differed: [String] = [], refusedByChime: [String] = [], refusedByOracle: [String] = []
        for file in files {
            let name = URL(fileURLWithPath: file).deletingLastPathComponent().lastPathComponent + "/" + URL(fileURLWithPath: file).lastPathComponent
            guard let ours = try Self.starts(file, in: range), ours.faults == 0 else { refusedByChime.append(name); continue }
            guard let theirs = try Oracles.expandIfReadable(file, from: "1990-01-01", to: "2035-01-01") else { refusedByOracle.append(name); continue }
            if theirs.map(\.start.description).sorted() == ours.starts { agreed.append(name) } else { differed.append(name) }
        }
        let summary = "agreed \(agreed.count), differed \(differed.count): \(differed), Chime refused \(refusedByChime.count), oracle refused \(refusedByOracle.count)"
        print("package calendars: " + summary)
        // Measured 2026-12-02 (icalendar 7.3.2, recurring-ical-events 3.8.2):
        // 125 agree. These differ and are known, each to be looked into (see
        // the stop's note); a new disagreement fails here.
        let known: Set<String> = [
            "calendars/issue_1231_recurrence.ics", "calendars/issue_1633_rdate_with_dates.ics",
            "calendars/issue_1633_rdate_with_dates_and_tzid.ics", "calendars/issue_722_timezone_transition_ambiguity.ics",
            "calendars/issue_117_until_before_dtstart.ics", "calendars/issue_173_only_modifications_error.ics",
            "calendars/issue_253_additional_recurrence_id.ics",
        ]
        #expect(agreed.count >= 125, "\(summary)")
        #expect(Set(differed).isSubset(of: known), "\(summary)")
    }
}
