import CalendarModel
import JSONValues

/// holiday-cn's per-year JSON (https://github.com/NateScarlet/holiday-cn):
///
///     {"year": 2021, "papers": ["http://www.gov.cn/…"],
///      "days": [{"name": "元旦", "date": "2021-01-01", "isOffDay": true}, …]}
///
/// `year` is the notice year, `papers` the notices' URLs, and each day is a
/// day off (`isOffDay: true`) or a makeup workday (`false`). Members other
/// than these (`$schema`, `$id`) are ignored. holiday-cn marks the day work
/// resumes after the prolonged 2020 Spring Festival (2020-02-03, a Monday)
/// as a workday; such a mark is set aside into `ignoredEntries`, while any
/// other makeup workday on Monday to Friday refuses the file.
public enum HolidayCNJSON {
    /// Reads one year. `expectedYear` (from the file name `2021.json`, or the
    /// year asked for) must match the file's `year` when given. A file with
    /// no days throws `.noData`.
    public static func parse(_ bytes: [UInt8], file: String, region: String = "cn",
                             expectedYear: Int? = nil) throws(HolidayDataError) -> HolidayYear {
        func fail(_ location: HolidayDataError.Location, _ kind: HolidayDataError.Kind, _ reason: String,
                  year: Int? = nil) -> HolidayDataError {
            HolidayDataError(file: file, location: location, kind: kind, reason: reason, year: year ?? expectedYear)
        }
        let root: JSONValue
        do {
            root = try JSONValue.parse(bytes)
        } catch {
            throw fail(.line(error.line), .syntax, "not valid JSON at column \(error.column): \(error.reason)")
        }
        guard case .object(let members) = root else {
            throw fail(.file, .syntax, "expected a JSON object with 'year', 'papers' and 'days', found \(root.typeName)")
        }

        guard let yearValue = members["year"] else { throw fail(.file, .syntax, "the member 'year' is missing") }
        guard case .number(let number) = yearValue, let year = Int(exactly: number), (1000...9999).contains(year) else {
            throw fail(.file, .syntax, "'year' is \(yearValue.typeName), not a four-digit year")
        }
        if let expectedYear, expectedYear != year {
            throw fail(.file, .yearMismatch, "the file holds year \(year), but \(expectedYear) was expected (from its name)", year: year)
        }

        var notices: [HolidayNotice] = []
        switch members["papers"] {
        case nil:
            throw fail(.file, .syntax, "the member 'papers' is missing", year: year)
        case .array(let papers):
            for (index, paper) in papers.enumerated() {
                guard case .string(let url) = paper, !url.isEmpty else {
                    throw fail(.file, .syntax, "papers[\(index)] is \(paper.typeName), not a URL", year: year)
                }
                notices.append(HolidayNotice(title: nil, url: url))
            }
        case let other?:
            throw fail(.file, .syntax, "'papers' is \(other.typeName), not an array of URLs", year: year)
        }

        guard let daysValue = members["days"] else { throw fail(.file, .syntax, "the member 'days' is missing", year: year) }
        guard case .array(let days) = daysValue else {
            throw fail(.file, .syntax, "'days' is \(daysValue.typeName), not an array", year: year)
        }
        var builder = HolidayYearBuilder(file: file, region: region, year: year)
        builder.setsAsideResumptionMarks = true
        for (index, day) in days.enumerated() {
            guard case .object(let fields) = day else {
                throw fail(.entry(index), .syntax, "an entry is \(day.typeName), not an object with name, date and isOffDay", year: year)
            }
            guard let dateValue = fields["date"] else { throw fail(.entry(index), .syntax, "the entry has no 'date'", year: year) }
            guard case .string(let dateText) = dateValue, dateText.count == 10, let date = CivilDate(parsing: dateText) else {
                let shown = if case .string(let text) = dateValue { "'\(text)'" } else { dateValue.typeName }
                throw fail(.entry(index), .invalidDate, "the date \(shown) is not a date in the form YYYY-MM-DD", year: year)
            }
            let isOffDay: Bool
            switch fields["isOffDay"] {
            case .bool(let value)?: isOffDay = value
            case nil: throw fail(.date(date), .syntax, "the entry has no 'isOffDay' (days[\(index)])", year: year)
            case let other?:
                throw fail(.date(date), .unknownKeyword, "'isOffDay' is \(other.typeName), not true (day off) or false (makeup workday) (days[\(index)])",
                           year: year)
            }
            let name: String
            switch fields["name"] {
            case .string(let text)?: name = text
            case nil: name = ""
            case let other?: throw fail(.date(date), .missingName, "'name' is \(other.typeName), not a holiday name (days[\(index)])", year: year)
            }
            do {
                try builder.add(HolidayEntry(date: date, isOffDay: isOffDay, name: name), at: .date(date), label: "days[\(index)]")
            } catch {
                // The builder names the date; add the index so that a
                // duplicate's second occurrence can be found too.
                throw HolidayDataError(file: file, location: error.location, kind: error.kind,
                                       reason: error.reason + " (days[\(index)])", year: year)
            }
        }
        return try builder.build(notices: notices, source: HolidaySource(format: .holidayCNJSON, location: file),
                                 noDataLocation: .file)
    }
}
