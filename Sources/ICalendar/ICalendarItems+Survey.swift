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
    public struct Survey: Sendable {
        private var seen: Set<Int> = []
        private var pending: Set<Int> = []

        public init() {}

        /// The next of the calendar's components in file order (any but VEVENT and VTODO is passed over).
        public mutating func add(_ component: ICalendarComponent) {
            guard component.name == "VEVENT" || component.name == "VTODO", let uid = component["UID"] else { return }
            let key = ICalendarText.unescape(uid.value).hashValue
            if component["RECURRENCE-ID"] != nil || !seen.insert(key).inserted { pending.insert(key) }
        }

        /// Whether the item keyed `key` is final once mapped.
        func isFinal(_ key: String) -> Bool {
            let hash = key.hashValue
            return seen.contains(hash) && !pending.contains(hash)
        }
    }
}
