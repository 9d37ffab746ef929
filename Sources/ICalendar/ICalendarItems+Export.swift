import Foundation
import CalendarModel

extension ICalendarItems {
    /// A VCALENDAR holding `events` (series, then each one's detached
    /// occurrences after it) and `reminders`, stamped `stamp` (DTSTAMP).
    /// `vtimezone` gives the VTIMEZONE for a zone and the years its times
    /// span, or nil to write none. An all-day end is made exclusive again;
    /// DTEND is always written (never DURATION); a repeating alarm's extra
    /// firings are written as the one VALARM's REPEAT they came from.
    public static func components(events: [Event], reminders: [Reminder], stamp: Date,
                                  vtimezone: (String, ClosedRange<Int>) -> ICalendarComponent? = { _, _ in nil }) -> ICalendarComponent {
        var writer = Writer(stamp: stamp)
        let series = Dictionary(events.filter { $0.seriesIdentifier == nil }.map { ($0.identifier, $0) }, uniquingKeysWith: { a, _ in a })
        var detached: [ItemIdentifier: [Event]] = [:]
        for event in events { if let owner = event.seriesIdentifier { detached[owner, default: []].append(event) } }
        var body: [ICalendarComponent] = []
        for event in events where event.seriesIdentifier == nil {
            body.append(writer.event(event, series: nil))
            for occurrence in (detached[event.identifier] ?? []).sorted(by: { ($0.originalStart ?? $0.start.wallClock) < ($1.originalStart ?? $1.start.wallClock) }) {
                body.append(writer.event(occurrence, series: event))
            }
        }
        for event in events where event.seriesIdentifier.map({ series[$0] == nil }) ?? false {
            body.append(writer.event(event, series: nil))
        }
        for reminder in reminders { body += writer.reminder(reminder) }
        var calendar = ICalendarComponent(name: "VCALENDAR", properties: [
            ICalendarProperty(name: "VERSION", value: "2.0"),
            ICalendarProperty(name: "PRODID", value: "-//Chime//Chime \(ChimeVersion.current)//EN"),
        ])
        for (zone, years) in writer.zoneYears.sorted(by: { $0.key < $1.key }) {
            if let component = vtimezone(zone, years) { calendar.components.append(component) }
        }
        calendar.components += body
        return calendar
    }

    struct Writer {
        let stamp: Date
        var zoneYears: [String: ClosedRange<Int>] = [:]

        init(stamp: Date) { self.stamp = stamp }

        mutating func note(_ time: ItemTime) {
            guard case .zoned(let local, let zone, _) = time, zone != "UTC" else { return }
            let year = local.date.year
            let range = zoneYears[zone].map { min($0.lowerBound, year)...max($0.upperBound, year) } ?? year...year
            zoneYears[zone] = range
        }

        static func utcText(_ instant: Int64) -> String {
            LocalDateTime(localSeconds: instant).basicFormat + "Z"
        }

        /// A time as the property `name`: a date, a UTC time (zone "UTC"), a zoned or floating time.
        mutating func property(_ name: String, _ time: ItemTime) -> ICalendarProperty {
            note(time)
            return value(time).property(name)
        }

        func value(_ time: ItemTime) -> ICalendarDateTime {
            switch time {
            case .date(let date): .date(date)
            case .floating(let local): .floating(local)
            case .zoned(let local, let zone, _): zone == "UTC" ? .utc(local) : .zoned(local, tzid: zone)
            }
        }

        /// Wall-clock readings of `start`'s zone as a list property.
        mutating func dates(_ name: String, _ dates: [LocalDateTime], like start: ItemTime) -> ICalendarProperty? {
            guard !dates.isEmpty else { return nil }
            let values = dates.map { local -> ICalendarDateTime in
                switch start {
                case .date: .date(local.date)
                case .floating: .floating(local)
                case .zoned(_, let zone, _): zone == "UTC" ? .utc(local) : .zoned(local, tzid: zone)
                }
            }
            if let first = dates.first { note(start.isDateOnly ? start : value(start).asItemTime(first, like: start)) }
            return ICalendarProperty(name: name, parameters: values[0].parameters, value: values.map(\.value).joined(separator: ","))
        }

        /// Merges kept lines: a kept property of a written name lends its
        /// extra parameters to the written one and is not written again.
        static func merged(_ written: [ICalendarProperty], unmodelled: String) -> ([ICalendarProperty], [ICalendarComponent]) {
            guard let kept = try? ICalendarComponent.readUnmodelled(unmodelled) else { return (written, []) }
            var properties = written
            var rest: [ICalendarProperty] = []
            var used: Set<Int> = []
            for property in kept.properties {
                if let index = properties.indices.first(where: { properties[$0].name == property.name && !used.contains($0) }),
                   property.name != "RECURRENCE-ID" || properties[index].name == "RECURRENCE-ID" {
                    used.insert(index)
                    // VALUE, TZID and RELATED belong to the value as written: lent to a UTC
                    // or floating time they would make it another (or an unknown) zone's,
                    // and lent to a TRIGGER written from the start they would move it.
                    for parameter in property.parameters where !["VALUE", "TZID", "RELATED"].contains(parameter.name)
                        && !properties[index].parameters.contains(where: { $0.name == parameter.name }) {
                        properties[index].parameters.append(parameter)
                    }
                } else if ["RDATE", "EXDATE"].contains(property.name), properties.contains(where: { $0.name == property.name }) {
                    // A second RDATE or EXDATE kept for its parameters: its
                    // dates are in the written list, and writing it too would
                    // add them again on every import.
                    continue
                } else {
                    rest.append(property)
                }
            }
            return (properties + rest, kept.components)
        }

        mutating func event(_ event: Event, series: Event?) -> ICalendarComponent {
            // A UID of the event's own kept lines, not one inside a component kept within it.
            let keptUID = Self.keptUID(event) != nil
            var properties: [ICalendarProperty] = []
            if !keptUID {
                let uid = series.map(Self.uid) ?? Self.uid(event)
                properties.append(ICalendarProperty(name: "UID", value: uid))
            }
            properties.append(ICalendarProperty(name: "DTSTAMP", value: Self.utcText(Int64(stamp.timeIntervalSince1970.rounded(.down)))))
            properties.append(property("DTSTART", event.start))
            if case .date(let last) = event.end {
                properties.append(property("DTEND", .date(last.adding(days: 1))))
            } else {
                properties.append(property("DTEND", event.end))
            }
            if let series, var original = event.originalStart {
                let like = series.start
                // A later part of a split counts its occurrences on its own shifted clock; files, on the first series'.
                if let cut = ICalendarItems.cut(of: series) {
                    original = LocalDateTime(localSeconds: original.localSeconds - (series.start.wallClock.localSeconds - cut.localSeconds))
                }
                let time: ItemTime = switch like {
                case .date: .date(original.date)
                case .floating: .floating(original)
                case .zoned(_, let zone, _): .zoned(original, zone: zone)
                }
                properties.append(property("RECURRENCE-ID", time))
            }
            properties.append(ICalendarProperty(name: "SUMMARY", value: ICalendarText.escape(event.title)))
            if !event.notes.isEmpty { properties.append(ICalendarProperty(name: "DESCRIPTION", value: ICalendarText.escape(event.notes))) }
            if !event.location.isEmpty { properties.append(ICalendarProperty(name: "LOCATION", value: ICalendarText.escape(event.location))) }
            if let place = event.structuredLocation {
                properties.append(ICalendarProperty(name: "GEO", value: "\(place.latitude);\(place.longitude)"))
                if !place.title.isEmpty || place.radius != StructuredLocation.defaultRadius {
                    properties.append(Self.appleLocation(place))
                }
            }
            if let url = event.url { properties.append(ICalendarProperty(name: "URL", value: url)) }
            if let rule = event.recurrenceRule { properties.append(ICalendarProperty(name: "RRULE", value: rule.rfc5545)) }
            if let rdate = dates("RDATE", event.extraDates, like: event.start) { properties.append(rdate) }
            if let exdate = dates("EXDATE", event.exceptionDates, like: event.start) { properties.append(exdate) }
            return finish("VEVENT", properties, origin: event.origin, alarms: event.alarms, dueBased: false)
        }

        mutating func reminder(_ reminder: Reminder) -> [ICalendarComponent] {
            var properties: [ICalendarProperty] = [
                ICalendarProperty(name: "UID", value: reminder.externalKey.map(ICalendarText.escape) ?? "\(reminder.identifier.rawValue)@chime"),
                ICalendarProperty(name: "DTSTAMP", value: Self.utcText(Int64(stamp.timeIntervalSince1970.rounded(.down)))),
            ]
            if let start = reminder.start { properties.append(property("DTSTART", start)) }
            if let due = reminder.due { properties.append(property("DUE", due)) }
            properties.append(ICalendarProperty(name: "SUMMARY", value: ICalendarText.escape(reminder.title)))
            if !reminder.notes.isEmpty { properties.append(ICalendarProperty(name: "DESCRIPTION", value: ICalendarText.escape(reminder.notes))) }
            if reminder.priority != 0 { properties.append(ICalendarProperty(name: "PRIORITY", value: String(reminder.priority))) }
            if reminder.isCompleted { properties.append(ICalendarProperty(name: "STATUS", value: "COMPLETED")) }
            if let done = reminder.completionDate {
                properties.append(ICalendarProperty(name: "COMPLETED", value: Self.utcText(Int64(done.timeIntervalSince1970.rounded(.down)))))
            }
            if let rule = reminder.recurrenceRule { properties.append(ICalendarProperty(name: "RRULE", value: rule.rfc5545)) }
            var origin = reminder.origin
            if !reminder.isCompleted, var kept = origin {
                // Reopened in Chime: a kept 100 % would complete it again.
                kept.unmodelled = kept.unmodelled.replacingOccurrences(of: "PERCENT-COMPLETE:100\r\n", with: "")
                origin = kept
            }
            var todo = finish("VTODO", properties, origin: origin, alarms: reminder.alarms, dueBased: reminder.start != nil)
            // Occurrences of the series that were kept whole (they have a
            // RECURRENCE-ID) go beside it, not in it; a VTODO the file nested
            // in this one stays inside, or importing the export would add it.
            func isOccurrence(_ component: ICalendarComponent) -> Bool { component.name == "VTODO" && component["RECURRENCE-ID"] != nil }
            let occurrences = todo.components.filter(isOccurrence)
            todo.components.removeAll(where: isOccurrence)
            return [todo] + occurrences
        }

        /// The UID among the event's own unmodelled lines (a later part of a split), if any.
        static func keptUID(_ event: Event) -> String? {
            guard let unmodelled = event.origin?.unmodelled, !unmodelled.isEmpty,
                  let kept = try? ICalendarComponent.readUnmodelled(unmodelled) else { return nil }
            return kept.properties.first(where: { $0.name == "UID" })?.value
        }

        /// A UID kept among the unmodelled lines (a later part of a split,
        /// whose key is the UID and its cut), else the key, else one made of the identifier.
        static func uid(_ event: Event) -> String {
            if let uid = keptUID(event) { return uid }
            // The key is the UID as read, unescaped (UID is TEXT): escaped again here.
            if let key = event.externalKey { return ICalendarText.escape(key) }
            return "\(event.identifier.rawValue)@chime"
        }

        static func appleLocation(_ place: StructuredLocation) -> ICalendarProperty {
            ICalendarProperty(name: "X-APPLE-STRUCTURED-LOCATION", parameters: [
                ICalendarParameter("VALUE", "URI"), ICalendarParameter("X-APPLE-RADIUS", Self.number(place.radius)),
                ICalendarParameter("X-TITLE", place.title),
            ], value: "geo:\(place.latitude),\(place.longitude)")
        }

        static func number(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        }

        mutating func finish(_ name: String, _ written: [ICalendarProperty], origin: ICalendarOrigin?, alarms: [Alarm], dueBased: Bool) -> ICalendarComponent {
            var properties = written
            if let origin {
                if origin.sequence != 0 { properties.append(ICalendarProperty(name: "SEQUENCE", value: String(origin.sequence))) }
                if let modified = origin.lastModified { properties.append(ICalendarProperty(name: "LAST-MODIFIED", value: Self.utcText(modified))) }
            }
            let (merged, kept) = Self.merged(properties, unmodelled: origin?.unmodelled ?? "")
            var component = ICalendarComponent(name: name, properties: merged)
            component.components = valarms(alarms, dueBased: dueBased) + kept
            return component
        }

        /// The VALARMs: an alarm with REPEAT and DURATION kept absorbs the
        /// alarms after it that its repetitions made.
        func valarms(_ alarms: [Alarm], dueBased: Bool) -> [ICalendarComponent] {
            var components: [ICalendarComponent] = []
            var index = 0
            while index < alarms.count {
                let alarm = alarms[index]
                index += 1
                var properties: [ICalendarProperty] = []
                switch alarm.trigger {
                case .relative(let seconds):
                    let duration = ICalendarDuration(days: 0, seconds: seconds)
                    properties.append(ICalendarProperty(name: "TRIGGER", parameters: dueBased ? [ICalendarParameter("RELATED", "END")] : [], value: duration.value))
                case .absolute(let date):
                    properties.append(ICalendarProperty(name: "TRIGGER", parameters: [ICalendarParameter("VALUE", "DATE-TIME")],
                                                        value: Self.utcText(Int64(date.timeIntervalSince1970.rounded(.down)))))
                case .proximity(let place, let direction):
                    properties.append(ICalendarProperty(name: "X-APPLE-PROXIMITY", value: direction == .enter ? "ARRIVE" : "DEPART"))
                    properties.append(Self.appleLocation(place))
                }
                properties += ICalendarItems.chimeProperties(alarm)
                let kept = (try? ICalendarComponent.readUnmodelled(alarm.unmodelled)) ?? (properties: [], components: [])
                if case .proximity = alarm.trigger, !kept.properties.contains(where: { $0.name == "TRIGGER" }) {
                    // RFC 5545 requires a TRIGGER; Apple's location alarms carry this never-reached one.
                    properties.append(ICalendarProperty(name: "TRIGGER", parameters: [ICalendarParameter("VALUE", "DATE-TIME")], value: "19760401T005545Z"))
                }
                if !kept.properties.contains(where: { $0.name == "ACTION" }) {
                    properties.append(ICalendarProperty(name: "ACTION", value: "DISPLAY"))
                    if !kept.properties.contains(where: { $0.name == "DESCRIPTION" }) {
                        properties.append(ICalendarProperty(name: "DESCRIPTION", value: "Reminder"))
                    }
                }
                let (merged, components2) = Self.merged(properties, unmodelled: alarm.unmodelled)
                components.append(ICalendarComponent(name: "VALARM", properties: merged, components: components2))
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
            return components
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

extension ICalendarDateTime {
    /// `local` as an item time of `like`'s kind (to note its zone's year).
    func asItemTime(_ local: LocalDateTime, like: ItemTime) -> ItemTime {
        switch like {
        case .date: .date(local.date)
        case .floating: .floating(local)
        case .zoned(_, let zone, _): .zoned(local, zone: zone)
        }
    }
}
