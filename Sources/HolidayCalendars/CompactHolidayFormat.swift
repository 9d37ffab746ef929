import CalendarModel

/// Chime's own text format for holiday data, written to be checked line by
/// line against the notices it comes from:
///
///     # comment
///     region cn
///     year 2021
///     notice 国务院办公厅关于2021年部分节假日安排的通知 http://www.gov.cn/zhengce/content/2020-11/25/content_5564127.htm
///     元旦 off 01-01..01-03
///     春节 off 02-11..02-17 work 02-07 02-20
///
/// - Blank lines and lines starting with `#` are ignored; tokens are
///   separated by spaces or tabs.
/// - `region CODE` (lowercase letters, digits, `-`) applies to the `year`
///   sections after it; a file may hold several regions and many years.
/// - `year YYYY` starts the section of a notice year. A year appears once per
///   region, and has at least one day: a year whose notice is not out is left
///   out, not written empty.
/// - `notice [TITLE] [URL]` names a notice of that year (the URL is the last
///   token when it starts with `http://` or `https://`; the title may hold
///   spaces). Holiday lines after it are that notice's. A date appears once
///   per notice; a later notice of the same year overrides an earlier one's
///   entry for a date, as the State Council's amending notices do.
/// - A holiday line is `NAME` (one token) followed by `off DATES` (days off)
///   and/or `work DATES` (makeup workdays), in any order. `DATES` is one or
///   more of `D` or `D..D`, an inclusive range. `D` is `MM-DD` in the
///   section's year or `YYYY-MM-DD` in another (a notice may give days of the
///   previous December).
///
/// Every date must lie between December 1 of the previous year and December
/// 31 of the section's year, and a makeup workday must fall on a Saturday or
/// Sunday. A file that breaks any rule is refused whole, naming the line.
///
/// `write` produces the canonical form: per year, the notices first, then
/// one line per holiday (days off, then makeup workdays, each as ranges) in
/// the order of the holiday's first date. Reading what was written gives the
/// same years back; a year it could not give back (a holiday name that is
/// not one token, a notice whose URL the reader would split) is refused.
public enum CompactHolidayFormat {
    /// Why `write` refused: what it could not write so that it reads back.
    public struct Unwritable: Error, Equatable, CustomStringConvertible {
        public let region: String
        public let year: Int
        public let reason: String

        public var description: String { "region \(region), year \(year): \(reason)" }
    }

    /// The words the reader takes as keywords where a holiday's name stands.
    static let keywords: Set<Substring> = ["region", "year", "notice", "off", "work"]

    /// Every year in `text`, in file order. `file` names the file in errors
    /// and in each year's `source`.
    public static func parse(_ text: String, file: String) throws(HolidayDataError) -> [HolidayYear] {
        var parser = Parser(file: file)
        var lineNumber = 0
        // "\r\n" is one Character in Swift, so it is a separator of its own.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = Substring(rawLine)
            if lineNumber == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            try parser.read(line, number: lineNumber)
        }
        return try parser.finish()
    }

    /// Reads the bytes of a file, which must be UTF-8.
    public static func parse(_ bytes: [UInt8], file: String) throws(HolidayDataError) -> [HolidayYear] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw HolidayDataError(file: file, location: .file, kind: .unreadable, reason: "the file is not UTF-8 text")
        }
        return try parse(text, file: file)
    }

    /// The canonical text of `years`, with a `region` line wherever the
    /// region changes and a blank line between years. `header` lines are
    /// written first, each prefixed with `# `.
    /// A notice title's runs of spaces, tabs and line breaks become one space
    /// each, as the reader would read them back; a header line with a line
    /// break becomes several comment lines.
    public static func write(_ years: [HolidayYear], header: [String] = []) throws(Unwritable) -> String {
        var lines = header.flatMap { $0.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) }
            .map { $0.isEmpty ? "#" : "# " + $0 }
        var region: String?
        for year in years {
            func refuse(_ reason: String) -> Unwritable { Unwritable(region: year.region, year: year.year, reason: reason) }
            if !lines.isEmpty { lines.append("") }
            if year.region != region {
                guard Parser.isRegionCode(Substring(year.region)) else { throw refuse("the region code is not lowercase letters, digits and '-'") }
                lines.append("region \(year.region)")
                region = year.region
            }
            lines.append("year \(year.year)")
            for notice in year.notices {
                let title = notice.title.map { tokens(of: Substring($0), splittingLines: true).joined(separator: " ") }
                if let url = notice.url {
                    guard tokens(of: Substring(url), splittingLines: true) == [Substring(url)], isLink(Substring(url)) else {
                        throw refuse("the notice URL '\(url)' is not one token starting with http:// or https://")
                    }
                } else if let last = title.flatMap({ tokens(of: Substring($0)).last }), isLink(last) {
                    throw refuse("the notice title '\(title!)' ends in a link, which would be read as its URL")
                }
                let parts = ["notice"] + [title, notice.url].compactMap { $0 }.filter { !$0.isEmpty }
                guard parts.count > 1 else { throw refuse("a notice has neither a title nor a URL") }
                lines.append(parts.joined(separator: " "))
            }
            if let name = year.entries.lazy.map(\.name).first(where: { !canWrite(name: $0) }) {
                throw refuse("the holiday name '\(name)' is not one token that is no keyword and starts without '#'")
            }
            lines += holidayLines(year: year.year, entries: year.entries)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Whether a holiday line written with `name` reads back as that name:
    /// one token of the reader's, not a keyword, not a comment.
    public static func canWrite(name: String) -> Bool {
        tokens(of: Substring("x \(name) off"), splittingLines: true) == ["x", Substring(name), "off"]
            && !keywords.contains(Substring(name)) && !name.hasPrefix("#")
    }

    /// A line's tokens, as the reader splits them (on spaces and tabs; with
    /// `splittingLines`, on line breaks too, which end a line when read).
    static func tokens(of line: Substring, splittingLines: Bool = false) -> [Substring] {
        line.split(whereSeparator: { $0 == " " || $0 == "\t" || (splittingLines && $0.isNewline) })
    }

    static func isLink(_ token: Substring) -> Bool { token.hasPrefix("http://") || token.hasPrefix("https://") }

    /// What `HolidayYear.contentHash` digests: the region, the year and the
    /// holiday lines, one per line, each line ending in `\n`.
    static func canonicalText(region: String, year: Int, entries: [HolidayEntry]) -> String {
        (["region \(region)", "year \(year)"] + holidayLines(year: year, entries: entries)).map { $0 + "\n" }.joined()
    }

    /// One line per holiday name, in the order of each name's first date.
    static func holidayLines(year: Int, entries: [HolidayEntry]) -> [String] {
        var order: [String] = []
        var byName: [String: [HolidayEntry]] = [:]
        for entry in entries.sorted() {
            if byName[entry.name] == nil { order.append(entry.name) }
            byName[entry.name, default: []].append(entry)
        }
        return order.map { name in
            let group = byName[name]!
            var parts = [name]
            for isOffDay in [true, false] {
                let dates = group.filter { $0.isOffDay == isOffDay }.map(\.date)
                guard !dates.isEmpty else { continue }
                parts.append(isOffDay ? "off" : "work")
                parts += ranges(dates).map { range in
                    range.lowerBound == range.upperBound
                        ? text(range.lowerBound, year: year)
                        : text(range.lowerBound, year: year) + ".." + text(range.upperBound, year: year)
                }
            }
            return parts.joined(separator: " ")
        }
    }

    /// Sorted dates as runs of consecutive days.
    private static func ranges(_ dates: [CivilDate]) -> [ClosedRange<CivilDate>] {
        var result: [ClosedRange<CivilDate>] = []
        for date in dates {
            if let last = result.last, last.upperBound.adding(days: 1) == date {
                result[result.count - 1] = last.lowerBound...date
            } else {
                result.append(date...date)
            }
        }
        return result
    }

    private static func text(_ date: CivilDate, year: Int) -> String {
        date.year == year ? String(date.description.dropFirst(5)) : date.description
    }

    private struct Parser {
        let file: String
        var region: String?
        var years: [HolidayYear] = []
        /// The line of each (region, year) section, to refuse a second one.
        var sectionLines: [String: Int] = [:]
        var section: Section?

        struct Section {
            var builder: HolidayYearBuilder
            var notices: [HolidayNotice] = []
            let line: Int
        }

        init(file: String) { self.file = file }

        func error(_ line: Int, _ kind: HolidayDataError.Kind, _ reason: String) -> HolidayDataError {
            HolidayDataError(file: file, location: .line(line), kind: kind, reason: reason, year: section?.builder.year)
        }

        mutating func read(_ line: Substring, number: Int) throws(HolidayDataError) {
            let tokens = CompactHolidayFormat.tokens(of: line)
            guard let first = tokens.first, !first.hasPrefix("#") else { return }
            switch first {
            case "region":
                guard tokens.count == 2, Self.isRegionCode(tokens[1]) else {
                    throw error(number, .syntax, "expected 'region CODE' with a code of lowercase letters, digits and '-' (like 'region cn')")
                }
                try finishSection()
                region = String(tokens[1])
            case "year":
                // 1000 to 9999, as the holiday-cn JSON reader takes them: "0010" would be written back as "10".
                guard tokens.count == 2, tokens[1].count == 4, tokens[1].allSatisfy(\.isASCIIDigit), let year = Int(tokens[1]),
                      (1000...9999).contains(year) else {
                    throw error(number, .syntax, "expected 'year YYYY' from 1000 to 9999 (like 'year 2021')")
                }
                guard let region else { throw error(number, .syntax, "'year \(year)' comes before any 'region' line") }
                try finishSection()
                if let earlier = sectionLines["\(region) \(year)"] {
                    throw error(number, .yearMismatch, "year \(year) of region \(region) appears twice (first at line \(earlier))")
                }
                sectionLines["\(region) \(year)"] = number
                section = Section(builder: HolidayYearBuilder(file: file, region: region, year: year), line: number)
            case "notice":
                guard section != nil else { throw error(number, .syntax, "a 'notice' line before any 'year' line") }
                var rest = Array(tokens.dropFirst())
                var url: String?
                if let last = rest.last, CompactHolidayFormat.isLink(last) {
                    url = String(last)
                    rest.removeLast()
                }
                let title = rest.isEmpty ? nil : rest.joined(separator: " ")
                guard title != nil || url != nil else { throw error(number, .syntax, "'notice' needs a title, a URL or both") }
                section!.notices.append(HolidayNotice(title: title, url: url))
                section!.builder.startNotice()
            default:
                try readHoliday(tokens, line: number)
            }
        }

        mutating func readHoliday(_ tokens: [Substring], line: Int) throws(HolidayDataError) {
            let name = tokens[0]
            if name == "off" || name == "work" {
                throw error(line, .missingName, "the line has no holiday name before '\(name)' (write 'NAME \(name) DATES')")
            }
            guard section != nil else {
                throw error(line, .syntax, "'\(name)' is not a keyword, and a holiday line cannot come before any 'year' line")
            }
            let year = section!.builder.year
            guard tokens.count > 1 else {
                throw error(line, .syntax, "the holiday '\(name)' lists no days: expected 'off DATES' and/or 'work DATES' after the name")
            }
            var isOffDay: Bool?
            var datesAfterKeyword = 0
            for token in tokens.dropFirst() {
                if token == "off" || token == "work" {
                    if let keyword = isOffDay, datesAfterKeyword == 0 {
                        throw error(line, .syntax, "'\(keyword ? "off" : "work")' lists no dates")
                    }
                    isOffDay = token == "off"
                    datesAfterKeyword = 0
                    continue
                }
                guard let isOffDay else {
                    if token.first?.isASCIIDigit == true {
                        throw error(line, .syntax, "'\(token)' after the holiday name: expected 'off' or 'work' before the dates")
                    }
                    throw error(line, .unknownKeyword, "'\(token)' is not a keyword: expected 'off' or 'work'")
                }
                guard token.first?.isASCIIDigit == true else {
                    throw error(line, .unknownKeyword, "'\(token)' is neither a date nor a keyword: expected a date, 'off' or 'work'")
                }
                for date in try dates(token, year: year, line: line) {
                    try section!.builder.add(HolidayEntry(date: date, isOffDay: isOffDay, name: String(name)), at: .line(line))
                }
                datesAfterKeyword += 1
            }
            if let keyword = isOffDay, datesAfterKeyword == 0 {
                throw error(line, .syntax, "'\(keyword ? "off" : "work")' lists no dates")
            }
        }

        /// The dates of `D` or `D..D`.
        func dates(_ token: Substring, year: Int, line: Int) throws(HolidayDataError) -> [CivilDate] {
            let ends = token.split(separator: "..", maxSplits: 1, omittingEmptySubsequences: false)
            let start = try date(ends[0], in: token, year: year, line: line)
            guard ends.count == 2 else { return [start] }
            let end = try date(ends[1], in: token, year: year, line: line)
            guard start <= end else {
                throw error(line, .invertedRange, "the range '\(token)' ends before it starts")
            }
            // Bounded: a range longer than a notice year is refused before any
            // date of it is used.
            let length = end.dayNumber - start.dayNumber + 1
            guard length <= 400 else {
                throw error(line, .outOfRange, "the range '\(token)' is \(length) days long, more than a notice year holds")
            }
            return (0..<length).map { start.adding(days: $0) }
        }

        func date(_ text: Substring, in token: Substring, year: Int, line: Int) throws(HolidayDataError) -> CivilDate {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            let numbers = parts.map { part in part.allSatisfy(\.isASCIIDigit) ? Int(part) : nil }
            let shapeOK = (parts.count == 2 && parts[0].count == 2 && parts[1].count == 2)
                || (parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2)
            guard shapeOK, !numbers.contains(nil) else {
                let whole = text == token ? "'\(text)'" : "'\(text)' in '\(token)'"
                throw error(line, .invalidDate, "\(whole) is not a date: write MM-DD for a day of \(year), or YYYY-MM-DD")
            }
            let (dateYear, month, day) = parts.count == 2 ? (year, numbers[0]!, numbers[1]!) : (numbers[0]!, numbers[1]!, numbers[2]!)
            guard let date = CivilDate(year: dateYear, month: month, day: day) else {
                let why = (1...12).contains(month)
                    ? "\(Self.monthName(month)) \(dateYear) has \(CivilDate.daysInMonth(year: dateYear, month: month)) days"
                    : "there is no month \(month)"
                throw error(line, .invalidDate, "'\(text)' is not a date: \(why)")
            }
            return date
        }

        static func monthName(_ month: Int) -> String {
            ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
             "November", "December"][month - 1]
        }

        static func isRegionCode(_ text: Substring) -> Bool {
            !text.isEmpty && text.allSatisfy { ($0.isASCII && $0.isLowercase) || $0.isASCIIDigit || $0 == "-" }
        }

        mutating func finishSection() throws(HolidayDataError) {
            guard let section else { return }
            self.section = nil
            let source = HolidaySource(format: .compact, location: file)
            years.append(try section.builder.build(notices: section.notices, source: source, noDataLocation: .line(section.line)))
        }

        mutating func finish() throws(HolidayDataError) -> [HolidayYear] {
            try finishSection()
            guard !years.isEmpty else {
                throw HolidayDataError(file: file, location: .file, kind: .noData, reason: "no data: the file has no 'year' section")
            }
            return years
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
