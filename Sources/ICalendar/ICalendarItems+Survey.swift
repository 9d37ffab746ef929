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
    /// the end, as if it were not.
    public struct Survey: Sendable {
        private var seen: Set<Int> = []
        private var pending: Set<Int> = []

        public init() {}

        /// The next of the calendar's components in file order (any but VEVENT and VTODO is passed over).
        public mutating func add(_ component: ICalendarComponent) {
            guard component.name == "VEVENT" || component.name == "VTODO" else { return }
            let key = ICalendarItems.key(of: component).hashValue
            if component["RECURRENCE-ID"] != nil || !seen.insert(key).inserted { pending.insert(key) }
        }

        /// Whether the item keyed `key` is final once mapped.
        func isFinal(_ key: String) -> Bool { !pending.contains(key.hashValue) }
    }

    /// What an item is keyed by: its UID, else one derived from its content.
    static func key(of component: ICalendarComponent) -> String {
        component["UID"].map { ICalendarText.unescape($0.value) } ?? derivedUID(of: component)
    }
}
