import CalendarModel
import Foundation
import HolidayCalendars
import SQLiteDatabase

/// Workday calendars: the bundled holiday data, overridden year by year by
/// what was imported into the store, and each region's ordinary week.
extension CalendarStore {
    /// What an import did to one year.
    public struct HolidayYearChange: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// No data for the year before.
            case new
            /// Different days than before.
            case changed
            /// The same days (perhaps from another file or format): nothing written.
            case unchanged
        }

        public var region: String
        public var year: Int
        public var kind: Kind
        public var offDays: Int
        public var makeupWorkdays: Int
        public var notices: Int
        public var source: String

        /// `2027: new, 33 days off and 7 makeup workdays from 1 notice (2027.json)`.
        public var description: String {
            let notices = notices == 0 ? "" : " from \(notices) notice\(notices == 1 ? "" : "s")"
            return "\(year): \(kind.rawValue), \(offDays) days off and \(makeupWorkdays) makeup workdays\(notices) (\(source))"
        }
    }

    /// The region's years as they stand: bundled ones, with imported ones
    /// in their place, in year order.
    public func holidayYears(region: String = "cn") throws(StoreError) -> [HolidayYear] {
        var byYear: [Int: HolidayYear] = [:]
        do {
            for year in try HolidayData.bundled(region: region) ?? [] { byYear[year.year] = year }
        } catch {
            throw .unusable(path: "", reason: "the bundled holiday data is broken: \(error)")
        }
        for year in try importedHolidayYears(region: region) { byYear[year.year] = year }
        return byYear.values.sorted { $0.year < $1.year }
    }

    /// The years imported into this store.
    public func importedHolidayYears(region: String = "cn") throws(StoreError) -> [HolidayYear] {
        try StoreError.wrap {
            var days: [Int: [HolidayEntry]] = [:]
            try database.forEachRow("SELECT year, date, is_off_day, name FROM holiday_days WHERE region = ? ORDER BY year, date",
                                    [region]) { row in
                let text: String = try row.value(1)
                guard let date = CivilDate(parsing: text) else {
                    throw StoreError.damaged(item: "holiday \(region) \(try row.value(0) as Int)", reason: "date '\(text)'")
                }
                days[try row.value(0), default: []].append(HolidayEntry(date: date, isOffDay: try row.value(2), name: try row.value(3)))
                return true
            }
            return try database.query("SELECT * FROM holiday_years WHERE region = ? ORDER BY year", [region]).map { row in
                let year: Int = try row.value("year")
                let format = HolidayFileFormat(rawValue: try row.value("source_format")) ?? .compact
                let notices = (try row.value("notices") as String).split(separator: "\n").map { line in
                    let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                    return HolidayNotice(title: parts[0].isEmpty ? nil : parts[0], url: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil)
                }
                do {
                    return try HolidayYear(region: region, year: year, entries: days[year] ?? [], notices: notices,
                                           source: HolidaySource(format: format, location: try row.value("source_location")))
                } catch {
                    throw StoreError.damaged(item: "holiday \(region) \(year)", reason: "\(error)")
                }
            }
        }
    }

    /// Stores imported years, each replacing what the store held for its
    /// region and year, all in one transaction: an import that fails
    /// leaves every year as it was. A year whose days equal what is in
    /// force already (bundled or imported) is reported unchanged and not
    /// written.
    @discardableResult
    public func importHolidayYears(_ years: [HolidayYear]) throws(StoreError) -> [HolidayYearChange] {
        var current: [String: [Int: HolidayYear]] = [:]
        for region in Set(years.map(\.region)) {
            current[region] = Dictionary(uniqueKeysWithValues: try holidayYears(region: region).map { ($0.year, $0) })
        }
        let changes = years.map { year in
            let before = current[year.region]?[year.year]
            let kind: HolidayYearChange.Kind = before == nil ? .new : before?.contentHash == year.contentHash ? .unchanged : .changed
            return HolidayYearChange(region: year.region, year: year.year, kind: kind, offDays: year.offDayCount,
                                     makeupWorkdays: year.makeupWorkdayCount, notices: year.notices.count,
                                     source: year.source.location)
        }
        let toWrite = zip(years, changes).filter { $0.1.kind != .unchanged }.map(\.0)
        guard !toWrite.isEmpty else { return changes }
        let now = now().timeIntervalSince1970
        try perform(commit: true) { db in
            for year in toWrite {
                try db.execute("DELETE FROM holiday_years WHERE region = ? AND year = ?", [year.region, year.year])
                let notices = year.notices.map { ($0.title ?? "") + "\t" + ($0.url ?? "") }.joined(separator: "\n")
                try db.execute("""
                    INSERT INTO holiday_years (region, year, source_format, source_location, content_hash, notices, imported_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, [year.region, year.year, year.source.format.rawValue, year.source.location, year.contentHash, notices, now])
                for entry in year.entries {
                    try db.execute("INSERT INTO holiday_days (region, year, date, is_off_day, name) VALUES (?, ?, ?, ?, ?)",
                                   [year.region, year.year, entry.date.description, entry.isOffDay, entry.name])
                }
            }
        }
        workdayCalendars.removeAll()
        return changes
    }

    /// The ordinary week of a region's workday calendar: Monday to Friday
    /// unless set otherwise.
    public func ordinaryWeek(region: String = "cn") throws(StoreError) -> OrdinaryWeek {
        guard let text = try setting("week." + region) else { return OrdinaryWeek() }
        let days = text.split(separator: ",").compactMap { code in Weekday.allCases.first { $0.code == code } }
        return OrdinaryWeek(workingDays: Set(days))
    }

    public func setOrdinaryWeek(_ week: OrdinaryWeek, region: String = "cn") throws(StoreError) {
        try setSetting("week." + region, to: week.workingDays.sorted().map(\.code).joined(separator: ","))
        workdayCalendars.removeAll()
    }

    /// Where holiday data is fetched from when no source is named: by
    /// `chime holidays update`, and by chimed's daily look at the years that
    /// workday rules need.
    public enum HolidayUpdateSource: Hashable, Sendable {
        /// holiday-cn's own files (the default).
        case holidayCN
        /// A mirror's address or a folder, as the person gave it.
        case given(String)
        /// chimed does not fetch (`chime holidays update` still fetches from holiday-cn).
        case off
    }

    public func holidayUpdateSource() throws(StoreError) -> HolidayUpdateSource {
        switch try setting("holiday-source") {
        case nil: .holidayCN
        case "off": .off
        case let text?: .given(text)
        }
    }

    public func setHolidayUpdateSource(_ source: HolidayUpdateSource) throws(StoreError) {
        switch source {
        case .holidayCN: try setSetting("holiday-source", to: nil)
        case .off: try setSetting("holiday-source", to: "off")
        case .given(let text):
            guard text != "off", !text.isEmpty else {
                throw .invalid(ValidationError(field: "holiday source", value: text, reason: "is not an address or a folder"))
            }
            try setSetting("holiday-source", to: text)
        }
    }


    /// The workday calendar of a region as the store has it: bundled and
    /// imported years, the region's ordinary week. Built once per store
    /// and change: it is what every workday rule consults.
    public func workdayCalendar(region: String = "cn") throws(StoreError) -> WorkdayCalendar {
        let counter = try changeCounter()
        if let known = workdayCalendars[region], known.counter == counter { return known.calendar }
        let calendar = WorkdayCalendar(region: region, years: try holidayYears(region: region),
                                       ordinaryWeek: try ordinaryWeek(region: region), personalDays: try personalDays(),
                                       morningEnd: try morningEnd())
        workdayCalendars[region] = (counter, calendar)
        return calendar
    }

    /// The workday calendar a rule's workday part consults (its `X-REGION`,
    /// else China's); nil for a rule without one.
    func workdaySchedule(for rule: RecurrenceRule?) throws(StoreError) -> WorkdayCalendar? {
        guard let rule, rule.workdayRule != nil else { return nil }
        return try workdayCalendar(region: rule.workdayRegion ?? "cn")
    }

    /// Refuses a workday rule whose region has no data, bundled or imported.
    func validateWorkdayRegion(of rule: RecurrenceRule?) throws(StoreError) {
        guard let region = rule?.workdayRegion, !HolidayData.bundledRegions.contains(region) else { return }
        if try importedHolidayYears(region: region).isEmpty {
            throw .invalid(ValidationError(field: "recurrence rule", value: rule?.rfc5545 ?? "",
                                           reason: "names region \(region.uppercased()), which has no holiday data "
                                               + "(known: \(HolidayData.bundledRegions.map { $0.uppercased() }.joined(separator: ", ")))"))
        }
    }

    /// The regions that stored workday rules use (`X-REGION`, else `cn`).
    public func workdayRegionsInUse() throws(StoreError) -> Set<String> {
        try StoreError.wrap {
            var regions: Set<String> = []
            try database.forEachRow("SELECT DISTINCT rrule FROM items WHERE rrule LIKE '%X-WORKDAY=%' AND completed = 0") { row in
                let text: String = try row.value(0)
                let region = text.split(separator: ";").first { $0.uppercased().hasPrefix("X-REGION=") }.map { String($0.dropFirst(9)).lowercased() }
                regions.insert(region ?? "cn")
                return true
            }
            return regions
        }
    }
}
