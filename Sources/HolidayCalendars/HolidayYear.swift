import CalendarModel

/// One region's days off and makeup workdays as announced for one year: the
/// unit that is bundled, imported, replaced and hashed.
///
/// `year` is the year of the notice, not of every date: a notice may move
/// days of the previous December (the 2008 notice gave 2007-12-29 as a
/// makeup workday for 元旦), so entries may fall from December 1 of the year
/// before to December 31 of the year.
///
/// Values are checked when made: whatever reads a file (`CompactHolidayFormat`,
/// `HolidayCNJSON`, `HolidayCNICS`) or builds one by hand gets a year without
/// duplicates, out-of-range dates, weekday makeup workdays or nameless
/// entries, and never an empty year (that is `HolidayDataError.Kind.noData`).
public struct HolidayYear: Hashable, Sendable {
    /// The region code, lowercase (`cn`).
    public let region: String
    /// The notice year.
    public let year: Int
    /// One entry per date, in date order.
    public let entries: [HolidayEntry]
    /// The notices the entries come from, in the order they were issued
    /// (holiday-cn JSON gives their URLs only; ICS gives none).
    public let notices: [HolidayNotice]
    /// Where the data was read from.
    public let source: HolidaySource
    /// SHA-256, in lowercase hex, of the year's canonical compact form
    /// (`canonicalText`): the `region` and `year` lines and one line per
    /// holiday, without notices or comments. The same days give the same
    /// hash whichever format or file they came in, so an update can tell a
    /// changed year from a reformatted one.
    public let contentHash: String
    /// Entries of the file that were left out because they carry nothing:
    /// holiday-cn marks the day work resumes after an extended break as a
    /// workday although it is an ordinary weekday (2020-02-03, the Monday
    /// after the Spring Festival that the notice of 2020-01-26 prolonged to
    /// 2020-02-02). Only the holiday-cn readers set any; an importer may
    /// mention them.
    public let ignoredEntries: [HolidayEntry]

    /// Checks and builds a year from entries in any order. Errors name
    /// `source.location` and the date at fault.
    public init(region: String, year: Int, entries: [HolidayEntry], notices: [HolidayNotice] = [],
                source: HolidaySource, ignoredEntries: [HolidayEntry] = []) throws(HolidayDataError) {
        var builder = HolidayYearBuilder(file: source.location, region: region, year: year)
        for entry in entries {
            try builder.add(entry, at: .date(entry.date))
        }
        self = try builder.build(notices: notices, source: source, noDataLocation: .file, extraIgnored: ignoredEntries)
    }

    /// The validated parts, put together by `HolidayYearBuilder`.
    init(validatedRegion region: String, year: Int, sortedEntries: [HolidayEntry], notices: [HolidayNotice],
         source: HolidaySource, ignoredEntries: [HolidayEntry]) {
        self.region = region
        self.year = year
        entries = sortedEntries
        self.notices = notices
        self.source = source
        self.ignoredEntries = ignoredEntries
        contentHash = SHA256.hex(CompactHolidayFormat.canonicalText(region: region, year: year, entries: sortedEntries))
    }

    /// The entry on `date`, if the year has one.
    public subscript(date: CivilDate) -> HolidayEntry? {
        var low = 0, high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].date < date { low = middle + 1 } else { high = middle }
        }
        return low < entries.count && entries[low].date == date ? entries[low] : nil
    }

    public var offDayCount: Int { entries.count(where: \.isOffDay) }
    public var makeupWorkdayCount: Int { entries.count(where: { !$0.isOffDay }) }

    /// The year's canonical compact form, which `contentHash` digests.
    public var canonicalText: String { CompactHolidayFormat.canonicalText(region: region, year: year, entries: entries) }

    /// The dates a notice for `year` may give: December 1 of the year before
    /// (notices move days of the previous December) to December 31.
    public static func allowedDates(forYear year: Int) -> ClosedRange<CivilDate> {
        CivilDate(year: year - 1, month: 12, day: 1)!...CivilDate(year: year, month: 12, day: 31)!
    }
}

/// A date that is not an ordinary day: a day off, or a makeup workday
/// (调休补班), named after the holiday it belongs to.
public struct HolidayEntry: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let date: CivilDate
    /// True for a day off; false for a makeup workday.
    public let isOffDay: Bool
    /// The holiday's name as the notice gives it (`国庆节`, `中秋节、国庆节`).
    public let name: String

    public init(date: CivilDate, isOffDay: Bool, name: String) {
        self.date = date
        self.isOffDay = isOffDay
        self.name = name
    }

    public static func < (lhs: HolidayEntry, rhs: HolidayEntry) -> Bool { lhs.date < rhs.date }

    /// `2021-10-01 off 国庆节`.
    public var description: String { "\(date) \(isOffDay ? "off" : "work") \(name)" }
}

/// A notice of the State Council (or another region's authority) that a
/// year's entries come from.
public struct HolidayNotice: Hashable, Sendable {
    /// Its title (and number), as published.
    public let title: String?
    /// Where it is published.
    public let url: String?

    public init(title: String?, url: String?) {
        self.title = title
        self.url = url
    }
}

/// Where a year's data was read from.
public struct HolidaySource: Hashable, Sendable, CustomStringConvertible {
    public let format: HolidayFileFormat
    /// A path, a URL, or `bundled:cn.txt`.
    public let location: String

    public init(format: HolidayFileFormat, location: String) {
        self.format = format
        self.location = location
    }

    public var description: String { "\(location) (\(format.rawValue))" }
}

/// The file formats holiday data is read from.
public enum HolidayFileFormat: String, Hashable, Sendable, CaseIterable {
    /// Chime's own compact text (`share/holidays/cn.txt`); see `CompactHolidayFormat`.
    case compact
    /// holiday-cn's per-year JSON (`2021.json`); see `HolidayCNJSON`.
    case holidayCNJSON = "holiday-cn JSON"
    /// holiday-cn's per-year iCalendar file (`2021.ics`); see `HolidayCNICS`.
    case holidayCNICS = "holiday-cn ICS"
}
