import CalendarModel

/// What `CalendarStore.importItems` did, item by item, for `chime import`
/// and a subscription's refresh to print.
public struct ImportReport: Hashable, Sendable {
    public enum Outcome: String, Hashable, Sendable {
        /// New to the calendar.
        case added
        /// Replaced by the incoming copy, under the identifier it had.
        case updated
        /// The incoming copy is the same as the stored one: nothing written.
        case unchanged
        /// The stored copy is newer (a higher SEQUENCE, or the same and a
        /// later LAST-MODIFIED): kept, nothing written.
        case keptNewer
        /// No longer in the feed (`removingMissing`), or a part of a series
        /// the batch replaced: removed.
        case removed
    }

    public struct Entry: Hashable, Sendable {
        /// The UID; nil for a removed item that had none.
        public var externalKey: String?
        /// The item's identifier in the store (a removed one's, as it was).
        public var identifier: ItemIdentifier
        public var kind: ItemKind
        public var title: String
        public var outcome: Outcome
    }

    /// In the batch's order, then the removed items.
    public var entries: [Entry]
    /// Copies of a UID the batch held more than once that lost to another
    /// copy of it (by the same rule as a stored copy): not written.
    public var duplicatesIgnored: Int
    /// How many of each outcome besides `entries`: those of batches
    /// appended without their entries (a large import's pieces, whose
    /// entries would take a tenth of its memory).
    public var tally: [Outcome: Int] = [:]

    public init(entries: [Entry] = [], duplicatesIgnored: Int = 0) {
        self.entries = entries
        self.duplicatesIgnored = duplicatesIgnored
    }

    /// Adds what another batch into the same calendar did (an import
    /// written in pieces); with `keepingEntries` false, only how many of
    /// each outcome.
    public mutating func append(_ other: ImportReport, keepingEntries: Bool = true) {
        if keepingEntries {
            entries += other.entries
        } else {
            for entry in other.entries { tally[entry.outcome, default: 0] += 1 }
        }
        tally.merge(other.tally, uniquingKeysWith: +)
        duplicatesIgnored += other.duplicatesIgnored
    }

    public func count(_ outcome: Outcome) -> Int { entries.count { $0.outcome == outcome } + tally[outcome, default: 0] }
    public var added: Int { count(.added) }
    public var updated: Int { count(.updated) }
    public var unchanged: Int { count(.unchanged) }
    public var keptNewer: Int { count(.keptNewer) }
    public var removed: Int { count(.removed) }

    /// Whether the import wrote anything (and so committed a change that
    /// moved the change counter); false means the store is as it was.
    public var changedStore: Bool { added + updated + removed > 0 }
}
