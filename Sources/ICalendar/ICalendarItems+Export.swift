import CalendarModel
import Dispatch
import Foundation
import Synchronization

extension ICalendarItems {
    /// A VCALENDAR holding `events` (series, then each one's detached
    /// occurrences after it) and `reminders`, stamped `stamp` (DTSTAMP);
    /// `properties` go after its PRODID. `vtimezone` gives the VTIMEZONE for
    /// a zone and the years its times span, or nil to write none. An all-day
    /// end is made exclusive again; DTEND is always written (never
    /// DURATION); a repeating alarm's extra firings are written as the one
    /// VALARM's REPEAT they came from.
    public static func components(events: [Event], reminders: [Reminder], stamp: Date, properties: [ICalendarProperty] = [],
                                  vtimezone: (String, ClosedRange<Int>) -> ICalendarComponent? = { _, _ in nil }) -> ICalendarComponent {
        var writer = Writer(sink: ICalendarTreeSink(), stamp: stamp)
        writer.calendar(events: events, reminders: reminders, properties: properties, vtimezone: vtimezone)
        return writer.sink.components[0]
    }

    /// `components(…)` as the text `ICalendarWriter` writes of it, written
    /// straight from the items (no tree, no String a value: the export of a
    /// large store). Throws what `ICalendarWriter` refuses.
    ///
    /// From `concurrentPieces` items, the first and the second half are
    /// written at once (on two cores where there are two: one after the
    /// other on one) and joined: the same bytes, in about half the time
    /// the writing takes, which is half of a large export's.
    public static func text(events: [Event], reminders: [Reminder], stamp: Date, properties: [ICalendarProperty] = [],
                            vtimezone: (String, ClosedRange<Int>) -> ICalendarComponent? = { _, _ in nil },
                            concurrentPieces: Int = 2_000) throws(ICalendarWriteError) -> [UInt8] {
        // About 400 bytes an event, so the buffer seldom grows.
        @Sendable func output(_ items: Int) -> ICalendarWriter.Output { ICalendarWriter.Output(capacity: 512 * items + 4096) }
        var writer = Writer(sink: output(events.count + reminders.count), stamp: stamp)
        let pieces = Writer<ICalendarWriter.Output>.pieces(events: events, reminders: reminders)
        let zones = try writer.opening(properties)
        if pieces.count < max(2, concurrentPieces) {
            try writer.write(pieces[...])
        } else {
            let halves = [pieces[..<(pieces.count / 2)], pieces[(pieces.count / 2)...]]
            let written = Mutex<[Int: Swift.Result<(bytes: [UInt8], zones: [String: ClosedRange<Int>]), ICalendarWriteError>]>([:])
            DispatchQueue.concurrentPerform(iterations: halves.count) { index in
                var half = Writer(sink: output(halves[index].count), stamp: stamp)
                half.sink.open(within: "VCALENDAR")
                let result = Swift.Result { () throws(ICalendarWriteError) in
                    try half.write(halves[index])
                    return (bytes: half.sink.bytes, zones: half.zoneYears)
                }
                written.withLock { $0[index] = result }
            }
            // In order: the first half's refusal is the one a single writer would have met first.
            for index in halves.indices {
                guard let result = written.withLock({ $0.removeValue(forKey: index) }) else { continue }
                let half = try result.get()
                writer.sink.bytes.append(contentsOf: half.bytes)
                writer.note(zonesOf: half.zones)
            }
        }
        try writer.closing(zones, vtimezone: vtimezone)
        return writer.sink.bytes
    }

    /// The parameters the export gives a property of its own.
    enum Parameters {
        case none
        /// VALUE=DATE.
        case date
        /// TZID=zone.
        case zone(String)
        /// RELATED=END.
        case fromEnd
        /// VALUE=DATE-TIME.
        case dateTime
        /// VALUE=URI;X-APPLE-RADIUS=radius;X-TITLE=title.
        case appleLocation(radius: String, title: String)

        var list: [ICalendarParameter] {
            switch self {
            case .none: []
            case .date: [ICalendarParameter("VALUE", "DATE")]
            case .zone(let zone): [ICalendarParameter("TZID", zone)]
            case .fromEnd: [ICalendarParameter("RELATED", "END")]
            case .dateTime: [ICalendarParameter("VALUE", "DATE-TIME")]
            case .appleLocation(let radius, let title):
                [ICalendarParameter("VALUE", "URI"), ICalendarParameter("X-APPLE-RADIUS", radius), ICalendarParameter("X-TITLE", title)]
            }
        }

        /// `;NAME=value…` as `ICalendarContentLine` writes `list`.
        func append(to out: inout [UInt8]) {
            switch self {
            case .none: return
            case .date: out.append(contentsOf: ";VALUE=DATE".utf8)
            case .zone(let zone):
                out.append(contentsOf: ";TZID=".utf8)
                ICalendarContentLine.appendParameterValue(zone, to: &out)
            case .fromEnd: out.append(contentsOf: ";RELATED=END".utf8)
            case .dateTime: out.append(contentsOf: ";VALUE=DATE-TIME".utf8)
            case .appleLocation(let radius, let title):
                out.append(contentsOf: ";VALUE=URI;X-APPLE-RADIUS=".utf8)
                ICalendarContentLine.appendParameterValue(radius, to: &out)
                out.append(contentsOf: ";X-TITLE=".utf8)
                ICalendarContentLine.appendParameterValue(title, to: &out)
            }
        }
    }

    /// The unmodelled lines of the component being written: a kept
    /// property of a name the export writes lends its extra parameters to
    /// the written one and is not written again; the rest follow the
    /// written properties, and the kept components its VALARMs.
    struct Kept {
        var properties: [ICalendarProperty] = []
        var components: [ICalendarComponent] = []
        /// Which of `properties` lent to a written one.
        private var lent: [Bool] = []
        /// The names written, while there are kept properties to match.
        private var written: [String] = []

        init() {}

        init(_ unmodelled: String) {
            guard !unmodelled.isEmpty, let kept = try? ICalendarComponent.readUnmodelled(unmodelled) else { return }
            (properties, components) = kept
            lent = Array(repeating: false, count: properties.count)
        }

        /// The parameters the first kept property named `name` that has not
        /// lent yet lends to the one written with `parameters`: all but
        /// VALUE, TZID and RELATED, which belong to the value as written (lent
        /// to a UTC or floating time they would make it another, or an
        /// unknown, zone's; lent to a TRIGGER written from the start they
        /// would move it), and none it has already.
        mutating func lend(_ name: String, _ parameters: Parameters) -> [ICalendarParameter] {
            guard !properties.isEmpty else { return [] }
            written.append(name)
            guard let index = properties.indices.first(where: { !lent[$0] && properties[$0].name == name }) else { return [] }
            lent[index] = true
            var own = parameters.list
            var extra: [ICalendarParameter] = []
            for parameter in properties[index].parameters where !["VALUE", "TZID", "RELATED"].contains(parameter.name)
                && !own.contains(where: { $0.name == parameter.name }) {
                own.append(parameter)
                extra.append(parameter)
            }
            return extra
        }

        /// Leaves out the kept properties (not those of kept components)
        /// that `isLeftOut` picks.
        mutating func leaveOut(where isLeftOut: (ICalendarProperty) -> Bool) {
            let keep = properties.indices.filter { !isLeftOut(properties[$0]) }
            properties = keep.map { properties[$0] }
            lent = keep.map { lent[$0] }
        }

        /// The kept properties that lent nothing, in order. A second RDATE
        /// or EXDATE kept for its parameters is left out when one was
        /// written: its dates are in the written list, and writing it too
        /// would add them again on every import.
        var rest: [ICalendarProperty] {
            properties.indices.filter { !lent[$0] }.map { properties[$0] }
                .filter { !(ConsumedProperties.readInFull.contains($0.name) && written.contains($0.name)) }
        }
    }

    /// An item of a VCALENDAR, as `Writer` writes it: an event (with the
    /// series it is a detached occurrence of, when written after it), or a reminder.
    enum Piece: Sendable {
        case event(Event, series: Event?)
        case reminder(Reminder)
    }

    struct Writer<Sink: ICalendarExportSink> {
        var sink: Sink
        let stamp: Date
        var zoneYears: [String: ClosedRange<Int>] = [:]
        /// The zone noted last, with its years: most times are in the zone
        /// and year of the one before (an end after its start), and
        /// comparing a name costs less than the Unicode-aware hash that
        /// looking it up takes (3% of a 10,000-event export, callgrind).
        private var lastNoted: (zone: String, years: ClosedRange<Int>)?
        /// The kept lines of the component being written.
        var kept = Kept()
        /// Alarms' kept lines as read, by their text: a calendar's alarms
        /// mostly keep the same few (`ACTION:DISPLAY`, a DESCRIPTION), and
        /// reading them again for each alarm was 4% of an export. Emptied
        /// when full, so that it holds no more than a few texts.
        private var alarmsKept: [String: Kept] = [:]
        private static var alarmsKeptLimit: Int { 64 }

        init(sink: Sink, stamp: Date) {
            self.sink = sink
            self.stamp = stamp
        }

        mutating func calendar(events: [Event], reminders: [Reminder], properties: [ICalendarProperty],
                               vtimezone: (String, ClosedRange<Int>) -> ICalendarComponent?) throws(Sink.Failure) {
            let zones = try opening(properties)
            try write(Self.pieces(events: events, reminders: reminders)[...])
            try closing(zones, vtimezone: vtimezone)
        }

        /// BEGIN:VCALENDAR and its properties; where its VTIMEZONEs go,
        /// which are known once the items are written (`closing`).
        mutating func opening(_ properties: [ICalendarProperty]) throws(Sink.Failure) -> Int {
            try sink.begin("VCALENDAR")
            try put("VERSION") { $0.append(contentsOf: "2.0".utf8) }
            try put("PRODID") { $0.append(contentsOf: "-//Chime//Chime \(ChimeVersion.current)//EN".utf8) }
            for property in properties { try sink.property(property) }
            return sink.mark
        }

        /// The VTIMEZONEs of the zones noted, at `zones`, and END:VCALENDAR.
        mutating func closing(_ zones: Int, vtimezone: (String, ClosedRange<Int>) -> ICalendarComponent?) throws(Sink.Failure) {
            try sink.insert(zoneYears.sorted(by: { $0.key < $1.key }).compactMap { vtimezone($0.key, $0.value) }, at: zones)
            sink.end("VCALENDAR")
        }

        /// What a VCALENDAR holds, in the order written: each series with
        /// its detached occurrences after it, by original start; the
        /// detached occurrences whose series is not among `events`; the reminders.
        static func pieces(events: [Event], reminders: [Reminder]) -> [Piece] {
            let series = Dictionary(events.filter { $0.seriesIdentifier == nil }.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
            var detached: [ItemIdentifier: [Event]] = [:]
            for event in events { if let owner = event.seriesIdentifier { detached[owner, default: []].append(event) } }
            var pieces: [Piece] = []
            pieces.reserveCapacity(events.count + reminders.count)
            for event in events where event.seriesIdentifier == nil {
                pieces.append(.event(event, series: nil))
                for occurrence in (detached[event.identifier] ?? []).sorted(by: { ($0.originalStart ?? $0.start.wallClock) < ($1.originalStart ?? $1.start.wallClock) }) {
                    pieces.append(.event(occurrence, series: event))
                }
            }
            for event in events where event.seriesIdentifier.map({ series[$0] == nil }) ?? false {
                pieces.append(.event(event, series: nil))
            }
            for reminder in reminders { pieces.append(.reminder(reminder)) }
            return pieces
        }

        mutating func write(_ pieces: ArraySlice<Piece>) throws(Sink.Failure) {
            for piece in pieces {
                switch piece {
                case .event(let event, let series): try self.event(event, series: series)
                case .reminder(let reminder): try self.reminder(reminder)
                }
            }
        }

        /// The zones `other` noted, noted here too.
        mutating func note(zonesOf other: [String: ClosedRange<Int>]) {
            for (zone, years) in other {
                zoneYears[zone] = zoneYears[zone].map { min($0.lowerBound, years.lowerBound)...max($0.upperBound, years.upperBound) } ?? years
            }
        }

        mutating func note(_ time: ItemTime) {
            guard case .zoned(let local, let zone, _) = time, zone != "UTC" else { return }
            let year = local.date.year
            if let last = lastNoted, last.years.contains(year), last.zone == zone { return }
            let range = zoneYears[zone].map { min($0.lowerBound, year)...max($0.upperBound, year) } ?? year...year
            zoneYears[zone] = range
            lastNoted = (zone, range)
        }

        /// A property of the component being written, with what a kept line of its name lends it.
        mutating func put(_ name: String, _ parameters: Parameters = .none, _ value: (inout [UInt8]) -> Void) throws(Sink.Failure) {
            try sink.property(name, parameters, lent: kept.lend(name, parameters), value: value)
        }

        /// A property whose value is `text` as it is.
        mutating func put(_ name: String, _ parameters: Parameters = .none, raw text: String) throws(Sink.Failure) {
            try put(name, parameters) { $0.append(contentsOf: text.utf8) }
        }

        /// A TEXT property: `text` escaped.
        mutating func put(_ name: String, text: String) throws(Sink.Failure) {
            try put(name) { ICalendarText.appendEscaped(text, to: &$0) }
        }

        /// A UTC time property (`…Z`) of `instant`, seconds since 1970.
        mutating func put(_ name: String, _ parameters: Parameters = .none, utc instant: Int64) throws(Sink.Failure) {
            try put(name, parameters) { Self.appendUTC(instant, to: &$0) }
        }

        static func appendUTC(_ instant: Int64, to out: inout [UInt8]) {
            out.append(contentsOf: LocalDateTime(localSeconds: instant).basicFormat.utf8)
            out.append(UInt8(ascii: "Z"))
        }

        static func seconds(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970.rounded(.down)) }

        /// A time as the property `name`: a date, a UTC time (zone "UTC"), a zoned or floating time.
        ///
        /// A zoned time that names the later of a fold's two instants (01:00
        /// the second time New York reaches it, say) cannot be written with
        /// its TZID: RFC 5545 (3.3.5) reads such a local time as the first.
        /// It is written in UTC instead, unless `keepingZone` (a series'
        /// start, whose zone its rule's occurrences follow).
        mutating func put(_ name: String, _ time: ItemTime, keepingZone: Bool = false) throws(Sink.Failure) {
            note(time)
            switch time {
            case .date(let date): try put(name, .date, raw: date.basicFormat)
            case .floating(let local): try put(name, raw: local.basicFormat)
            case .zoned(let local, let zone, let fold):
                if zone == "UTC" {
                    try put(name, utc: local.localSeconds)
                } else if fold == .later, !keepingZone, let rules = try? TimeZoneRules.named(zone),
                          case let later = rules.resolve(local, fold: .later).instant, later != rules.resolve(local, fold: .earlier).instant {
                    try put(name, utc: later)
                } else {
                    try put(name, .zone(zone), raw: local.basicFormat)
                }
            }
        }

        /// Wall-clock readings of `start`'s zone as a list property.
        mutating func put(_ name: String, dates: [LocalDateTime], like start: ItemTime) throws(Sink.Failure) {
            guard let first = dates.first else { return }
            switch start {
            case .date:
                try put(name, .date) { out in Self.appendList(dates, to: &out) { $1.append(contentsOf: $0.date.basicFormat.utf8) } }
            case .floating:
                try put(name) { out in Self.appendList(dates, to: &out) { $1.append(contentsOf: $0.basicFormat.utf8) } }
            case .zoned(_, let zone, _) where zone == "UTC":
                try put(name) { out in Self.appendList(dates, to: &out) { Self.appendUTC($0.localSeconds, to: &$1) } }
            case .zoned(_, let zone, _):
                note(.zoned(first, zone: zone))
                try put(name, .zone(zone)) { out in Self.appendList(dates, to: &out) { $1.append(contentsOf: $0.basicFormat.utf8) } }
            }
        }

        static func appendList(_ dates: [LocalDateTime], to out: inout [UInt8], _ append: (LocalDateTime, inout [UInt8]) -> Void) {
            for (index, date) in dates.enumerated() {
                if index > 0 { out.append(ICalendarContentLine.comma) }
                append(date, &out)
            }
        }

        mutating func event(_ event: Event, series: Event?) throws(Sink.Failure) {
            kept = Kept(event.origin?.unmodelled ?? "")
            try sink.begin("VEVENT")
            // A UID of the event's own kept lines (a later part of a split), not one inside a component kept within it.
            if !kept.properties.contains(where: { $0.name == "UID" }) {
                if let series { try put("UID", raw: Self.uid(series)) } else { try putUID(event) }
            }
            try put("DTSTAMP", utc: Self.seconds(stamp))
            try put("DTSTART", event.start, keepingZone: event.recurrenceRule != nil)
            if case .date(let last) = event.end {
                try put("DTEND", .date(last.adding(days: 1)))
            } else {
                try put("DTEND", event.end)
            }
            if let series, var original = event.originalStart {
                // A later part of a split counts its occurrences on its own shifted clock; files, on the first series'.
                if let cut = ICalendarItems.cut(of: series) {
                    original = LocalDateTime(localSeconds: original.localSeconds - (series.start.wallClock.localSeconds - cut.localSeconds))
                }
                try put("RECURRENCE-ID", series.start.withWallClock(original))
            }
            try put("SUMMARY", text: event.title)
            if !event.notes.isEmpty { try put("DESCRIPTION", text: event.notes) }
            if !event.location.isEmpty { try put("LOCATION", text: event.location) }
            if let place = event.structuredLocation {
                try put("GEO", raw: "\(place.latitude);\(place.longitude)")
                if !place.title.isEmpty || place.radius != StructuredLocation.defaultRadius {
                    try putAppleLocation(place)
                }
            }
            if let url = event.url { try put("URL", raw: url) }
            if let rule = event.recurrenceRule { try put("RRULE", raw: rule.rfc5545) }
            try put("RDATE", dates: event.extraDates, like: event.start)
            try put("EXDATE", dates: event.exceptionDates, like: event.start)
            try finish("VEVENT", origin: event.origin, alarms: event.alarms, dueBased: false)
        }

        /// A UID kept among the unmodelled lines (a later part of a split,
        /// whose key is the UID and its cut), else the key, else one made of the identifier.
        static func uid(_ event: Event) -> String {
            if let unmodelled = event.origin?.unmodelled, !unmodelled.isEmpty,
               let uid = Kept(unmodelled).properties.first(where: { $0.name == "UID" })?.value {
                return uid
            }
            // The key is the UID as read, unescaped (UID is TEXT): escaped again here.
            if let key = event.externalKey { return ICalendarText.escape(key) }
            return event.identifier.uid
        }

        /// `uid(event)` of an event whose kept lines hold no UID, written without a String made of it.
        mutating func putUID(_ event: Event) throws(Sink.Failure) {
            if let key = event.externalKey { try put("UID", text: key) } else { try put("UID", raw: event.identifier.uid) }
        }

        mutating func reminder(_ reminder: Reminder) throws(Sink.Failure) {
            kept = Kept(reminder.origin?.unmodelled ?? "")
            // A kept percentage says what Chime says (only the VTODO's own: a
            // nested component's is its own). Reopened in Chime, a kept 100 %
            // would complete it again; completed in Chime, a kept 50 % would
            // stand beside STATUS:COMPLETED, and the client that kept it
            // reads 100 % instead.
            func isPercent(_ property: ICalendarProperty) -> Bool { property.name == "PERCENT-COMPLETE" }
            let keptPercent = kept.properties.contains(where: isPercent)
            kept.leaveOut { isPercent($0) && ICalendarItems.isComplete(percent: $0.value) != reminder.isCompleted }
            let writesHundred = reminder.isCompleted && keptPercent && !kept.properties.contains(where: isPercent)
            try sink.begin("VTODO")
            if let key = reminder.externalKey { try put("UID", text: key) } else { try put("UID", raw: reminder.identifier.uid) }
            try put("DTSTAMP", utc: Self.seconds(stamp))
            if let start = reminder.start { try put("DTSTART", start, keepingZone: reminder.recurrenceRule != nil) }
            if let due = reminder.due { try put("DUE", due, keepingZone: reminder.recurrenceRule != nil) }
            try put("SUMMARY", text: reminder.title)
            if !reminder.notes.isEmpty { try put("DESCRIPTION", text: reminder.notes) }
            if !reminder.location.isEmpty { try put("LOCATION", text: reminder.location) }
            if let url = reminder.url { try put("URL", raw: url) }
            if reminder.priority != 0 { try put("PRIORITY", raw: String(reminder.priority)) }
            if reminder.isCompleted { try put("STATUS", raw: "COMPLETED") }
            if let done = reminder.completionDate { try put("COMPLETED", utc: Self.seconds(done)) }
            if writesHundred { try put("PERCENT-COMPLETE", raw: "100") }
            if let rule = reminder.recurrenceRule { try put("RRULE", raw: rule.rfc5545) }
            // Occurrences of the series that were kept whole (its UID and a
            // RECURRENCE-ID) go beside it, not in it; any other VTODO the
            // file nested in this one stays inside, or importing the export
            // would add it (or, of another UID, find no series for it).
            let uid = reminder.uid
            func isOccurrence(_ component: ICalendarComponent) -> Bool {
                component.name == "VTODO" && component["RECURRENCE-ID"] != nil
                    && component["UID"].map { ICalendarText.unescape($0.value) } == uid
            }
            let occurrences = kept.components.filter(isOccurrence)
            kept.components.removeAll(where: isOccurrence)
            // RELATED=END always: RFC 5545 reads a VTODO's relative trigger
            // from DTSTART without it, and one with no DTSTART is then invalid.
            try finish("VTODO", origin: reminder.origin, alarms: reminder.alarms, dueBased: true)
            for occurrence in occurrences { try sink.component(occurrence) }
        }

        mutating func putAppleLocation(_ place: StructuredLocation) throws(Sink.Failure) {
            try put("X-APPLE-STRUCTURED-LOCATION", .appleLocation(radius: Self.number(place.radius), title: place.title),
                    raw: "geo:\(place.latitude),\(place.longitude)")
        }

        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }

        /// The rest of the item `begin` opened and whose kept lines are `kept`:
        /// its SEQUENCE and LAST-MODIFIED, the kept properties, its VALARMs and kept components.
        mutating func finish(_ name: String, origin: ICalendarOrigin?, alarms: [Alarm], dueBased: Bool) throws(Sink.Failure) {
            if let origin {
                if origin.sequence != 0 { try put("SEQUENCE", raw: String(origin.sequence)) }
                if let modified = origin.lastModified { try put("LAST-MODIFIED", utc: modified) }
            }
            for property in kept.rest { try sink.property(property) }
            let components = kept.components
            try valarms(alarms, dueBased: dueBased)
            for component in components { try sink.component(component) }
            sink.end(name)
        }

        /// The VALARMs: an alarm with REPEAT and DURATION kept absorbs the
        /// alarms after it that its repetitions made.
        private mutating func keptLines(of alarm: Alarm) -> Kept {
            if let known = alarmsKept[alarm.unmodelled] { return known }
            if alarmsKept.count >= Self.alarmsKeptLimit { alarmsKept.removeAll(keepingCapacity: true) }
            let read = Kept(alarm.unmodelled)
            alarmsKept[alarm.unmodelled] = read
            return read
        }

        mutating func valarms(_ alarms: [Alarm], dueBased: Bool) throws(Sink.Failure) {
            var index = 0
            while index < alarms.count {
                let alarm = alarms[index]
                index += 1
                kept = keptLines(of: alarm)
                try sink.begin("VALARM")
                switch alarm.trigger {
                case .relative(let seconds):
                    try put("TRIGGER", dueBased ? .fromEnd : .none, raw: ICalendarDuration(days: 0, seconds: seconds).value)
                case .absolute(let date):
                    try put("TRIGGER", .dateTime, utc: Self.seconds(date))
                case .proximity(let place, let direction):
                    try put("X-APPLE-PROXIMITY", raw: direction == .enter ? "ARRIVE" : "DEPART")
                    try putAppleLocation(place)
                }
                if let acknowledged = alarm.acknowledged { try put("ACKNOWLEDGED", utc: Self.seconds(acknowledged)) }
                for property in ICalendarItems.chimeProperties(alarm) { try put(property.name, raw: property.value) }
                if case .proximity = alarm.trigger, !kept.properties.contains(where: { $0.name == "TRIGGER" }) {
                    // RFC 5545 requires a TRIGGER; Apple's location alarms carry this never-reached one.
                    try put("TRIGGER", .dateTime, raw: "19760401T005545Z")
                }
                if !kept.properties.contains(where: { $0.name == "ACTION" }) {
                    try put("ACTION", raw: "DISPLAY")
                    if !kept.properties.contains(where: { $0.name == "DESCRIPTION" }) { try put("DESCRIPTION", raw: "Reminder") }
                }
                for property in kept.rest { try sink.property(property) }
                for component in kept.components { try sink.component(component) }
                sink.end("VALARM")
                if let count = kept.properties.first(where: { $0.name == "REPEAT" }).flatMap({ Int($0.value.trimmedSpaces) }),
                   let every = kept.properties.first(where: { $0.name == "DURATION" }).flatMap({ try? ICalendarDuration($0) }) {
                    var step = 1
                    while step <= min(count, ICalendarItems.Mapper<IANAZoneResolver>.maximumRepeat), index < alarms.count,
                          alarms[index].unmodelled.isEmpty, Self.shifted(alarm.trigger, by: step * every.totalSeconds) == alarms[index].trigger {
                        index += 1
                        step += 1
                    }
                }
            }
        }

        static func shifted(_ trigger: Alarm.Trigger, by seconds: Int) -> Alarm.Trigger? {
            switch trigger {
            case .relative(let offset): .relative(seconds: offset + seconds)
            case .absolute(let date): .absolute(date.addingTimeInterval(TimeInterval(seconds)))
            case .proximity: nil
            }
        }
    }
}
