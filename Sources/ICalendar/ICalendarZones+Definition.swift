import CalendarModel
import Foundation

/// Reading a VTIMEZONE: its STANDARD and DAYLIGHT observances as changes of
/// offset, and its latest yearly rule as a POSIX TZ rule.
extension ICalendarZones {
    /// One STANDARD or DAYLIGHT sub-component, read.
    struct Observance {
        var isDaylight: Bool
        var start: LocalDateTime
        var from: Int32
        var to: Int32
        var name: String?
        var rule: YearlyRule?
        var dates: [LocalDateTime]
        var line: Int
    }

    /// The part of an RRULE zones use: yearly, in given months, on the nth
    /// weekday or on a weekday among given days of the month.
    struct YearlyRule {
        var months: [Int]
        var weekday: Int?
        var ordinal: Int?
        var monthDays: [Int]
        var until: Int64?
        var untilIsLocal: Bool
        var count: Int?

        /// The day (of month) the rule picks in a year and month, if any.
        func day(year: Int, month: Int) -> Int? {
            let length = CivilDate.daysInMonth(year: year, month: month)
            let first = CivilDate.dayNumber(year: year, month: month, day: 1)
            let days = monthDays.map { $0 < 0 ? length + 1 + $0 : $0 }.filter { (1...length).contains($0) }
            guard let weekday else { return days.first }
            let firstMatch = 1 + (weekday - CivilDate.weekday(ofDayNumber: first).rawValue + 7) % 7
            if let ordinal {
                let day = ordinal > 0 ? firstMatch + (ordinal - 1) * 7 : firstMatch + ((length - firstMatch) / 7 + ordinal + 1) * 7
                return (1...length).contains(day) ? day : nil
            }
            return days.first { CivilDate.weekday(ofDayNumber: first + $0 - 1).rawValue == weekday } ?? (days.isEmpty ? firstMatch : nil)
        }

        /// POSIX's week number: 1…4, or 5 for the last.
        var posixWeek: Int? {
            if let ordinal { return ordinal < 0 ? (ordinal == -1 ? 5 : nil) : min(ordinal, 5) }
            guard weekday != nil, let low = monthDays.min() else { return nil }
            if low < 0 || low >= 25 { return 5 }
            return (low - 1) / 7 + 1
        }
    }

    static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    static func observances(of definition: ICalendarComponent) throws(ICalendarValueError) -> [Observance] {
        var list: [Observance] = []
        for component in definition.components where component.name == "STANDARD" || component.name == "DAYLIGHT" {
            func required(_ name: String) throws(ICalendarValueError) -> ICalendarProperty {
                guard let property = component[name] else {
                    throw ICalendarValueError(property: name, value: "", line: component.line,
                                              reason: "is missing from the \(component.name) of VTIMEZONE \(definition["TZID"]?.value ?? "")")
                }
                return property
            }
            let start = try ICalendarDateTime(try required("DTSTART")).wallClock
            let fromProperty = try required("TZOFFSETFROM"), toProperty = try required("TZOFFSETTO")
            let from: Int32, to: Int32
            do { from = try ICalendarUTCOffset.seconds(fromProperty.value) } catch { throw error.at(fromProperty) }
            do { to = try ICalendarUTCOffset.seconds(toProperty.value) } catch { throw error.at(toProperty) }
            var dates: [LocalDateTime] = []
            for rdate in component.properties(named: "RDATE") {
                for part in rdate.value.split(separator: ",").prefix(10_000) {
                    let value = part.split(separator: "/").first ?? part
                    do { dates.append(try ICalendarDateTime(value: value).wallClock) } catch { throw error.at(rdate) }
                }
            }
            let rule = try component["RRULE"].map { (property) throws(ICalendarValueError) in try yearlyRule(property, start: start) } ?? nil
            list.append(Observance(isDaylight: component.name == "DAYLIGHT", start: start, from: from, to: to,
                                   name: component["TZNAME"]?.value, rule: rule, dates: dates, line: component.line))
        }
        return list
    }

    /// Nil for a rule that is not yearly (no zone uses one); an error for
    /// one that does not read.
    static func yearlyRule(_ property: ICalendarProperty, start: LocalDateTime) throws(ICalendarValueError) -> YearlyRule? {
        var rule = YearlyRule(months: [start.date.month], weekday: nil, ordinal: nil, monthDays: [], until: nil, untilIsLocal: false, count: nil)
        func fail(_ reason: String) -> ICalendarValueError {
            ICalendarValueError(property: "RRULE", value: property.value, line: property.line, reason: reason)
        }
        var yearly = false
        for part in property.value.uppercased().split(separator: ";").prefix(20) {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { throw fail("has a part that is not NAME=VALUE") }
            let values = pair[1].split(separator: ",").prefix(31)
            switch pair[0] {
            case "FREQ": yearly = pair[1] == "YEARLY"
            case "BYMONTH":
                rule.months = values.compactMap { Int($0) }.filter { (1...12).contains($0) }
            case "BYMONTHDAY":
                rule.monthDays = values.compactMap { Int($0) }.filter { (-31...31).contains($0) && $0 != 0 }
            case "BYDAY":
                guard let first = values.first, first.count >= 2, let weekday = weekdays.firstIndex(of: String(first.suffix(2))) else {
                    throw fail("has a BYDAY that is not a weekday such as 2SU or -1SU")
                }
                rule.weekday = weekday
                rule.ordinal = first.count > 2 ? Int(first.dropLast(2)).flatMap { (-5...5).contains($0) && $0 != 0 ? $0 : nil } : nil
            case "UNTIL":
                let until = try ICalendarDateTime(value: pair[1]) as ICalendarDateTime?
                switch until {
                case .utc(let time): rule.until = time.localSeconds
                case .some(let value): rule.until = value.wallClock.localSeconds; rule.untilIsLocal = true
                case .none: break
                }
            case "COUNT": rule.count = Int(pair[1])
            default: break
            }
        }
        return yearly ? rule : nil
    }

    /// Every change the observances make, as (instant, before, after,
    /// observance index), from their DTSTARTs through the end of `years`.
    static func onsets(_ list: [Observance], through lastYear: Int) -> [(change: TimeZoneRules.Change, observance: Int)] {
        var result: [(TimeZoneRules.Change, Int)] = []
        for (index, observance) in list.enumerated() {
            var locals: [LocalDateTime] = [observance.start] + observance.dates
            if let rule = observance.rule {
                var produced = 0
                let firstYear = observance.start.date.year
                yearLoop: for year in firstYear...max(firstYear, min(lastYear, firstYear + 3000)) {
                    for month in rule.months {
                        guard let day = rule.day(year: year, month: month), let date = CivilDate(year: year, month: month, day: day),
                              let local = LocalDateTime(date: date, hour: observance.start.hour, minute: observance.start.minute,
                                                        second: observance.start.second),
                              local >= observance.start else { continue }
                        if let until = rule.until {
                            let moment = rule.untilIsLocal ? local.localSeconds : local.localSeconds - Int64(observance.from)
                            if moment > until { break yearLoop }
                        }
                        if let count = rule.count, produced >= count { break yearLoop }
                        produced += 1
                        if local != observance.start { locals.append(local) }
                    }
                }
            }
            for local in Set(locals) where local.date.year <= lastYear {
                result.append((TimeZoneRules.Change(instant: local.localSeconds - Int64(observance.from), before: observance.from,
                                                    after: observance.to), index))
            }
        }
        return result.sorted { $0.0.instant < $1.0.instant }
    }

    /// The offsets a VTIMEZONE defines through the end of `years`.
    static func rules(of definition: ICalendarComponent, years: ClosedRange<Int>) throws(ICalendarValueError) -> TimeZoneRules {
        let list = try observances(of: definition)
        let changes = onsets(list, through: years.upperBound + 1)
        guard let first = changes.first else {
            throw ICalendarValueError(property: "VTIMEZONE", value: definition["TZID"]?.value ?? "", line: definition.line,
                                      reason: "has no STANDARD or DAYLIGHT observance")
        }
        return TimeZoneRules(identifier: definition["TZID"]?.value ?? "", changes: changes.map(\.change), initialOffset: first.change.before)
    }

    /// The POSIX TZ rule for the VTIMEZONE's latest state: a DAYLIGHT and a
    /// STANDARD whose yearly rules still run give `XST5XDT,M3.2.0,M11.1.0`;
    /// otherwise the offset after the last change, `<+0330>-3:30`.
    static func posixRule(of definition: ICalendarComponent) -> String? {
        guard let list = try? observances(of: definition) else { return nil }
        let now = LocalDateTime(localSeconds: Int64(Date().timeIntervalSince1970)).date.year
        let lastYear = max(now, list.map(\.start.date.year).max() ?? now) + 1
        let changes = onsets(list, through: lastYear)
        guard let last = changes.last else { return nil }
        let running = Set(changes.filter { LocalDateTime(localSeconds: $0.change.instant).date.year == lastYear }.map { $0.observance })
        let daylight = running.first { list[$0].isDaylight && list[$0].rule?.posixWeek != nil }.map { list[$0] }
        let standard = running.first { !list[$0].isDaylight && list[$0].rule?.posixWeek != nil }.map { list[$0] }
        guard let daylight, let standard, let start = daylight.rule, let end = standard.rule, daylight.to != standard.to else {
            let offset = last.change.after
            return posixName(list[last.observance].name, offset) + posixOffset(offset)
        }
        func change(_ rule: YearlyRule, _ observance: Observance) -> String? {
            guard let week = rule.posixWeek, let month = rule.months.first, let weekday = rule.weekday else { return nil }
            let time = observance.start.hour * 3600 + observance.start.minute * 60 + observance.start.second
            return ",M\(month).\(week).\(weekday)" + (time == 7200 ? "" : "/" + posixTime(time))
        }
        guard let begins = change(start, daylight), let ends = change(end, standard) else { return nil }
        return posixName(standard.name, standard.to) + posixOffset(standard.to) + posixName(daylight.name, daylight.to)
            + (daylight.to == standard.to + 3600 ? "" : posixOffset(daylight.to)) + begins + ends
    }

    /// A TZNAME POSIX accepts as it is (three to six letters), else the
    /// quoted offset form.
    static func posixName(_ name: String?, _ offset: Int32) -> String {
        if let name, (3...6).contains(name.count), name.allSatisfy({ $0.isASCII && $0.isLetter }) { return name }
        return "<" + ICalendarUTCOffset.value(offset) + ">"
    }

    /// POSIX offsets count west of UTC: UTC+3:30 is `-3:30`.
    static func posixOffset(_ offset: Int32) -> String {
        (offset > 0 ? "-" : "") + posixTime(Int(abs(offset)))
    }

    static func posixTime(_ seconds: Int) -> String {
        let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return "\(h)" + (m > 0 || s > 0 ? ":" + CivilDate.twoDigits(m) : "") + (s > 0 ? ":" + CivilDate.twoDigits(s) : "")
    }
}
