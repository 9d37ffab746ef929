import CalendarModel

extension ICalendarItems {
    /// A first look at a VCALENDAR's items that tells, before they are
    /// mapped, which are final once mapped: those whose UID comes once,
    /// with no RECURRENCE-ID. A `Gathering` given the survey hands those
    /// over as it maps them (`takeFinal`), so that a caller can write a
    /// large file in pieces and never hold all its items; the others (a
    /// series whose occurrences, splits or revisions may still come) stay
    /// until `finish`, as they do without one.
    ///
    /// UIDs are kept as hashes: a collision only keeps a final item to
    /// the end, as if it were not. An item without a UID is never final:
    /// its key comes from its whole content, which a survey of a skimmed
    /// reading (`ICalendarReader.read(_:skimmingItems:handingOver:)`)
    /// does not have.
    ///
    /// Of a reading that is not skimmed, it also tells the years the items
    /// span (`itemYears`), over which a VTIMEZONE under a TZID of the
    /// file's own must agree with an IANA zone (`ICalendarZones`).
    public struct Survey: Sendable {
        private var seen: Set<Int> = []
        private var pending: Set<Int> = []
        private var firstYear = Int.max
        private var lastYear = Int.min
        private var recurs = false

        public init() {}

        /// The next of the calendar's components in file order (any but VEVENT and VTODO is passed over).
        public mutating func add(_ component: ICalendarComponent) {
            guard component.name == "VEVENT" || component.name == "VTODO" else { return }
            for name in ["DTSTART", "DUE", "RECURRENCE-ID"] {
                // A DATE or DATE-TIME value begins with its year; any other is the mapping's fault to report, not the survey's.
                guard let value = component[name]?.value.utf8.prefix(4), value.count == 4,
                      value.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { continue }
                let year = value.reduce(0) { $0 * 10 + Int($1 - 48) }
                firstYear = min(firstYear, year)
                lastYear = max(lastYear, year)
            }
            if component["RRULE"] != nil { recurs = true }
            guard let uid = component["UID"] else { return }
            let key = ICalendarText.unescape(uid.value).hashValue
            if component["RECURRENCE-ID"] != nil || !seen.insert(key).inserted { pending.insert(key) }
        }

        /// The years the items' starts, due dates and recurrence IDs fall
        /// in, through `currentYear` and five more when one of them
        /// repeats (a series goes on into the years people look at); nil
        /// when no item has a time.
        public func itemYears(currentYear: Int) -> ClosedRange<Int>? {
            guard firstYear <= lastYear else { return nil }
            return firstYear...(recurs ? max(lastYear, currentYear + 5) : lastYear)
        }

        /// Whether the item keyed `key` is final once mapped.
        func isFinal(_ key: String) -> Bool {
            let hash = key.hashValue
            return seen.contains(hash) && !pending.contains(hash)
        }
    }
}
