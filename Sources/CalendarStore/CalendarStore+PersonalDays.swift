import CalendarModel
import HolidayCalendars
import SQLiteDatabase

/// The person's own days: days of leave and days worked, which every
/// region's workday calendar takes (`WorkdayCalendar`), so that workday
/// rules pass over the first as they pass over holidays and ring on the
/// second as on makeup workdays.
extension CalendarStore {
    /// The most days one call adds or removes: a year at a time, so that a
    /// mistyped end (`--to 2062-…`) cannot fill the table.
    public static let personalDaySpanLimit = 366
    /// The years a personal day may fall in.
    public static let personalDayYears = 1970...2199

    /// The personal days in date order: those in `range` (nil: all), of
    /// `kinds` (`[]`: both).
    public func personalDays(in range: ClosedRange<CivilDate>? = nil, kinds: Set<PersonalDay.Kind> = []) throws(StoreError) -> [PersonalDay] {
        try StoreError.wrap {
            guard let table = try personalDaysTable() else { return [] }
            let low = range?.lowerBound.description ?? "0000-00-00", high = range?.upperBound.description ?? "9999-99-99"
            return try database.query("SELECT date, kind, name, half FROM \(table) WHERE date BETWEEN ? AND ? ORDER BY date", [low, high])
                .compactMap { row in
                    guard let date = CivilDate(parsing: try row.value(0) as String),
                          let kind = PersonalDay.Kind(rawValue: try row.value(1)) else { return nil }
                    let half = try (row.value(3) as String?).flatMap(DayHalf.init(rawValue:))
                    return kinds.isEmpty || kinds.contains(kind) ? PersonalDay(date: date, kind: kind, name: try row.value(2), half: half) : nil
                }
        }
    }

    /// The last minute of the person's morning, in minutes after midnight
    /// (`DayHalf`): 12:00 unless set.
    public func morningEnd() throws(StoreError) -> Int {
        try setting("morning-end").flatMap { Int($0) }.map { min(max($0, 0), DayHalf.latestMorningEnd) } ?? DayHalf.defaultMorningEnd
    }

    /// Sets the morning's last minute (`minutes` after midnight, at most
    /// `DayHalf.latestMorningEnd`), by which half days are divided.
    public func setMorningEnd(_ minutes: Int) throws(StoreError) {
        guard (0...DayHalf.latestMorningEnd).contains(minutes) else {
            throw .invalid(ValidationError(field: "morning end", value: String(minutes), reason: "is not a minute from 00:00 to 23:58"))
        }
        try setSetting("morning-end", to: String(minutes))
        workdayCalendars.removeAll()
    }

    /// The workdays of leave a year allows the person (年假), halves
    /// included; nil when none is set.
    public func leaveAllowance() throws(StoreError) -> Double? {
        try setting("leave-allowance").flatMap { Double($0) }
    }

    /// Sets (nil: unsets) the workdays of leave a year allows: 0 to 366, in halves.
    public func setLeaveAllowance(_ days: Double?) throws(StoreError) {
        guard let days else { return try setSetting("leave-allowance", to: nil) }
        guard days.isFinite, (0...366).contains(days), (days * 2).rounded() == days * 2 else {
            throw .invalid(ValidationError(field: "leave allowance", value: String(days), reason: "is not 0 to 366 days in halves"))
        }
        try setSetting("leave-allowance", to: String(days))
    }

    /// Makes the days of `range` personal days of `kind`, named `name` (a
    /// day already of that kind gets the new name; nil keeps its own, or
    /// none for a day new to the kind), for `half` of each day (nil: the
    /// whole day; a day given again takes the new half). A day of the other
    /// kind changes kind: a date is one or the other. Returns the days that
    /// were not of `kind` and `half` before. At most `personalDaySpanLimit`
    /// days, within `personalDayYears`.
    @discardableResult
    public func addPersonalDays(_ range: ClosedRange<CivilDate>, kind: PersonalDay.Kind, half: DayHalf? = nil,
                                name: String? = nil) throws(StoreError) -> Int {
        try Self.checkPersonalDays(range)
        let before = try personalDays(in: range, kinds: [kind]).count { $0.half == half }
        let added = Double(now().timeIntervalSince1970)
        try perform(commit: true) { db in
            for day in range.lowerBound.dayNumber...range.upperBound.dayNumber {
                try db.execute("""
                    INSERT INTO personal_days (date, kind, name, added_at, half) VALUES (?1, ?2, coalesce(?3, ''), ?4, ?5)
                    ON CONFLICT(date) DO UPDATE SET name = coalesce(?3, CASE WHEN kind = ?2 THEN name ELSE '' END), kind = ?2,
                        added_at = CASE WHEN kind = ?2 THEN added_at ELSE ?4 END, half = ?5
                    """, [CivilDate(dayNumber: day).description, kind.rawValue, name, added, half?.rawValue])
            }
        }
        workdayCalendars.removeAll()
        return range.upperBound.dayNumber - range.lowerBound.dayNumber + 1 - before
    }

    /// Gives back the personal days of `kind` in `range`; returns how many
    /// there were. Days of the other kind stay.
    @discardableResult
    public func removePersonalDays(_ range: ClosedRange<CivilDate>, kind: PersonalDay.Kind) throws(StoreError) -> Int {
        try Self.checkPersonalDays(range)
        let taken = try personalDays(in: range, kinds: [kind]).count
        guard taken > 0 else { return 0 }
        try perform(commit: true) { db in
            try db.execute("DELETE FROM personal_days WHERE date BETWEEN ? AND ? AND kind = ?",
                           [range.lowerBound.description, range.upperBound.description, kind.rawValue])
        }
        workdayCalendars.removeAll()
        return taken
    }

    private static func checkPersonalDays(_ range: ClosedRange<CivilDate>) throws(StoreError) {
        let days = range.upperBound.dayNumber - range.lowerBound.dayNumber + 1
        guard days <= personalDaySpanLimit else {
            throw .invalid(ValidationError(field: "span", value: "\(range.lowerBound)…\(range.upperBound)",
                                           reason: "is \(days) days; give at most \(personalDaySpanLimit) at a time"))
        }
        for date in [range.lowerBound, range.upperBound] where !personalDayYears.contains(date.year) {
            throw .invalid(ValidationError(field: "date", value: date.description,
                                           reason: "is outside the years \(personalDayYears.lowerBound)–\(personalDayYears.upperBound)"))
        }
    }

    /// What to read (date, kind, name, half) from; nil when there is
    /// nothing: a store opened read-only cannot be migrated, and one last
    /// written before v21 holds whole days alone, before v19 leave alone,
    /// before v18 nothing.
    func personalDaysTable() throws -> String? {
        guard isReadOnly else { return "personal_days" }
        let tables = try database.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('personal_days', 'leave_days')")
            .map { row in try row.value(0) as String }
        if tables.contains("personal_days") {
            let halves: Int = try database.scalar("SELECT count(*) FROM pragma_table_info('personal_days') WHERE name = 'half'") ?? 0
            return halves > 0 ? "personal_days" : "(SELECT date, kind, name, NULL AS half FROM personal_days)"
        }
        if tables.contains("leave_days") { return "(SELECT date, 'leave' AS kind, name, NULL AS half FROM leave_days)" }
        return nil
    }
}
