import CalendarModel

/// holiday-cn's per-year iCalendar file (RFC 5545), read by its conventions:
///
/// - each holiday run is an all-day VEVENT, `DTSTART;VALUE=DATE:20211001`
///   with an exclusive `DTEND` (one day when DTEND is absent, as RFC 5545
///   §3.6.1 says);
/// - `SUMMARY:国庆节假期` marks days off for 国庆节, and
///   `SUMMARY:上班(补国庆节假期)` makeup workdays for it (full-width
///   parentheses are accepted too);
/// - long lines are folded (§3.1) and unfolded here on bytes, before UTF-8
///   decoding, since a fold may fall inside a multi-byte character.
///
/// Components other than VEVENT (VTIMEZONE) and properties other than
/// SUMMARY, DTSTART and DTEND are ignored. An event with a time of day, a
/// DURATION, or any other summary refuses the file, naming the line.
public enum HolidayCNICS {
    /// Reads one year. The year is the caller's (from the file name
    /// `2021.ics`) or, when nil, the latest year among the dates. A calendar
    /// without events throws `.noData`.
    public static func parse(_ bytes: [UInt8], file: String, region: String = "cn",
                             year givenYear: Int? = nil) throws(HolidayDataError) -> HolidayYear {
        let events = try readEvents(bytes, file: file, year: givenYear)
        guard !events.isEmpty else {
            throw HolidayDataError(file: file, location: .file, kind: .noData,
                                   reason: "no data\(givenYear.map { " for \($0)" } ?? ""): the calendar has no events (is the notice out yet?)",
                                   year: givenYear)
        }
        // The latest year a date falls in: a notice year's dates reach back
        // into the previous December, never forward.
        let year = givenYear ?? events.map { $0.end.adding(days: -1).year }.max()!
        var builder = HolidayYearBuilder(file: file, region: region, year: year)
        builder.setsAsideResumptionMarks = true
        for event in events {
            // Bounded: an event longer than a notice year is refused before its days are listed.
            let length = event.end.dayNumber - event.start.dayNumber
            guard length <= 400 else {
                throw HolidayDataError(file: file, location: .line(event.endLine), kind: .outOfRange,
                                       reason: "the event from \(event.start) to \(event.end) is \(length) days long, more than a notice year holds",
                                       year: year)
            }
            for offset in 0..<length {
                let entry = HolidayEntry(date: event.start.adding(days: offset), isOffDay: event.isOffDay, name: event.name)
                try builder.add(entry, at: .line(event.line))
            }
        }
        return try builder.build(notices: [], source: HolidaySource(format: .holidayCNICS, location: file), noDataLocation: .file)
    }

    struct Event {
        var name: String
        var isOffDay: Bool
        var start: CivilDate
        /// Exclusive.
        var end: CivilDate
        /// The line of BEGIN:VEVENT.
        var line: Int
        var endLine: Int
    }

    /// A content line after unfolding, with the physical line it starts on.
    struct ContentLine {
        var name: String
        var parameters: [String: String]
        var value: String
        var line: Int
    }

    static func readEvents(_ bytes: [UInt8], file: String, year: Int?) throws(HolidayDataError) -> [Event] {
        func fail(_ line: Int, _ kind: HolidayDataError.Kind, _ reason: String) -> HolidayDataError {
            HolidayDataError(file: file, location: .line(line), kind: kind, reason: reason, year: year)
        }
        let lines = try contentLines(bytes, file: file, year: year)
        guard let first = lines.first, first.name == "BEGIN", first.value.uppercased() == "VCALENDAR" else {
            throw fail(lines.first?.line ?? 1, .syntax, "an iCalendar file starts with BEGIN:VCALENDAR")
        }
        var stack: [(name: String, line: Int)] = []
        var events: [Event] = []
        // The properties of the VEVENT being read.
        var summary: ContentLine?, start: ContentLine?, end: ContentLine?
        var eventLine = 0
        var closed = false

        for line in lines {
            if closed { throw fail(line.line, .syntax, "text after END:VCALENDAR") }
            switch line.name {
            case "BEGIN":
                let component = line.value.uppercased()
                if component == "VEVENT" {
                    guard stack.map(\.name) == ["VCALENDAR"] else {
                        throw fail(line.line, .syntax, "BEGIN:VEVENT inside \(stack.last?.name ?? "nothing"), not directly inside VCALENDAR")
                    }
                    summary = nil; start = nil; end = nil
                    eventLine = line.line
                }
                stack.append((component, line.line))
            case "END":
                let component = line.value.uppercased()
                guard let open = stack.last else { throw fail(line.line, .syntax, "END:\(line.value) with nothing open") }
                guard open.name == component else {
                    throw fail(line.line, .syntax, "END:\(line.value) closes BEGIN:\(open.name) of line \(open.line)")
                }
                stack.removeLast()
                if component == "VEVENT" {
                    events.append(try event(summary: summary, start: start, end: end, line: eventLine, endLine: line.line,
                                            file: file, year: year))
                }
                if stack.isEmpty { closed = true }
            default:
                // Only the event's own properties, not those of a VALARM inside it.
                guard stack.last?.name == "VEVENT" else { continue }
                switch line.name {
                case "SUMMARY", "DTSTART", "DTEND":
                    let already = line.name == "SUMMARY" ? summary : line.name == "DTSTART" ? start : end
                    if let already { throw fail(line.line, .syntax, "a second \(line.name) in the event (first at line \(already.line))") }
                    if line.name == "SUMMARY" { summary = line } else if line.name == "DTSTART" { start = line } else { end = line }
                case "DURATION":
                    throw fail(line.line, .syntax, "DURATION is not read here: holiday-cn gives each event a DTEND")
                default:
                    continue
                }
            }
        }
        if let open = stack.last { throw fail(open.line, .syntax, "BEGIN:\(open.name) is never closed") }
        return events
    }

    static func event(summary: ContentLine?, start: ContentLine?, end: ContentLine?, line: Int, endLine: Int,
                      file: String, year: Int?) throws(HolidayDataError) -> Event {
        func fail(_ line: Int, _ kind: HolidayDataError.Kind, _ reason: String) -> HolidayDataError {
            HolidayDataError(file: file, location: .line(line), kind: kind, reason: reason, year: year)
        }
        guard let summary else { throw fail(line, .missingName, "the event has no SUMMARY naming the holiday") }
        guard let start else { throw fail(line, .syntax, "the event has no DTSTART") }
        let startDate = try date(start, file: file, year: year)
        let endDate = try end.map { line throws(HolidayDataError) in try date(line, file: file, year: year) } ?? startDate.adding(days: 1)
        guard endDate > startDate else {
            throw fail(end?.line ?? line, .invertedRange,
                       "DTEND \(endDate) is not after DTSTART \(startDate) (DTEND is exclusive: a one-day event ends the next day)")
        }
        let text = unescape(summary.value).trimming(" ")
        let (name, isOffDay): (String, Bool)
        if let inner = strip(text, prefixes: ["上班(补", "上班（补"], suffixes: ["假期)", "假期）"]) {
            (name, isOffDay) = (inner, false)
        } else if text.hasSuffix("假期"), !text.hasPrefix("上班") {
            (name, isOffDay) = (String(text.dropLast(2)), true)
        } else {
            throw fail(summary.line, .unknownKeyword,
                       "the SUMMARY '\(text)' is neither 'NAME假期' (days off) nor '上班(补NAME假期)' (makeup workday)")
        }
        guard !name.allSatisfy(\.isWhitespace) else {
            throw fail(summary.line, .missingName, "the SUMMARY '\(text)' has no holiday name")
        }
        return Event(name: name, isOffDay: isOffDay, start: startDate, end: endDate, line: line, endLine: end?.line ?? line)
    }

    static func strip(_ text: String, prefixes: [String], suffixes: [String]) -> String? {
        for prefix in prefixes where text.hasPrefix(prefix) {
            for suffix in suffixes where text.hasSuffix(suffix) && text.count >= prefix.count + suffix.count {
                return String(text.dropFirst(prefix.count).dropLast(suffix.count))
            }
        }
        return nil
    }

    /// A DATE value (`20211001`, with or without `VALUE=DATE`); a DATE-TIME
    /// is refused, since a holiday is a whole day.
    static func date(_ line: ContentLine, file: String, year: Int?) throws(HolidayDataError) -> CivilDate {
        func fail(_ reason: String) -> HolidayDataError {
            HolidayDataError(file: file, location: .line(line.line), kind: .invalidDate, reason: reason, year: year)
        }
        if let valueType = line.parameters["VALUE"], valueType.uppercased() != "DATE" {
            throw fail("\(line.name) has VALUE=\(valueType): a holiday is an all-day event (VALUE=DATE)")
        }
        if line.value.contains("T") {
            throw fail("\(line.name) '\(line.value)' has a time of day: a holiday is an all-day event (VALUE=DATE)")
        }
        guard line.value.utf8.count == 8, let date = CivilDate(parsing: line.value) else {
            throw fail("\(line.name) '\(line.value)' is not a date in the form YYYYMMDD")
        }
        return date
    }

    /// RFC 5545 §3.3.11 TEXT escapes.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                switch character {
                case "n", "N": result.append("\n")
                default: result.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// Unfolds (§3.1: a line break followed by a space or tab continues the
    /// line) and splits each content line into name, parameters and value.
    static func contentLines(_ bytes: [UInt8], file: String, year: Int?) throws(HolidayDataError) -> [ContentLine] {
        var result: [ContentLine] = []
        var current: [UInt8] = []
        var currentLine = 1
        var physicalLine = 1
        var index = 0

        func finish() throws(HolidayDataError) {
            defer { current.removeAll(keepingCapacity: true) }
            guard !current.isEmpty else { return }
            guard let text = String(validating: current, as: UTF8.self) else {
                throw HolidayDataError(file: file, location: .line(currentLine), kind: .unreadable,
                                       reason: "the line is not UTF-8 text", year: year)
            }
            result.append(try split(text, line: currentLine, file: file, year: year))
        }

        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                // CRLF, or a bare LF (or CR) from a lenient writer.
                var next = index + 1
                if byte == UInt8(ascii: "\r"), next < bytes.count, bytes[next] == UInt8(ascii: "\n") { next += 1 }
                physicalLine += 1
                if next < bytes.count, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") {
                    index = next + 1 // a fold: drop the break and the one whitespace character
                    continue
                }
                try finish()
                currentLine = physicalLine
                index = next
                continue
            }
            current.append(byte)
            index += 1
        }
        try finish()
        return result
    }

    static func split(_ text: String, line: Int, file: String, year: Int?) throws(HolidayDataError) -> ContentLine {
        // The value starts at the first ':' outside a quoted parameter value.
        var inQuotes = false
        var colon: String.Index?
        for index in text.indices {
            let character = text[index]
            if character == "\"" { inQuotes.toggle() }
            if character == ":", !inQuotes {
                colon = index
                break
            }
        }
        guard let colon else {
            throw HolidayDataError(file: file, location: .line(line), kind: .syntax,
                                   reason: "'\(text.prefix(40))' is not a content line NAME[;PARAM=VALUE]:VALUE", year: year)
        }
        let head = text[..<colon].split(separator: ";", omittingEmptySubsequences: false)
        let name = head[0].uppercased()
        guard !name.isEmpty else {
            throw HolidayDataError(file: file, location: .line(line), kind: .syntax, reason: "a content line without a name", year: year)
        }
        var parameters: [String: String] = [:]
        for parameter in head.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else {
                throw HolidayDataError(file: file, location: .line(line), kind: .syntax,
                                       reason: "the parameter '\(parameter)' of \(name) is not PARAM=VALUE", year: year)
            }
            parameters[pair[0].uppercased()] = pair[1].trimming("\"")
        }
        return ContentLine(name: name, parameters: parameters, value: String(text[text.index(after: colon)...]), line: line)
    }
}

extension StringProtocol {
    /// The text without leading and trailing `character`s.
    func trimming(_ character: Character) -> String {
        var slice = Substring(self)
        while slice.first == character { slice = slice.dropFirst() }
        while slice.last == character { slice = slice.dropLast() }
        return String(slice)
    }
}
