import CalendarModel

extension ICalendarItems {
    /// A first look at a VCALENDAR's items that tells, before they are
    /// mapped, which are final once mapped (those whose UID comes once,
    /// with no RECURRENCE-ID), and for the others how many components
    /// carry their UID. A `Gathering` given the survey hands the final
    /// items over as it maps them (`takeFinal`), and the others (a series
    /// with its occurrences, splits or revisions) once the last of their
    /// UID's components has come, so that a caller can write a large file
    /// in pieces and never hold all its items. Without a survey, items with
    /// occurrences or revisions stay until `finish`.
    ///
    /// UIDs are kept as hashes: a collision only keeps a final item to
    /// the end, as if it were not. An item without a UID is never final:
    /// its key comes from its whole content, which a survey of a skimmed
    /// reading (`ICalendarReader.read(_:skimmingItems:handingOver:)`)
    /// does not have.
    public struct Survey: Sendable {
        /// How many components carry each UID.
        private var counts: [Int: Int] = [:]
        private var pending: Set<Int> = []

        public init() {}

        /// The next of the calendar's components in file order (any but VEVENT and VTODO is passed over).
        public mutating func add(_ component: ICalendarComponent) {
            guard component.name == "VEVENT" || component.name == "VTODO", let uid = component["UID"] else { return }
            let key = ICalendarText.unescape(uid.value).hashValue
            // Counted and read in one look-up.
            let count = { (count: inout Int) -> Int in
                count += 1
                return count
            }(&counts[key, default: 0])
            if count > 1 || component["RECURRENCE-ID"] != nil { pending.insert(key) }
        }

        /// Whether the item keyed `key` is final once mapped.
        func isFinal(_ key: String) -> Bool {
            let hash = key.hashValue
            return counts[hash] != nil && !pending.contains(hash)
        }

        /// For a UID whose item is not final once mapped (it comes again,
        /// or has occurrences), how many components carry it: the item is
        /// final once the last of them is mapped. Nil for any other key.
        func componentCount(ofPending key: String) -> Int? {
            let hash = key.hashValue
            return pending.contains(hash) ? counts[hash] : nil
        }
    }
}
