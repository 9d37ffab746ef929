import CalendarModel

/// Writing a VTIMEZONE from the machine's zone data.
extension ICalendarZones {
    /// A VTIMEZONE for `zone` (an identifier `TimeZoneRules.named` reads)
    /// covering `years`: a DAYLIGHT and a STANDARD with yearly RRULEs where
    /// the zone's footer rule runs, one observance per change before that,
    /// and a single STANDARD for a zone with no change in the years. Nil
    /// when the zone is unknown.
    public static func vtimezone(for zone: String, years: ClosedRange<Int>) -> ICalendarComponent? {
        guard let rules = try? TimeZoneRules.named(zone), years.count <= 2000 else { return nil }
        let range = instants(years)
        let changes = rules.changes(in: range)
        var observances: [ICalendarComponent] = []
        var individual = changes
        if let yearly = rules.yearlyRule, let daylight = yearly.daylight, let start = yearly.start, let end = yearly.end,
           (0..<86_400).contains(start.time), (0..<86_400).contains(end.time) {
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
