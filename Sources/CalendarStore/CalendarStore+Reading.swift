import CalendarModel
import Foundation
import SQLiteDatabase

/// How rows become items. Every item read selects `itemColumns` and reads
/// them by position straight from the statement: a query over ten thousand
/// series would otherwise spend a third of its time building `Row`s and
/// looking columns up by name.
extension CalendarStore {
    /// The columns of `items` every read selects, in the order of `ItemColumn`.
    static let itemColumns = """
        id, calendar_id, title, location, notes, url, start_kind, start_local, start_zone, end_kind, end_local, end_zone, \
        due_kind, due_local, due_zone, rrule, exdates, rdates, priority, completed, completion_date, external_key, \
        series_id, original_start, has_alarms, type, structured_title, structured_latitude, structured_longitude, \
        structured_radius, ical_sequence, ical_last_modified, ical_unmodelled
        """

    /// `itemColumns` for reading events in range queries: the reminders'
    /// columns and the iCalendar origin are NULL literals in their places,
    /// so that a range query over thousands of rows does not have SQLite
    /// decode columns no occurrence shown needs (events it returns carry
    /// no origin: read one by identifier, or `items(of:)`, for that).
    static let eventColumns = itemColumns
        .replacingOccurrences(of: "due_kind, due_local, due_zone,", with: "NULL, NULL, NULL,")
        .replacingOccurrences(of: "priority, completed, completion_date,", with: "NULL, NULL, NULL,")
        .replacingOccurrences(of: "ical_sequence, ical_last_modified, ical_unmodelled", with: "NULL, NULL, NULL")

    /// `itemColumns` for the planner's walk over every alarmed item: what
    /// rings needs neither the structured location nor the origin.
    static let planColumns = itemColumns
        .replacingOccurrences(of: "structured_title, structured_latitude, structured_longitude, ", with: "NULL, NULL, NULL, ")
        .replacingOccurrences(of: "structured_radius, ical_sequence, ical_last_modified, ical_unmodelled", with: "NULL, NULL, NULL, NULL")

    enum ItemColumn: Int {
        case id, calendar, title, location, notes, url, start, end = 9, due = 12, rrule = 15, exdates, rdates, priority,
             completed, completionDate, externalKey, series, originalStart, hasAlarms, type, structuredTitle, structuredLatitude,
             structuredLongitude, structuredRadius, sequence, lastModified, unmodelled
    }

    /// The alarms table's columns, in the order `alarm(_:)` reads them.
    static let alarmColumns = """
        item_id, id, kind, absolute_at, offset_seconds, location_title, latitude, longitude, radius, proximity, missed_window,
        dwell, fires_on_first_fix, unmodelled, acknowledged, snoozed_until, snoozed_occurrence
        """

    /// Calls `body` at each item row that `condition` (SQL over `items`)
    /// selects, in `order`; `body` reads the row with `event(_:)` or
    /// `reminder(_:)` and returns false to stop. Several conditions
    /// are read one after the other (`UNION ALL`), each with its own index.
    func forEachItem(where condition: String, or others: [String] = [], order: String? = nil, columns: String = itemColumns,
                     _ arguments: [(any DatabaseValueConvertible)?], _ body: (Statement) throws -> Bool) throws {
        let sql = ([condition] + others).map { "SELECT \(columns) FROM items WHERE \($0)" }.joined(separator: " UNION ALL ")
            + (order.map { " ORDER BY \($0)" } ?? "")
        try database.withStatement(sql) { statement in
            try statement.bind(arguments)
            while try statement.advance() {
                guard try body(statement) else { return }
            }
        }
    }

    /// The items `condition` selects, read by `decode` (`event(_:)` or `reminder(_:)`).
    func fetchItems<Item>(where condition: String, _ arguments: [(any DatabaseValueConvertible)?],
                          as decode: (Statement) throws -> Item) throws -> [Item] {
        var items: [Item] = []
        try forEachItem(where: condition, arguments) { row in
            items.append(try decode(row))
            return true
        }
        return items
    }

    func event(_ row: Statement) throws -> Event {
        var event = try eventSchedule(row)
        try addDetails(to: &event, row)
        return event
    }

    /// The part of an event row that says when it happens (identifier,
    /// start, end, rule, exception and extra dates), the rest left blank:
    /// a range query reads thousands of series that have no occurrence in
    /// the range, and needs no more of them than this.
    func eventSchedule(_ row: Statement) throws -> Event {
        let identifier = try Self.identifier(row, .id)
        guard let start = try Self.time(row, .start), let end = try Self.time(row, .end) else {
            throw StoreError.damaged(item: identifier.rawValue, reason: "an event without a start or an end")
        }
        let repetition = try repetition(row, of: identifier)
        return Event(identifier: identifier, calendarIdentifier: identifier, title: "", start: start, end: end,
                     recurrenceRule: repetition.rule, exceptionDates: repetition.exceptionDates, extraDates: repetition.extraDates)
    }

    /// A row's rule (see `parsedRule`) and its exception and extra dates.
    func repetition(_ row: Statement, of item: ItemIdentifier) throws -> Repetition {
        var rule: RecurrenceRule?
        if let text = row.text(ItemColumn.rrule.rawValue) {
            do { rule = try parsedRule(text) } catch {
                throw StoreError.damaged(item: item.rawValue, reason: "its rule '\(text)' does not parse: \(error)")
            }
        }
        return Repetition(rule: rule, exceptionDates: Self.dates(row, .exdates), extraDates: Self.dates(row, .rdates))
    }

    /// The rule `text` says, parsed once while the store holds fewer than
    /// 10,000 texts (reading one costs microseconds, and a calendar's
    /// series share a few: every weekday stand-up).
    func parsedRule(_ text: String) throws(RecurrenceRuleError) -> RecurrenceRule {
        if let parsed = parsedRules[text] { return parsed }
        let rule = try RecurrenceRule(rfc5545: text)
        if parsedRules.count >= 10_000 { parsedRules.removeAll(keepingCapacity: true) }
        parsedRules[text] = rule
        return rule
    }

    struct Repetition {
        var rule: RecurrenceRule?
        var exceptionDates: [LocalDateTime]
        var extraDates: [LocalDateTime]
    }

    /// The rest of an event row, on an event read by `eventSchedule(_:)`;
    /// without its alarms when the caller fetches those itself.
    func addDetails(to event: inout Event, _ row: Statement, alarms withAlarms: Bool = true) throws {
        event.calendarIdentifier = try Self.identifier(row, .calendar)
        event.title = Self.text(row, .title)
        event.location = Self.text(row, .location)
        event.notes = Self.text(row, .notes)
        event.url = row.text(ItemColumn.url.rawValue)
        if withAlarms { event.alarms = try alarms(row, of: event.identifier) }
        event.externalKey = row.text(ItemColumn.externalKey.rawValue)
        event.seriesIdentifier = row.isNull(ItemColumn.series.rawValue) ? nil : try Self.identifier(row, .series)
        event.originalStart = row.isNull(ItemColumn.originalStart.rawValue)
            ? nil : LocalDateTime(localSeconds: row.int64(ItemColumn.originalStart.rawValue))
        if !row.isNull(ItemColumn.structuredLatitude.rawValue) {
            event.structuredLocation = try Self.structuredLocation(row, of: event.identifier)
        }
        if let origin = Self.origin(row) { event.origin = origin }
    }

    /// The structured location in a row, which a check constraint keeps valid
    /// unless something else wrote the file.
    private static func structuredLocation(_ row: Statement, of item: ItemIdentifier) throws -> StructuredLocation {
        do {
            return try StructuredLocation(title: text(row, .structuredTitle), latitude: row.double(ItemColumn.structuredLatitude.rawValue),
                                          longitude: row.double(ItemColumn.structuredLongitude.rawValue),
                                          radius: row.double(ItemColumn.structuredRadius.rawValue))
        } catch {
            throw StoreError.damaged(item: item.rawValue, reason: "its structured location does not hold: \(error)")
        }
    }

    /// The iCalendar origin in a row: none where the sequence is NULL (an
    /// item made in Chime, or a read that selected a NULL literal instead).
    private static func origin(_ row: Statement) -> ICalendarOrigin? {
        guard !row.isNull(ItemColumn.sequence.rawValue) else { return nil }
        let lastModified = ItemColumn.lastModified.rawValue
        return ICalendarOrigin(sequence: Int(row.int64(ItemColumn.sequence.rawValue)),
                               lastModified: row.isNull(lastModified) ? nil : row.int64(lastModified),
                               unmodelled: text(row, .unmodelled))
    }

    func reminder(_ row: Statement, alarms withAlarms: Bool = true) throws -> Reminder {
        let identifier = try Self.identifier(row, .id)
        let completion = ItemColumn.completionDate.rawValue
        return Reminder(identifier: identifier, calendarIdentifier: try Self.identifier(row, .calendar),
                        title: Self.text(row, .title), notes: Self.text(row, .notes), location: Self.text(row, .location),
                        url: row.text(ItemColumn.url.rawValue), priority: Int(row.int64(ItemColumn.priority.rawValue)),
                        start: try Self.time(row, .start), due: try Self.time(row, .due),
                        isCompleted: row.int64(ItemColumn.completed.rawValue) != 0,
                        completionDate: row.isNull(completion) ? nil : Date(timeIntervalSince1970: row.double(completion)),
                        recurrenceRule: try repetition(row, of: identifier).rule,
                        alarms: withAlarms ? try alarms(row, of: identifier) : [],
                        externalKey: row.text(ItemColumn.externalKey.rawValue), origin: Self.origin(row))
    }

    private static func text(_ row: Statement, _ column: ItemColumn) -> String {
        row.text(column.rawValue) ?? ""
    }

    private static func identifier(_ row: Statement, _ column: ItemColumn) throws -> ItemIdentifier {
        guard let identifier = row.identifier(column.rawValue) else {
            throw StoreError.damaged(item: row.text(ItemColumn.id.rawValue) ?? "?",
                                     reason: "\(column) holds '\(row.text(column.rawValue) ?? "NULL")', not an identifier")
        }
        return identifier
    }

    /// The item time in the three columns from `first` (kind, local seconds, zone).
    private static func time(_ row: Statement, _ first: ItemColumn) throws -> ItemTime? {
        // The kind is matched on its bytes: a range query reads two times
        // from each of thousands of rows.
        guard let kind = row.withUTF8(first.rawValue, TimeKind.init) else { return nil }
        let local = LocalDateTime(localSeconds: row.int64(first.rawValue + 1))
        switch kind {
        case .date: return .date(local.date)
        case .floating: return .floating(local)
        case .zoned: return .zoned(local, zone: row.text(first.rawValue + 2) ?? "UTC")
        case .zonedLater: return .zoned(local, zone: row.text(first.rawValue + 2) ?? "UTC", fold: .later)
        case .unknown:
            throw StoreError.damaged(item: row.text(ItemColumn.id.rawValue) ?? "?",
                                     reason: "\(first) has an unknown kind '\(row.text(first.rawValue) ?? "")'")
        }
    }

    private enum TimeKind {
        case date, floating, zoned, zonedLater, unknown

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            func equals(_ literal: StaticString) -> Bool {
                bytes.count == literal.utf8CodeUnitCount && (bytes.isEmpty || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
            }
            self = equals("zoned") ? .zoned : equals("date") ? .date : equals("floating") ? .floating
                : equals("zoned-later") ? .zonedLater : .unknown
        }
    }

    /// The dates of a comma-separated column; most rows have none, and are
    /// answered without reading the text.
    /// Read in place: a whole calendar's rows hold thousands.
    private static func dates(_ row: Statement, _ column: ItemColumn) -> [LocalDateTime] {
        row.withUTF8(column.rawValue) { bytes in
            var dates: [LocalDateTime] = []
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                if end > start, let date = LocalDateTime(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])) { dates.append(date) }
                start = end + 1
            }
            return dates
        } ?? []
    }

    // MARK: Alarms

    static func hasAlarms(_ row: Statement) -> Bool { row.int64(ItemColumn.hasAlarms.rawValue) != 0 }

    /// The alarms of the item at `row`, in position order. One small query
    /// per item that has any: cheap in SQLite, and most items have none.
    private func alarms(_ row: Statement, of item: ItemIdentifier) throws -> [Alarm] {
        guard Self.hasAlarms(row) else { return [] }
        return try alarms(ofItems: [item])[item] ?? []
    }

    /// The alarms of `items`, read by going through every alarm of the
    /// store in order (for many items: see `storedItems(where:_:many:)`).
    func alarms(ofAny items: Set<ItemIdentifier>) throws -> [ItemIdentifier: [Alarm]] {
        guard !items.isEmpty else { return [:] }
        var found: [ItemIdentifier: [Alarm]] = [:]
        // The primary key (item_id, position): each item's alarms come together, in order.
        try database.withStatement("SELECT \(Self.alarmColumns) FROM alarms ORDER BY item_id, position") { alarm in
            while try alarm.advance() {
                guard let item = alarm.identifier(0), items.contains(item) else { continue }
                found[item, default: []].append(try Self.alarm(alarm))
            }
        }
        return found
    }

    /// The alarms of many items in one query, by item, in position order.
    /// The items are joined from a JSON array rather than matched with IN,
    /// which has SQLite copy the list into a temporary b-tree first (twice
    /// the cost); the join gives no order, so positions are read and sorted.
    func alarms(ofItems items: [ItemIdentifier]) throws -> [ItemIdentifier: [Alarm]] {
        guard !items.isEmpty else { return [:] }
        if items.count == 1 {
            var alarms: [Alarm] = []
            try database.withStatement("SELECT \(Self.alarmColumns) FROM alarms WHERE item_id = ? ORDER BY position") { alarm in
                try alarm.bind([.text(items[0].rawValue)], from: 1)
                while try alarm.advance() { alarms.append(try Self.alarm(alarm)) }
            }
            return alarms.isEmpty ? [:] : [items[0]: alarms]
        }
        var found: [ItemIdentifier: [(position: Int64, alarm: Alarm)]] = [:]
        found.reserveCapacity(items.count)
        let position = Self.qualifiedAlarmColumns.count
        try database.withStatement("""
            SELECT \(Self.qualifiedAlarmColumns.joined(separator: ", ")), alarms.position
            FROM json_each(?) AS wanted JOIN alarms ON alarms.item_id = wanted.value
            """) { alarm in
            try alarm.bind([.text(Self.jsonArray(items))], from: 1)
            while try alarm.advance() {
                // Joined to the identifiers asked for, so always one of them.
                guard let item = alarm.identifier(0) else { continue }
                found[item, default: []].append((alarm.int64(position), try Self.alarm(alarm)))
            }
        }
        return found.mapValues { $0.sorted { $0.position < $1.position }.map(\.alarm) }
    }

    /// `alarmColumns`, each named with its table, for reads that join alarms to another.
    static let qualifiedAlarmColumns = alarmColumns.split(separator: ",").map {
        "alarms." + $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func alarm(_ row: Statement) throws -> Alarm {
        var alarm = try trigger(row)
        alarm.missedWindow = row.isNull(10) ? nil : Int(row.int64(10))
        alarm.dwell = Int(row.int64(11))
        alarm.firesOnFirstFix = row.int64(12) != 0
        if let unmodelled = row.text(13) { alarm.unmodelled = unmodelled }
        if !row.isNull(14) { alarm.acknowledged = Date(timeIntervalSince1970: TimeInterval(row.int64(14))) }
        if !row.isNull(15) {
            alarm.snoozedElsewhere = .init(occurrence: row.isNull(16) ? nil : Date(timeIntervalSince1970: TimeInterval(row.int64(16))),
                                           until: Date(timeIntervalSince1970: TimeInterval(row.int64(15))))
        }
        return alarm
    }

    private static func trigger(_ row: Statement) throws -> Alarm {
        guard let identifier = row.identifier(1) else {
            throw StoreError.damaged(item: row.text(0) ?? "?", reason: "its alarm id '\(row.text(1) ?? "NULL")' is not an identifier")
        }
        switch row.text(2) {
        case "absolute":
            return Alarm(identifier: identifier, trigger: .absolute(Date(timeIntervalSince1970: row.double(3))))
        case "relative":
            return Alarm(identifier: identifier, trigger: .relative(seconds: Int(row.int64(4))))
        case "proximity":
            let location = try StructuredLocation(title: row.text(5) ?? "", latitude: row.double(6),
                                                  longitude: row.double(7), radius: row.double(8))
            return Alarm(identifier: identifier,
                         trigger: .proximity(location, row.text(9).flatMap(Alarm.Proximity.init(rawValue:)) ?? .enter))
        case let kind:
            throw StoreError.damaged(item: row.text(0) ?? "?", reason: "an alarm of unknown kind '\(kind ?? "NULL")'")
        }
    }
}

extension Statement {
    /// Column `index` as an identifier, read from its bytes without making a
    /// `String`; nil for NULL or a text that is not one.
    func identifier(_ index: Int) -> ItemIdentifier? {
        withUTF8(index, ItemIdentifier.init(utf8:)) ?? nil
    }
}
