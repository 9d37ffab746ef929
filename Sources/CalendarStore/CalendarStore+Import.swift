import CalendarModel
import Foundation
import SQLiteDatabase

/// Importing a file or refreshing a subscription: an upsert of a batch of
/// items keyed by UID (the external key), idempotent, in one transaction.
extension CalendarStore {
    /// Upserts `items` into `calendar` in one transaction, keyed by UID
    /// (each event's and reminder's `externalKey`):
    ///
    /// - a UID new to the calendar is added;
    /// - a UID it holds is replaced only when the incoming copy wins: a
    ///   higher SEQUENCE wins; with equal SEQUENCEs a later LAST-MODIFIED
    ///   wins; with those equal or missing, the incoming copy wins only if
    ///   it differs from the stored one. A series' revision is the highest
    ///   of its own and its detached occurrences' (an organizer who changes
    ///   one occurrence raises that one's SEQUENCE). Re-importing the same
    ///   file writes nothing, sends no change notice and leaves the change
    ///   counter as it was;
    /// - a series is replaced with its detached occurrences: those the
    ///   incoming copy no longer has are removed;
    /// - an item replaced keeps its identifier, and its alarms and detached
    ///   occurrences theirs where they match (an alarm with the same
    ///   trigger, else by position; an occurrence with the same original
    ///   start), so that what the delivery log recorded of them stays true;
    /// - an event keyed `UID#…` that keeps a RECURRENCE-ID among its
    ///   unmodelled lines (a split series' later part; an occurrence
    ///   imported without its series, as an invitation to one sends it) is
    ///   part of the series keyed UID: a batch holding that series replaces
    ///   it, and it is removed unless the batch holds it too;
    /// - `removingMissing` (a subscription's refresh) also removes every
    ///   event and reminder of the calendar the batch has no UID for.
    ///
    /// The calendar's own identifiers are set on what is written, whatever
    /// the batch's items say. A read-only calendar takes the import only
    /// as a subscription's refresh (`asSubscriptionRefresh`, for a
    /// calendar of kind `.subscribed`) or from its server's collection
    /// (`asSource`): those are the writers such a calendar has. A
    /// subscription's refresh replaces whatever differs, the incoming copy
    /// older or not: the feed is what the calendar shows. A UID the batch holds twice keeps the copy that wins by the same
    /// rule (the later one on a tie). Anything refused (an item without a
    /// UID, an invalid one, a detached occurrence of an event that does
    /// not repeat, the same UID as an event and a reminder) fails the whole
    /// batch, naming the item; nothing of it is written.
    ///
    /// Writes with its own transaction, apart from a pending batch
    /// (`commit: false`), which stays pending.
    ///
    /// `lookup`: how the stored items the batch is compared with are
    /// found (see `ImportLookup`); `.uids` and `.nothingStored` are for
    /// the pieces of a larger import (CalendarExchange's `ImportWriter`).
    @discardableResult
    public func importItems(_ items: CalendarItems, into calendar: ItemIdentifier, removingMissing: Bool = false,
                            asSubscriptionRefresh: Bool = false, lookup: ImportLookup = .calendar) throws(StoreError) -> ImportReport {
        try StoreError.wrap {
            try database.transaction(.immediate) {
                try importChecked({ try prepared(items, calendar: calendar) }, into: calendar, removingMissing: removingMissing,
                                  asSubscriptionRefresh: asSubscriptionRefresh, lookup: removingMissing ? .calendar : lookup)
            }
        }
    }

    /// A batch checked and made ready to write (see `prepareImport`), or
    /// why it cannot be.
    public struct PreparedImport: Sendable {
        fileprivate let calendar: ItemIdentifier
        fileprivate let checked: Result<PreparedBatch, StoreError>

        /// Whether it failed only because another connection held the file
        /// (a store being built, see `CalendarStore.init`'s `building`,
        /// cannot be read while its writer's transaction holds pages it
        /// spilled): the batch is to be made ready again where the store is
        /// written, not refused.
        public var failedOnLock: Bool {
            guard case .failure(.database(let error)) = checked else { return false }
            return error.resultCode == .busy || error.resultCode == .locked
        }
    }

    /// The batch as `importItems` checks it and makes it ready to write
    /// (normalized, validated, each series' range found by expanding it,
    /// each item's rows rendered as they are written when it is new to the
    /// store under its own identifiers), for `importItems(_:lookup:)` to
    /// write. Made without writing (its workday rules read holiday data):
    /// so that a large import can prepare its next piece on a store of its
    /// own (the same file opened read-only, on another thread) while this
    /// one writes the last, and the store's thread only binds the rows of
    /// what is new.
    public func prepareImport(_ items: CalendarItems, into calendar: ItemIdentifier) -> PreparedImport {
        PreparedImport(calendar: calendar, checked: Result { () throws(StoreError) in
            try StoreError.wrap {
                var (batch, duplicates) = try prepared(items, calendar: calendar)
                for index in batch.indices { batch[index].rows = newRows(of: batch[index].item, ranges: batch[index].ranges) }
                return (batch, duplicates)
            }
        })
    }

    /// `importItems` of a batch `prepareImport` made ready, into the
    /// calendar it was prepared for; its failure to prepare is thrown here,
    /// after the calendar is found to take the import.
    @discardableResult
    public func importItems(_ prepared: PreparedImport, lookup: ImportLookup = .calendar) throws(StoreError) -> ImportReport {
        try StoreError.wrap {
            try database.transaction(.immediate) {
                try importChecked({ () throws(StoreError) in try prepared.checked.get() }, into: prepared.calendar, removingMissing: false,
                                  asSubscriptionRefresh: false, lookup: lookup)
            }
        }
    }

    /// How an import finds the stored items it compares its batch with.
    public enum ImportLookup: Sendable {
        /// The whole calendar read, or for a batch of few UIDs those looked
        /// up: a file's or a refresh's one batch.
        case calendar
        /// The batch's UIDs looked up however many they are: a piece of a
        /// larger import, which would otherwise read the whole calendar
        /// again for each piece and hold it beside the piece.
        case uids
        /// None looked up: the caller knows that the calendar holds no item
        /// under any of the batch's UIDs. So it is for a piece of an import
        /// into a calendar that held no items when the import began, and
        /// that only pieces of UIDs given once in one VCALENDAR have
        /// written since; a thousand UIDs looked up for nothing cost a
        /// 10,000-event import about 5% of its time (chime-bench ical).
        case nothingStored
    }

    /// Whether `calendar` holds any event or reminder.
    public func holdsItems(in calendar: ItemIdentifier) throws(StoreError) -> Bool {
        try StoreError.wrap {
            try database.scalar("SELECT EXISTS (SELECT 1 FROM items WHERE calendar_id = ?)", [calendar.rawValue]) ?? false
        }
    }

    /// The batch by UID in its order, each series with the ranges of its
    /// rows (see `prepared`), and how many copies of a UID given twice were left out.
    fileprivate typealias PreparedBatch = (items: [PreparedItem], duplicates: Int)

    /// An item of a batch made ready: its UID, its ranges (a series' own,
    /// then its detached occurrences'), and, rendered where the batch was
    /// prepared (`prepareImport`), its rows should it be new to the store
    /// under the identifiers it has.
    fileprivate struct PreparedItem: Sendable {
        var key: String
        var item: Incoming
        var ranges: [EventRange]
        var rows: [ItemRow]?
    }

    /// An item of the batch, ready to compare and write.
    fileprivate enum Incoming: Sendable {
        case event(CalendarItems.Series)
        case reminder(Reminder)

        var origins: [ICalendarOrigin?] {
            switch self {
            case .event(let series): [series.event.origin] + series.detached.map(\.origin)
            case .reminder(let reminder): [reminder.origin]
            }
        }

        var kind: ItemKind {
            switch self {
            case .event: .event
            case .reminder: .reminder
            }
        }

        var title: String {
            switch self {
            case .event(let series): series.event.title
            case .reminder(let reminder): reminder.title
            }
        }

        var identifier: ItemIdentifier {
            switch self {
            case .event(let series): series.event.identifier
            case .reminder(let reminder): reminder.identifier
            }
        }

        /// Appends its rows' identifiers: a series' own, then its detached occurrences'.
        func appendRowIdentifiers(to identifiers: inout [ItemIdentifier]) {
            switch self {
            case .event(let series):
                identifiers.append(series.event.identifier)
                for occurrence in series.detached { identifiers.append(occurrence.identifier) }
            case .reminder(let reminder): identifiers.append(reminder.identifier)
            }
        }

        var externalKey: String? {
            switch self {
            case .event(let series): series.event.externalKey
            case .reminder(let reminder): reminder.externalKey
            }
        }
    }

    private enum Precedence { case newer, older, same }

    /// The page cache an import writes through, in kilobytes (see `importChecked`).
    public static let importPageCacheKilobytes: Int64 = 1_024

    /// What an import does with one item of its batch (or one it removes),
    /// in the batch's order.
    private enum ImportStep {
        /// Nothing to write: the stored copy is kept (newer, or the same).
        case entry(ImportReport.Entry)
        /// A replacement or a removal, made ready.
        case write(ImportReport.Entry, (Database) throws -> Void)
        /// The batch's item at that position, new to the calendar (in place
        /// of an item of the other kind under its UID, when `replacing`).
        case add(Int, replacing: ItemIdentifier?)

        var writes: Bool {
            if case .entry = self { false } else { true }
        }

        var entry: ImportReport.Entry? {
            if case .entry(let entry) = self { entry } else { nil }
        }
    }

    /// The rows a new item writes: a series' own and its detached occurrences'.
    private static func rows(of incoming: Incoming, ranges: [EventRange]) -> Int {
        switch incoming {
        case .event: ranges.count
        case .reminder: 1
        }
    }

    /// The import of the batch `prepare` makes ready, once the calendar is found to take it.
    private func importChecked(_ prepare: () throws -> PreparedBatch, into calendarIdentifier: ItemIdentifier, removingMissing: Bool,
                               asSubscriptionRefresh: Bool, lookup: ImportLookup) throws -> ImportReport {
        let calendar = try self.calendar(identifier: calendarIdentifier)
        if !calendar.allowsContentModifications, !isWritingAsSource {
            guard asSubscriptionRefresh, case .subscribed = calendar.kind else { throw StoreError.readOnlyCalendar(title: calendar.title) }
        }
        let (batch, duplicates) = try prepare()
        let taken = try takenIdentifiers(among: batch)
        let contents: CalendarItems
        switch lookup {
        case .nothingStored: contents = CalendarItems()
        case .calendar, .uids:
            contents = try storedItems(of: calendarIdentifier, matching: removingMissing ? nil : Set(batch.map(\.key)), lookingUp: lookup == .uids)
        }
        let stored = contents.events.map(Incoming.event) + contents.reminders.map(Incoming.reminder)
        var storedByKey: [String: Int] = [:]
        for (index, item) in stored.enumerated() {
            if let key = item.externalKey { storedByKey[key] = index }
        }

        var report = ImportReport(duplicatesIgnored: duplicates)
        // Decided for the whole batch first, written after: how the change
        // log is kept depends on how many rows the batch writes (see below).
        // A new item's copy is made only as it is written and let go after,
        // so that the batch's items are not held twice at once.
        var steps: [ImportStep] = []
        var rows = 0
        // The items the writes insert or update, for the change log (see below).
        var written: [ItemIdentifier] = []
        for (position, prepared) in batch.enumerated() {
            let (key, incoming, ranges) = (prepared.key, prepared.item, prepared.ranges)
            guard let index = storedByKey[key] else {
                steps.append(.add(position, replacing: nil))
                rows += Self.rows(of: incoming, ranges: ranges)
                continue
            }
            let old = stored[index]
            let precedence = Self.precedence(of: incoming.origins, over: old.origins)
            if precedence == .older && !asSubscriptionRefresh {
                steps.append(.entry(.init(externalKey: key, identifier: old.identifier, kind: old.kind, title: old.title, outcome: .keptNewer)))
                continue
            }
            let isNewer = precedence == .newer
            let updated = ImportReport.Entry(externalKey: key, identifier: old.identifier, kind: old.kind, title: incoming.title, outcome: .updated)
            switch (incoming, old) {
            case (.event(let series), .event(let previous)):
                let replacement = try adopting(series, from: previous, ranges: ranges, taken: taken)
                if !isNewer && replacement.series == previous {
                    steps.append(.entry(.init(externalKey: key, identifier: previous.event.identifier, kind: .event,
                                              title: previous.event.title, outcome: .unchanged)))
                    continue
                }
                let gone = previous.detached.filter { old in !replacement.series.detached.contains { $0.identifier == old.identifier } }
                let ranges = replacement.ranges
                steps.append(.write(updated) { db in
                    for occurrence in gone { try self.delete(occurrence.identifier, in: db) }
                    try self.write(replacement.series.event, range: ranges[0], in: db)
                    for (occurrence, range) in zip(replacement.series.detached, ranges.dropFirst()) {
                        try self.write(occurrence, range: range, in: db)
                    }
                })
                rows += gone.count + ranges.count
                written += [replacement.series.event.identifier] + replacement.series.detached.map(\.identifier)
            case (.reminder(let reminder), .reminder(let previous)):
                var replacement = reminder
                replacement.identifier = previous.identifier
                replacement.alarms = Self.adoptingIdentifiers(of: previous.alarms, into: reminder.alarms)
                if !isNewer && replacement == previous {
                    steps.append(.entry(.init(externalKey: key, identifier: previous.identifier, kind: .reminder, title: previous.title,
                                              outcome: .unchanged)))
                    continue
                }
                let due = try? replacement.due?.instant(machine: machineTimeZone)
                steps.append(.write(updated) { db in try self.write(replacement, dueInstant: due, in: db) })
                rows += 1
                written.append(replacement.identifier)
            default:
                // The UID now names an item of the other kind: the old one goes, the new one comes under a new identifier.
                steps.append(.add(position, replacing: old.identifier))
                rows += 1 + Self.rows(of: incoming, ranges: ranges)
            }
        }
        let kept = Set(batch.map(\.key))
        // An item keyed `UID#…` that keeps a RECURRENCE-ID (a later part of a
        // split, an occurrence imported without its series) is part of the
        // series keyed UID: the series, when it comes, replaces it.
        for item in stored where !removingMissing && Self.isPartOfSeries(item, among: kept) {
            let identifier = item.identifier
            steps.append(.write(.init(externalKey: item.externalKey, identifier: identifier, kind: item.kind, title: item.title,
                                      outcome: .removed)) { db in try self.delete(identifier, in: db) })
            rows += 1
        }
        if removingMissing {
            for item in stored where item.externalKey.map({ !kept.contains($0) }) ?? true {
                let identifier = item.identifier
                steps.append(.write(.init(externalKey: item.externalKey, identifier: identifier, kind: item.kind, title: item.title,
                                          outcome: .removed)) { db in try self.delete(identifier, in: db) })
                rows += 1
            }
        }
        guard steps.contains(where: \.writes) else {
            report.entries = steps.compactMap(\.entry)
            return report
        }
        // As `commit()` does: a batch the change log could not hold is not
        // logged. A large one it can hold is logged in one statement rather
        // than by the triggers row by row: the same entries, without a
        // trigger program per row (what taking the triggers off and putting
        // them back costs pays for itself past `itemChangesLoggedAtOnce` rows).
        // Deletes stay with their trigger: a cascade removes rows the batch does not name.
        let suspended: (triggers: [String], logged: Bool)?
        if importState != nil {
            // An import written in pieces has taken them off for all its pieces.
            suspended = nil
        } else if rows > Self.itemChangesKept {
            suspended = (try Self.suspendItemChangeLog(database), false)
        } else if rows >= Self.itemChangesLoggedAtOnce {
            suspended = (try Self.suspendItemChangeLog(database, keepingDeletes: true), true)
        } else {
            suspended = nil
        }
        report.entries.reserveCapacity(steps.count)
        try withImportPageCache {
        for step in steps {
            switch step {
            case .entry(let entry):
                report.entries.append(entry)
            case .write(let entry, let write):
                try write(database)
                report.entries.append(entry)
            case .add(let position, let previous):
                // Rendered beforehand unless an identifier of its is taken (then it takes new ones).
                let rows = batch[position].rows.flatMap { rows in taken.isEmpty || !rows.contains { taken.contains($0.identifier) } ? rows : nil }
                    ?? newRows(of: Self.renamed(batch[position].item, taken: taken), ranges: batch[position].ranges)
                if let previous { try delete(previous, in: database) }
                for row in rows { try writeItem(row, in: database) }
                written += rows.map(\.identifier)
                report.entries.append(.init(externalKey: batch[position].key, identifier: rows[0].identifier, kind: batch[position].item.kind,
                                            title: batch[position].item.title, outcome: previous == nil ? .added : .updated))
            }
        }
        }
        if importState != nil {
            // Logged as each piece is written, not all at the end: the store's thread has time while the reading runs.
            try Self.logItemChanges(written, database)
            importState?.logged += written.count
        } else if let suspended {
            try Self.resumeItemChangeLog(suspended.triggers, database, logging: suspended.logged ? written : nil)
        }
        try database.execute("UPDATE store_state SET change_counter = change_counter + 1 WHERE id = 1")
        if importState == nil { try Self.pruneItemChanges(database) }
        return report
    }

    /// As `transaction`, for an import written in pieces (CalendarExchange's
    /// `ImportWriter`): the page cache is held small throughout (see
    /// `withImportPageCache`), not only while each piece writes, so that
    /// what the pieces dirtied is spilled rather than kept to the commit.
    /// The pieces' own transactions are folded into it (see
    /// `Database.transaction(_:foldingNested:)`): the import is all or
    /// nothing, so a throw inside `body` must leave it, as `ImportWriter`'s
    /// failure does through `CalendarImport.apply`.
    ///
    /// The change log's triggers for inserts and updates are off for the
    /// whole import, and what each piece inserted and updated goes into the
    /// log in one statement (past `itemChangesKept` in all, the log gets a
    /// gap at the end), as one batch's import does: taken off and put back for each piece,
    /// they changed the schema twice a piece, and every statement cached was
    /// compiled again after (a tenth of what the store's thread did for a
    /// 10,000-event import). Begun on a store without items, it keeps the
    /// identifiers its writes use, so that no piece asks the store which of
    /// its own are taken: the write lock held from the start, nothing else
    /// can have written one. Nested in another import, it is part of that one.
    public func importTransaction<T, Failure: Error>(_ body: () throws(Failure) -> T) throws -> T {
        try transaction(foldingNested: true) { () throws -> T in
            guard importState == nil else { return try body() }
            let empty: Bool = try database.scalar("SELECT NOT EXISTS (SELECT 1 FROM items)") ?? false
            importState = ImportState(triggers: try Self.suspendItemChangeLog(database, keepingDeletes: true), written: empty ? [] : nil)
            defer { importState = nil }
            let result = try withImportPageCache { try body() }
            if let state = importState {
                try Self.resumeItemChangeLog(state.triggers, database, logging: state.logged > Self.itemChangesKept ? nil : [])
                try Self.pruneItemChanges(database)
            }
            return result
        }
    }

    /// What an `importTransaction` keeps for the whole import.
    struct ImportState {
        /// The change log's triggers it took off (see `importTransaction`).
        var triggers: [String]
        /// How many items its pieces logged as inserted or updated.
        var logged = 0
        /// Begun on a store without items: every item written since, which
        /// are then all the identifiers the store holds (see
        /// `takenIdentifiers`). Nil otherwise.
        var written: Set<ItemIdentifier>?
    }

    /// Runs `body` with the page cache at `importPageCacheKilobytes` at
    /// most. The store's page cache (128 MB at most) would hold every page
    /// a batch dirties until it commits: a third of a 10,000-event import's
    /// peak memory. Past a small cap SQLite spills them to the WAL, which
    /// measured no slower here (chime-bench ical, 2,048 KB against 128 MB).
    /// But each page spilled and changed again is read back and spilled
    /// anew: for a 10,000-event import (chime-bench ical), 512 KB read 71 MB
    /// from the WAL and wrote 58 MB to it, 1,024 KB 34 MB and 22 MB, 2,048 KB
    /// 19 MB and 8 MB; the import's memory was 2.34, 2.48 and 2.84 times its
    /// file. 1,024 KB keeps it well within 3 times, for half the I/O.
    private func withImportPageCache<T>(_ body: () throws -> T) throws -> T {
        let cacheSize: Int64? = try database.scalar("PRAGMA cache_size")
        // cache_size is in kilobytes when negative, else in pages (4 KB, the store's).
        let lowered = cacheSize.map { ($0 < 0 ? -$0 : $0 * 4) > Self.importPageCacheKilobytes } ?? false
        if lowered { try database.execute("PRAGMA cache_size = -\(Self.importPageCacheKilobytes)") }
        defer { if lowered, let cacheSize { try? database.execute("PRAGMA cache_size = \(cacheSize)") } }
        return try body()
    }

    /// Whether a stored event is a part of a series (see `importChecked`)
    /// whose UID the batch holds, and that the batch does not hold itself.
    /// From how many UIDs an import reads the whole calendar rather than
    /// looking its UIDs up: a sync's few changes look up, a file's thousands
    /// read once.
    static let importLookupLimit = 100

    /// What an import compares its batch with: the calendar's items keyed
    /// by one of `keys`, or a part of such a series (`UID#…`, see
    /// `isPartOfSeries`); the whole calendar for nil, or for many keys
    /// unless `lookingUp`.
    private func storedItems(of calendar: ItemIdentifier, matching keys: Set<String>?, lookingUp: Bool) throws -> CalendarItems {
        guard let keys, lookingUp || keys.count <= Self.importLookupLimit else { return try storedItems(of: calendar) }
        let list = Self.jsonArray(Array(keys))
        // Both halves are driven by the keys, each a seek in the index on
        // (calendar_id, external_key): the keys themselves, and for each
        // the range of keys it begins followed by '#' ('#' to '$' in
        // binary order). Tested row by row, they read the whole calendar
        // for every batch, which an import written in pieces pays once a
        // piece. CROSS JOIN: the keys outside, as SQLite would not choose.
        return try storedItems(where: "rowid IN (SELECT rowid FROM items WHERE calendar_id = ? AND external_key IN (SELECT value FROM json_each(?)) "
                                   + "UNION SELECT items.rowid FROM json_each(?) AS k CROSS JOIN items ON items.calendar_id = ? "
                                   + "AND items.external_key >= k.value || '#' AND items.external_key < k.value || '$')",
                               [calendar.rawValue, list, list, calendar.rawValue])
    }

    private static func isPartOfSeries(_ item: Incoming, among keys: Set<String>) -> Bool {
        guard case .event(let series) = item, let key = series.event.externalKey, !keys.contains(key),
              let cut = key.lastIndex(of: "#"), keys.contains(String(key[..<cut])) else { return false }
        return series.event.origin?.keepsProperty(named: "RECURRENCE-ID") ?? false
    }

    /// The batch checked and made ready to write, by UID in the batch's
    /// order, each series with the ranges its rows are written with (found
    /// once: a finite series' range walks all its occurrences), with how
    /// many copies of a UID given twice were left out.
    private func prepared(_ items: CalendarItems, calendar: ItemIdentifier) throws -> PreparedBatch {
        var batch: [PreparedItem] = []
        // Its size at once: grown by doubling, a large batch would be held twice while it moves.
        batch.reserveCapacity(items.events.count + items.reminders.count)
        var position: [String: Int] = [:]
        var duplicates = 0
        func add(_ item: Incoming, ranges: [EventRange] = [], key: String?, title: String) throws {
            guard let key, !key.isEmpty else {
                throw ValidationError(field: "UID", value: title, reason: "is missing: an imported item needs one (its external key)")
            }
            guard let index = position[key] else {
                position[key] = batch.count
                batch.append(PreparedItem(key: key, item: item, ranges: ranges))
                return
            }
            let other = batch[index].item
            guard other.kind == item.kind else {
                throw ValidationError(field: "UID", value: key, reason: "names both an event and a reminder ('\(other.title)', '\(title)')")
            }
            duplicates += 1
            if Self.precedence(of: item.origins, over: other.origins) != .older { batch[index] = PreparedItem(key: key, item: item, ranges: ranges) }
        }
        for series in items.events {
            let (checked, ranges) = try prepared(series, calendar: calendar)
            try add(.event(checked), ranges: ranges, key: series.event.externalKey, title: series.event.title)
        }
        for reminder in items.reminders {
            try add(.reminder(try prepared(reminder, calendar: calendar)), key: reminder.externalKey, title: reminder.title)
        }
        return (batch, duplicates)
    }

    /// A series as the store keeps it, checked: the detached occurrences
    /// name it and carry no rule, dates or key of their own. With the
    /// ranges of its rows, the series' first, then its detached occurrences'.
    private func prepared(_ series: CalendarItems.Series, calendar: ItemIdentifier) throws
        -> (CalendarItems.Series, [EventRange]) {
        var event = normalized(series.event)
        let uid = event.externalKey ?? event.title
        // Set only when it differs: setting copies the event's shared storage, which the batch's caller still holds.
        if event.calendarIdentifier != calendar { event.calendarIdentifier = calendar }
        event.seriesIdentifier = nil
        event.originalStart = nil
        let range = try checked(event, uid: uid)
        if !series.detached.isEmpty && event.recurrenceRule == nil && event.extraDates.isEmpty {
            throw ValidationError(field: "item", value: uid, reason: "(\(event.title)) has detached occurrences (RECURRENCE-ID) but does not repeat")
        }
        var starts: Set<LocalDateTime> = []
        var detached: [(event: Event, range: EventRange)] = []
        for occurrence in series.detached {
            guard let originalStart = occurrence.originalStart else {
                throw ValidationError(field: "item", value: uid, reason: "(\(event.title)) has a detached occurrence without an original start")
            }
            guard starts.insert(originalStart).inserted else {
                throw ValidationError(field: "item", value: uid, reason: "(\(event.title)) has two detached occurrences for \(originalStart)")
            }
            var copy = normalized(occurrence)
            if copy.calendarIdentifier != calendar { copy.calendarIdentifier = calendar }
            copy.seriesIdentifier = event.identifier
            copy.externalKey = nil
            copy.recurrenceRule = nil
            copy.exceptionDates = []
            copy.extraDates = []
            detached.append((copy, try checked(copy, uid: uid)))
        }
        detached.sort { $0.event.originalStart! < $1.event.originalStart! }
        return (CalendarItems.Series(event: event, detached: detached.map(\.event)), [range] + detached.map(\.range))
    }

    private func prepared(_ reminder: Reminder, calendar: ItemIdentifier) throws -> Reminder {
        var copy = reminder
        copy.calendarIdentifier = calendar
        copy.completionDate = copy.completionDate.map(Self.asStored)
        if let rule = copy.recurrenceRule { copy.recurrenceRule = reread(rule) }
        copy.alarms = copy.alarms.map(Self.normalized)
        let uid = copy.externalKey ?? copy.title
        do {
            try copy.validate()
            try Self.validateOrigin(copy.origin)
            try validateWorkdayRegion(of: copy.recurrenceRule)
        } catch {
            throw Self.naming(error, uid: uid, title: copy.title)
        }
        return copy
    }

    /// What `save` checks of an event, with the UID in the error; the
    /// range its row is written with.
    private func checked(_ event: Event, uid: String) throws -> EventRange {
        do {
            try event.validate()
            try Self.validateOrigin(event.origin)
            try validateWorkdayRegion(of: event.recurrenceRule)
            return try eventRange(event)
        } catch {
            throw Self.naming(error, uid: uid, title: CalendarItems.name(of: event))
        }
    }

    /// A validation error about an item of the batch, named by its UID.
    private static func naming(_ error: any Error, uid: String, title: String) -> any Error {
        let reason: String
        switch error {
        case let error as ValidationError: reason = error.description
        case StoreError.invalid(let error): reason = error.description
        default: return error
        }
        return ValidationError(field: "item", value: uid, reason: "(\(title)): \(reason)")
    }

    /// Which copy is newer by revision: SEQUENCE, then LAST-MODIFIED, each
    /// the highest of the item's copies (a series and its detached
    /// occurrences); none (an item made in Chime) counts as SEQUENCE 0.
    private static func precedence(of incoming: [ICalendarOrigin?], over stored: [ICalendarOrigin?]) -> Precedence {
        func revision(_ origins: [ICalendarOrigin?]) -> (Int, Int64?) {
            (origins.map { $0?.sequence ?? 0 }.max() ?? 0, origins.compactMap { $0?.lastModified }.max())
        }
        switch ICalendarOrigin.compareRevisions(revision(incoming), revision(stored)) {
        case .later: return .newer
        case .earlier: return .older
        case .same: return .same
        }
    }

    /// An event as it reads back: its rule through its text and absolute
    /// alarm times through the column's seconds, so that an unchanged copy
    /// compares equal to the stored one.
    private func normalized(_ event: Event) -> Event {
        var copy = event
        if let rule = event.recurrenceRule { copy.recurrenceRule = reread(rule) }
        if event.alarms.contains(where: { if case .absolute = $0.trigger { true } else { false } }) {
            copy.alarms = event.alarms.map(Self.normalized)
        }
        return copy
    }

    /// A rule as it reads back from its text, as the store holds it,
    /// through the rules the store has parsed (`parsedRule`), which the
    /// pieces of an import and the reads after it share. A rule whose text
    /// does not read back stays as it is.
    private func reread(_ rule: RecurrenceRule) -> RecurrenceRule {
        (try? parsedRule(rule.rfc5545)) ?? rule
    }

    private static func normalized(_ alarm: Alarm) -> Alarm {
        guard case .absolute(let date) = alarm.trigger else { return alarm }
        var copy = alarm
        copy.trigger = .absolute(asStored(date))
        return copy
    }

    private static func asStored(_ date: Date) -> Date { Date(timeIntervalSince1970: date.timeIntervalSince1970) }

    /// `incoming` alarms under the identifiers of `stored` ones: an
    /// alarm equal but for its identifier takes that one's, the rest take
    /// the remaining ones in order, and any left over get new identifiers
    /// (a batch's own could be in use elsewhere in the store).
    static func adoptingIdentifiers(of stored: [Alarm], into incoming: [Alarm]) -> [Alarm] {
        var unused = Array(stored.indices)
        var result: [Alarm?] = Array(repeating: nil, count: incoming.count)
        for (index, alarm) in incoming.enumerated() {
            if let match = unused.firstIndex(where: { var same = alarm; same.identifier = stored[$0].identifier; return same == stored[$0] }) {
                result[index] = { var same = alarm; same.identifier = stored[unused[match]].identifier; return same }()
                unused.remove(at: match)
            }
        }
        for index in incoming.indices where result[index] == nil {
            var alarm = incoming[index]
            if unused.isEmpty {
                alarm = alarm.copy
            } else {
                alarm.identifier = stored[unused.removeFirst()].identifier
            }
            result[index] = alarm
        }
        return result.compactMap { $0 }
    }

    /// An incoming series under the stored one's identifiers, with the
    /// ranges its rows are written with (`ranges`, `prepared`'s: taking
    /// identifiers moves no time).
    private func adopting(_ series: CalendarItems.Series, from previous: CalendarItems.Series, ranges: [EventRange],
                          taken: Set<ItemIdentifier>) throws
        -> (series: CalendarItems.Series, ranges: [EventRange]) {
        var event = series.event
        event.identifier = previous.event.identifier
        event.alarms = Self.adoptingIdentifiers(of: previous.event.alarms, into: series.event.alarms)
        var detached: [Event] = []
        for occurrence in series.detached {
            var copy = occurrence
            copy.seriesIdentifier = event.identifier
            if let old = previous.detached.first(where: { $0.originalStart == occurrence.originalStart }) {
                copy.identifier = old.identifier
                copy.alarms = Self.adoptingIdentifiers(of: old.alarms, into: occurrence.alarms)
            } else {
                copy.identifier = Self.unused(occurrence.identifier, taken: taken)
                copy.alarms = occurrence.alarms.map(\.copy)
            }
            detached.append(copy)
        }
        let replacement = CalendarItems.Series(event: event, detached: detached)
        return (replacement, ranges)
    }

    /// The rows an item new to the store writes (a series' own, then its
    /// detached occurrences'), under its identifiers, and its alarms under
    /// new ones (the batch's could be in use elsewhere in the store).
    private func newRows(of incoming: Incoming, ranges: [EventRange]) -> [ItemRow] {
        switch incoming {
        case .event(let series):
            [Self.row(of: series.event, range: ranges[0], freshAlarmIdentifiers: true)]
                + zip(series.detached, ranges.dropFirst()).map { Self.row(of: $0, range: $1, freshAlarmIdentifiers: true) }
        case .reminder(let reminder):
            [Self.row(of: reminder, dueInstant: try? reminder.due?.instant(machine: machineTimeZone), freshAlarmIdentifiers: true)]
        }
    }

    /// An item of the batch under identifiers the store does not use: its
    /// own where they are free (see `unused`).
    private static func renamed(_ incoming: Incoming, taken: Set<ItemIdentifier>) -> Incoming {
        guard !taken.isEmpty else { return incoming }
        switch incoming {
        case .event(let series):
            var event = series.event
            event.identifier = unused(event.identifier, taken: taken)
            let detached = series.detached.map { occurrence in
                var copy = occurrence
                copy.seriesIdentifier = event.identifier
                copy.identifier = unused(occurrence.identifier, taken: taken)
                return copy
            }
            return .event(CalendarItems.Series(event: event, detached: detached))
        case .reminder(let reminder):
            var copy = reminder
            copy.identifier = unused(reminder.identifier, taken: taken)
            return .reminder(copy)
        }
    }

    /// `identifier`, or a new one where the store has an item under it
    /// already (a batch imported twice, into two calendars).
    private static func unused(_ identifier: ItemIdentifier, taken: Set<ItemIdentifier>) -> ItemIdentifier {
        taken.contains(identifier) ? .random() : identifier
    }

    /// Which of the batch's identifiers (its items' and their detached
    /// occurrences') the store holds before the batch is written: one query
    /// for the batch rather than one a row. In an import begun on a store
    /// without items, those it wrote since (`ImportState.written`): the query was
    /// a tenth of what the store's thread did for a 10,000-event import.
    private func takenIdentifiers(among batch: [PreparedItem]) throws -> Set<ItemIdentifier> {
        // Through the items in place: a map over the batch copied each
        // item out, and an array for each (a third of this function's cost).
        var identifiers: [ItemIdentifier] = []
        identifiers.reserveCapacity(batch.count)
        for index in batch.indices { batch[index].item.appendRowIdentifiers(to: &identifiers) }
        if let written = importState?.written { return Set(identifiers.filter(written.contains)) }
        guard !identifiers.isEmpty else { return [] }
        var taken: Set<ItemIdentifier> = []
        try database.forEachRow("SELECT id FROM items WHERE id IN (SELECT value FROM json_each(?))",
                                [Self.jsonArray(identifiers)]) { row in
            if let identifier = ItemIdentifier(try row.value(0) as String) { taken.insert(identifier) }
            return true
        }
        return taken
    }

    /// Refuses a SEQUENCE below zero (RFC 5545 §3.8.7.4 makes it a
    /// non-negative integer), which the store's column cannot hold.
    static func validateOrigin(_ origin: ICalendarOrigin?) throws(StoreError) {
        if let origin, origin.sequence < 0 {
            throw .invalid(ValidationError(field: "SEQUENCE", value: String(origin.sequence), reason: "must not be negative"))
        }
    }
}

