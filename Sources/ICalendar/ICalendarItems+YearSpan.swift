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
                if let value = component[name]?.value { count(value.utf8[...]) }
            }
            // An RDATE's dates are occurrences of their own, in any year: each of a list (a PERIOD begins with its start).
            for property in component.properties(named: "RDATE") {
                for value in property.value.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: true) { count(value) }
            }
            if component["RRULE"] != nil { recurs = true }
        }

        /// Counts the year a value begins with. A DATE, DATE-TIME or PERIOD
        /// begins with its year; any other value is the mapping's fault to
        /// report, not this tally's.
        private mutating func count(_ value: Substring.UTF8View) {
            let digits = value.prefix(4)
            guard digits.count == 4, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return }
            let year = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            firstYear = min(firstYear, year)
            lastYear = max(lastYear, year)
        }

        /// The years the items' starts, due dates, recurrence IDs and RDATEs
        /// fall in, through `currentYear` and five more when one of them
        /// repeats (a series goes on into the years people look at); nil
        /// when no item has a time.
        public func years(currentYear: Int) -> ClosedRange<Int>? {
            guard firstYear <= lastYear else { return nil }
            return firstYear...(recurs ? max(lastYear, currentYear + 5) : lastYear)
        }
    }
}
