import CalendarModel

/// The checks every reader shares, applied entry by entry as a file is read
/// so that the first fault is reported where it is.
///
/// Entries come in notice blocks: a date may appear once per notice, and a
/// later notice of the same year replaces an earlier one's entry for a date
/// (2019: the notice of March 22 made 劳动节 four days instead of one).
struct HolidayYearBuilder {
    let file: String
    let region: String
    let year: Int
    /// Whether a Monday-to-Friday makeup workday right after the holiday's
    /// days off is set aside as holiday-cn's "work resumes" mark instead of
    /// being refused (see `HolidayYear.ignoredEntries`). Chime's own format
    /// has no such mark and refuses it.
    var setsAsideResumptionMarks = false

    private let allowed: ClosedRange<CivilDate>
    private var entries: [CivilDate: HolidayEntry] = [:]
    /// Where each date was given in the current notice block, for the message
    /// about a duplicate.
    private var blockLabels: [CivilDate: String] = [:]
    private var weekdayWorkMarks: [(entry: HolidayEntry, location: HolidayDataError.Location)] = []

    init(file: String, region: String, year: Int) {
        self.file = file
        self.region = region
        self.year = year
        allowed = HolidayYear.allowedDates(forYear: year)
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Starts the entries of another notice, which may override earlier ones.
    mutating func startNotice() {
        blockLabels.removeAll()
    }

    /// `label` names the place for a later duplicate's message: `line 12`, `days[3]`.
    mutating func add(_ entry: HolidayEntry, at location: HolidayDataError.Location, label: String? = nil) throws(HolidayDataError) {
        let date = entry.date
        guard !entry.name.allSatisfy(\.isWhitespace) else {
            throw HolidayDataError(file: file, location: location, kind: .missingName,
                                   reason: "the \(entry.isOffDay ? "day off" : "makeup workday") \(date) has no holiday name", year: year)
        }
        guard allowed.contains(date) else {
            throw HolidayDataError(file: file, location: location, kind: .outOfRange,
                                   reason: "\(date) is outside the notice year \(year), which gives dates from \(allowed.lowerBound) to \(allowed.upperBound)",
                                   year: year)
        }
        if let first = blockLabels[date] {
            throw HolidayDataError(file: file, location: location, kind: .duplicateDate,
                                   reason: "\(date) appears twice (first at \(first))", year: year)
        }
        if !entry.isOffDay, Self.isMondayToFriday(date) {
            guard setsAsideResumptionMarks else { throw weekdayMakeup(entry, at: location) }
            weekdayWorkMarks.append((entry, location))
        }
        blockLabels[date] = label ?? Self.label(location)
        entries[date] = entry
    }

    /// The finished year; `.noData` when no entry was given at all.
    func build(notices: [HolidayNotice], source: HolidaySource, noDataLocation: HolidayDataError.Location,
               extraIgnored: [HolidayEntry] = []) throws(HolidayDataError) -> HolidayYear {
        var entries = self.entries
        var ignored = extraIgnored
        for (mark, location) in weekdayWorkMarks where entries[mark.date] == mark {
            guard resumesWork(mark, in: entries) else { throw weekdayMakeup(mark, at: location) }
            entries[mark.date] = nil
            ignored.append(mark)
        }
        guard !entries.isEmpty else {
            throw HolidayDataError(file: file, location: noDataLocation, kind: .noData,
                                   reason: "no data for \(year): no days off or makeup workdays are listed (is the notice out yet?)",
                                   year: year)
        }
        return HolidayYear(validatedRegion: region, year: year, sortedEntries: entries.values.sorted(), notices: notices,
                           source: source, ignoredEntries: ignored.sorted())
    }

    /// A weekday marked as worked directly after the holiday's last day off,
    /// with at most a weekend between: the notice's "X日起正常上班".
    private func resumesWork(_ mark: HolidayEntry, in entries: [CivilDate: HolidayEntry]) -> Bool {
        var day = mark.date.adding(days: -1)
        var steps = 0
        // At most a Saturday and a Sunday to step over.
        while steps < 2, entries[day] == nil, !Self.isMondayToFriday(day) {
            day = day.adding(days: -1)
            steps += 1
        }
        guard let previous = entries[day] else { return false }
        return previous.isOffDay && previous.name == mark.name
    }

    private func weekdayMakeup(_ entry: HolidayEntry, at location: HolidayDataError.Location) -> HolidayDataError {
        HolidayDataError(file: file, location: location, kind: .makeupOnWeekday,
                         reason: "a makeup workday on \(Self.weekdayName(entry.date)) \(entry.date), which is a workday anyway",
                         year: year)
    }

    static func isMondayToFriday(_ date: CivilDate) -> Bool {
        let weekday = date.weekday
        return weekday != .saturday && weekday != .sunday
    }

    static func weekdayName(_ date: CivilDate) -> String {
        ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][date.weekday.rawValue]
    }

    static func label(_ location: HolidayDataError.Location) -> String {
        switch location {
        case .file: "an earlier entry"
        case .line(let line): "line \(line)"
        case .date(let date): "an entry for \(date)"
        case .entry(let index): "days[\(index)]"
        }
    }
}
