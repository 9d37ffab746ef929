import CalendarModel

/// Writing a VTIMEZONE from the machine's zone data.
extension ICalendarZones {
    /// A VTIMEZONE for `zone` (an identifier `TimeZoneRules.named` reads)
    /// covering `years`: a DAYLIGHT and a STANDARD with yearly RRULEs where
    /// the zone's footer rule runs, one observance per change before that,
    /// and a single STANDARD for a zone with no change in the years. Nil
    /// when the zone is unknown.
    ///
    /// It covers all of the years: the offset in force on January 1 of the
    /// first is an observance of its own when no change falls on that day
    /// (a reader otherwise has nothing for the times before the first
    /// change), and a footer rule no RRULE can write (Cairo's end of summer
    /// at 24:00 on the last Thursday of October) is written out change by
    /// change through `writtenOutThrough`, as the zone's table spells it,
    /// since a series that does not end runs past the items' years.
    public static func vtimezone(for zone: String, years: ClosedRange<Int>) -> ICalendarComponent? {
        guard let rules = try? TimeZoneRules.named(zone), years.count <= 2000 else { return nil }
        var range = instants(years)
        let yearly = rules.yearlyRule
        let ruleWritable = yearly.map { yearly in
            [yearly.start, yearly.end].allSatisfy { $0.map { (0..<86_400).contains($0.time) } ?? false }
        } ?? true
        if !ruleWritable, yearly?.daylight != nil, years.upperBound < writtenOutThrough {
            range = range.lowerBound...instants(years.lowerBound...writtenOutThrough).upperBound
        }
        let changes = rules.changes(in: range)
        var observances: [ICalendarComponent] = []
        var individual = changes
        if let first = changes.first, first.instant > range.lowerBound {
            // What held before the first change, from the first day on.
            let start = LocalDateTime(date: CivilDate(year: years.lowerBound, month: 1, day: 1) ?? CivilDate(dayNumber: 0))
                ?? LocalDateTime(localSeconds: 0)
            let isDaylight = first.after < first.before
            observances.append(ICalendarComponent(name: isDaylight ? "DAYLIGHT" : "STANDARD", properties: [
                ICalendarProperty(name: "DTSTART", value: start.basicFormat),
                ICalendarProperty(name: "TZOFFSETFROM", value: ICalendarUTCOffset.value(first.before)),
                ICalendarProperty(name: "TZOFFSETTO", value: ICalendarUTCOffset.value(first.before)),
            ]))
        }
        if let yearly, let daylight = yearly.daylight, let start = yearly.start, let end = yearly.end, ruleWritable {
            // Debian's zoneinfo spells the rule out in its table until 2037:
            // the changes that already follow it are the RRULE's too.
            func follows(_ change: TimeZoneRules.Change) -> Bool {
                let isStart = change.after == daylight && change.before == yearly.standard
                guard isStart || (change.after == yearly.standard && change.before == daylight) else { return false }
                let rule = isStart ? start : end
                let local = LocalDateTime(localSeconds: change.instant + Int64(change.before))
                let date = local.date
                let week = rule.week == 5 ? (date.day + 7 > CivilDate.daysInMonth(year: date.year, month: date.month)) : (date.day - 1) / 7 + 1 == rule.week
                return date.month == rule.month && week && CivilDate.weekday(ofDayNumber: date.dayNumber).rawValue == rule.weekday
                    && Int64(local.hour * 3600 + local.minute * 60 + local.second) == rule.time
            }
            var split = changes.count
            while split > 0, changes[split - 1].instant > (yearly.from ?? Int64.min) || follows(changes[split - 1]) { split -= 1 }
            let footerChanges = Array(changes[split...])
            individual = Array(changes[..<split])
            for (rule, offset, isDaylight) in [(start, daylight, true), (end, yearly.standard, false)] {
                guard let first = footerChanges.first(where: { $0.after == offset }) else { continue }
                let byDay = (rule.week == 5 ? "-1" : "\(rule.week)") + weekdays[rule.weekday]
                observances.append(observance(first, daylight: isDaylight,
                                              extra: [ICalendarProperty(name: "RRULE", value: "FREQ=YEARLY;BYMONTH=\(rule.month);BYDAY=\(byDay)")]))
            }
        }
        for (index, change) in individual.enumerated() {
            // Daylight saving: a step up that the next change undoes within a year.
            let next = index + 1 < changes.count ? changes[index + 1] : nil
            let isDaylight = change.after > change.before && next.map { $0.after == change.before && $0.instant - change.instant < 366 * 86_400 } == true
            observances.append(observance(change, daylight: isDaylight, extra: []))
        }
        if observances.isEmpty {
            let offset = rules.offset(at: range.lowerBound + 86_400)
            let start = LocalDateTime(date: CivilDate(year: years.lowerBound, month: 1, day: 1) ?? CivilDate(dayNumber: 0))
                ?? LocalDateTime(localSeconds: 0)
            observances.append(ICalendarComponent(name: "STANDARD", properties: [
                ICalendarProperty(name: "DTSTART", value: start.basicFormat),
                ICalendarProperty(name: "TZOFFSETFROM", value: ICalendarUTCOffset.value(offset)),
                ICalendarProperty(name: "TZOFFSETTO", value: ICalendarUTCOffset.value(offset)),
            ]))
        }
        return ICalendarComponent(name: "VTIMEZONE", properties: [ICalendarProperty(name: "TZID", value: zone)], components: observances)
    }

    /// The last year a footer rule that no RRULE can write is written out
    /// through, change by change: as far as Debian's zoneinfo spells the
    /// rules out in its tables.
    public static let writtenOutThrough = 2037

    private static func observance(_ change: TimeZoneRules.Change, daylight: Bool, extra: [ICalendarProperty]) -> ICalendarComponent {
        // DTSTART is the wall time just before the change, on the old offset.
        let local = LocalDateTime(localSeconds: change.instant + Int64(change.before))
        return ICalendarComponent(name: daylight ? "DAYLIGHT" : "STANDARD", properties: [
            ICalendarProperty(name: "DTSTART", value: local.basicFormat),
            ICalendarProperty(name: "TZOFFSETFROM", value: ICalendarUTCOffset.value(change.before)),
            ICalendarProperty(name: "TZOFFSETTO", value: ICalendarUTCOffset.value(change.after)),
        ] + extra)
    }
}
