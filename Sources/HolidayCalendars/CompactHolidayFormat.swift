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
/// same years back.
public enum CompactHolidayFormat {
    /// Every year in `text`, in file order. `file` names the file in errors
    /// and in each year's `source`.
    public static func parse(_ text: String, file: String) throws(HolidayDataError) -> [HolidayYear] {
        var parser = Parser(file: file)
        var lineNumber = 0
        // Lines and tokens are found in the UTF-8 bytes, not by walking
        // Characters (the bundled file is read by every command that consults
        // workdays): "\n" is always a Character of its own or the end of
        // "\r\n", and a space or tab one unless a combining mark follows it,
        // which no file of this format has reason to hold.
        var bytes = text.utf8[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        while true {
            let newline = bytes.firstIndex(of: UInt8(ascii: "\n"))
            var line = bytes[..<(newline ?? bytes.endIndex)]
            if newline != nil, line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            lineNumber += 1
            try parser.read(Self.tokens(line), number: lineNumber)
            guard let newline else { break }
            bytes = bytes[bytes.index(after: newline)...]
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

    /// The tokens of a line, separated by spaces and tabs; each its own
    /// string, so that what reads it indexes whole Characters.
    private static func tokens(_ line: Substring.UTF8View.SubSequence) -> [Substring] {
        line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") })
            .map { Substring(String(decoding: $0, as: UTF8.self)) }
    }

    /// The canonical text of `years`, with a `region` line wherever the
    /// region changes and a blank line between years. `header` lines are
    /// written first, each prefixed with `# `.
    public static func write(_ years: [HolidayYear], header: [String] = []) -> String {
        var lines = header.map { $0.isEmpty ? "#" : "# " + $0 }
        var region: String?
        for year in years {
            if !lines.isEmpty { lines.append("") }
            if year.region != region {
                lines.append("region \(year.region)")
                region = year.region
            }
            lines.append("year \(year.year)")
            for notice in year.notices {
                lines.append((["notice"] + [notice.title, notice.url].compactMap { $0 }).joined(separator: " "))
            }
            lines += holidayLines(year: year.year, entries: year.entries)
        }
        return lines.joined(separator: "\n") + "\n"
    }

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

        mutating func read(_ tokens: [Substring], number: Int) throws(HolidayDataError) {
            guard let first = tokens.first, !first.hasPrefix("#") else { return }
            switch first {
            case "region":
                guard tokens.count == 2, Self.isRegionCode(tokens[1]) else {
                    throw error(number, .syntax, "expected 'region CODE' with a code of lowercase letters, digits and '-' (like 'region cn')")
                }
                try finishSection()
                region = String(tokens[1])
            case "year":
                guard tokens.count == 2, tokens[1].count == 4, tokens[1].allSatisfy(\.isASCIIDigit), let year = Int(tokens[1]) else {
                    throw error(number, .syntax, "expected 'year YYYY' (like 'year 2021')")
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
                if let last = rest.last, last.hasPrefix("http://") || last.hasPrefix("https://") {
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
            let nameText = String(name)
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
                    try section!.builder.add(HolidayEntry(date: date, isOffDay: isOffDay, name: nameText), at: .line(line))
                }
                datesAfterKeyword += 1
            }
            if let keyword = isOffDay, datesAfterKeyword == 0 {
                throw error(line, .syntax, "'\(keyword ? "off" : "work")' lists no dates")
            }
        }

        /// The dates of `D` or `D..D`.
        func dates(_ token: Substring, year: Int, line: Int) throws(HolidayDataError) -> [CivilDate] {
            let ends = Self.splitRange(token)
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
            // MM-DD or YYYY-MM-DD, digits only, read from the bytes (a digit is one byte and one Character).
            var numbers = [0], lengths = [0], digitsOnly = true
            for byte in text.utf8 {
                if byte == UInt8(ascii: "-") {
                    numbers.append(0)
                    lengths.append(0)
                    continue
                }
                lengths[lengths.count - 1] += 1
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
                    digitsOnly = false
                    continue
                }
                if lengths[lengths.count - 1] <= 4 { numbers[numbers.count - 1] = numbers[numbers.count - 1] * 10 + Int(byte - UInt8(ascii: "0")) }
            }
            let shapeOK = lengths == [2, 2] || lengths == [4, 2, 2]
            guard shapeOK, digitsOnly else {
                let whole = text == token ? "'\(text)'" : "'\(text)' in '\(token)'"
                throw error(line, .invalidDate, "\(whole) is not a date: write MM-DD for a day of \(year), or YYYY-MM-DD")
            }
            let (dateYear, month, day) = numbers.count == 2 ? (year, numbers[0], numbers[1]) : (numbers[0], numbers[1], numbers[2])
            guard let date = CivilDate(year: dateYear, month: month, day: day) else {
                let why = (1...12).contains(month)
                    ? "\(Self.monthName(month)) \(dateYear) has \(CivilDate.daysInMonth(year: dateYear, month: month)) days"
                    : "there is no month \(month)"
                throw error(line, .invalidDate, "'\(text)' is not a date: \(why)")
            }
            return date
        }

        /// `D..D` as its two ends (what `split(separator: "..", maxSplits: 1)`
        /// gives, found in the bytes), or `[D]`.
        static func splitRange(_ token: Substring) -> [Substring] {
            let bytes = token.utf8
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let next = bytes.index(after: index)
                if bytes[index] == UInt8(ascii: "."), next < bytes.endIndex, bytes[next] == UInt8(ascii: ".") {
                    return [token[..<index], token[bytes.index(after: next)...]]
                }
                index = next
            }
            return [token]
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
    /// 0 to 9 (the only ASCII characters that are numbers), without a look-up of Unicode's properties.
    var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}
