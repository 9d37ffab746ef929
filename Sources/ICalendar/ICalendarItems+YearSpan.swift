import CalendarModel

extension ICalendarItems {
    /// The years a VCALENDAR's items span, over which a VTIMEZONE under a
    /// TZID of the file's own must agree with an IANA zone
    /// (`ICalendarZones`): taken from the items of a reading that is not
    /// skimmed (a skimmed item holds no times).
    public struct YearSpan: Sendable {
        private var firstYear = Int.max
        private var lastYear = Int.min
        private var recurs = false

        public init() {}

        /// The next of the calendar's components (any but VEVENT and VTODO is passed over).
        public mutating func add(_ component: ICalendarComponent) {
            guard component.name == "VEVENT" || component.name == "VTODO" else { return }
            for name in ["DTSTART", "DUE", "RECURRENCE-ID"] {
                // A DATE or DATE-TIME value begins with its year; any other is the mapping's fault to report, not this tally's.
                guard let value = component[name]?.value.utf8.prefix(4), value.count == 4,
                      value.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { continue }
                let year = value.reduce(0) { $0 * 10 + Int($1 - 48) }
                firstYear = min(firstYear, year)
                lastYear = max(lastYear, year)
            }
            if component["RRULE"] != nil { recurs = true }
        }

        /// The years the items' starts, due dates and recurrence IDs fall
        /// in, through `currentYear` and five more when one of them
        /// repeats (a series goes on into the years people look at); nil
        /// when no item has a time.
        public func years(currentYear: Int) -> ClosedRange<Int>? {
            guard firstYear <= lastYear else { return nil }
            return firstYear...(recurs ? max(lastYear, currentYear + 5) : lastYear)
        }
    }
}
