import CalendarModel
import HolidayCalendars
import SQLiteDatabase

/// The person's days of leave: days off that every region's workday
/// calendar takes (`WorkdayCalendar`), so that workday rules pass over
/// them as they pass over holidays.
extension CalendarStore {
    /// The most days one call adds or removes: a year of leave at a time,
    /// so that a mistyped end (`--to 2062-…`) cannot fill the table.
    public static let leaveSpanLimit = 366
    /// The years a day of leave may fall in.
    public static let leaveYears = 1970...2199

    /// The days of leave, in date order; with `range`, those in it.
    public func leaveDays(in range: ClosedRange<CivilDate>? = nil) throws(StoreError) -> [LeaveDay] {
        try StoreError.wrap {
            // A store opened read-only, last written before leave came, has no table for it: no leave.
            guard try hasLeaveTable() else { return [] }
            let low = range?.lowerBound.description ?? "0000-00-00", high = range?.upperBound.description ?? "9999-99-99"
            return try database.query("SELECT date, name FROM leave_days WHERE date BETWEEN ? AND ? ORDER BY date", [low, high])
                .compactMap { row in
                    guard let date = CivilDate(parsing: try row.value(0) as String) else { return nil }
                    return LeaveDay(date: date, name: try row.value(1))
                }
        }
    }

    /// Takes the days of `range` as leave, named `name` (a day already
    /// taken gets the new name; nil keeps its own, or none for a new day).
    /// Returns the days that were not leave before. At most
    /// `leaveSpanLimit` days, within `leaveYears`.
    @discardableResult
    public func addLeave(_ range: ClosedRange<CivilDate>, name: String? = nil) throws(StoreError) -> Int {
        try Self.checkLeave(range)
        let before = try leaveDays(in: range).count
        let added = Double(now().timeIntervalSince1970)
        try perform(commit: true) { db in
            for day in range.lowerBound.dayNumber...range.upperBound.dayNumber {
                try db.execute("""
                    INSERT INTO leave_days (date, name, added_at) VALUES (?1, coalesce(?2, ''), ?3)
                    ON CONFLICT(date) DO UPDATE SET name = coalesce(?2, name)
                    """, [CivilDate(dayNumber: day).description, name, added])
            }
        }
        workdayCalendars.removeAll()
        return range.upperBound.dayNumber - range.lowerBound.dayNumber + 1 - before
    }

    /// Gives back the days of leave in `range`; returns how many there were.
    @discardableResult
    public func removeLeave(_ range: ClosedRange<CivilDate>) throws(StoreError) -> Int {
        try Self.checkLeave(range)
        let taken = try leaveDays(in: range).count
        guard taken > 0 else { return 0 }
        try perform(commit: true) { db in
            try db.execute("DELETE FROM leave_days WHERE date BETWEEN ? AND ?", [range.lowerBound.description, range.upperBound.description])
        }
        workdayCalendars.removeAll()
        return taken
    }

    private static func checkLeave(_ range: ClosedRange<CivilDate>) throws(StoreError) {
        let days = range.upperBound.dayNumber - range.lowerBound.dayNumber + 1
        guard days <= leaveSpanLimit else {
            throw .invalid(ValidationError(field: "leave", value: "\(range.lowerBound)…\(range.upperBound)",
                                           reason: "is \(days) days; give at most \(leaveSpanLimit) at a time"))
        }
        for date in [range.lowerBound, range.upperBound] where !leaveYears.contains(date.year) {
            throw .invalid(ValidationError(field: "leave", value: date.description,
                                           reason: "is outside the years \(leaveYears.lowerBound)–\(leaveYears.upperBound)"))
        }
    }

    func hasLeaveTable() throws -> Bool {
        guard isReadOnly else { return true }
        return try database.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'leave_days'", as: Int.self) == 1
    }
}
