import Foundation
import CalendarModel

extension ICalendarItems {
    /// Maps one UID's components; what it does not consume goes to unmodelled.
    struct Mapper<Zones: ICalendarZoneResolving> {
        let calendar: ItemIdentifier
        let uid: String
        let zones: Zones
        /// The calendar's RRULEs read so far, shared by its components' mappers.
        let rules: RuleCache
        /// What was read leniently while mapping (a Chime alarm field that
        /// does not read), for the caller to report.
        let warnings = WarningLog()

        init(calendar: ItemIdentifier, uid: String, zones: Zones, rules: RuleCache = RuleCache()) {
            self.calendar = calendar
            self.uid = uid
            self.zones = zones
            self.rules = rules
        }

        /// A DATE or DATE-TIME property as an item time (see `read`).
        func time(_ property: ICalendarProperty) throws(MappingError) -> ItemTime {
            let value: ICalendarDateTime
            do { value = try ICalendarDateTime(property) } catch { throw MappingError(error) }
            return try time(value, property: property)
        }

        func time(_ value: ICalendarDateTime, property: ICalendarProperty) throws(MappingError) -> ItemTime {
            switch value {
            case .date(let date): return .date(date)
            case .utc(let local): return .zoned(local, zone: "UTC")
            case .floating(let local):
                if let zone = zones.floatingZone { return .zoned(local, zone: zone) }
                return .floating(local)
            case .zoned(let local, let tzid):
                do { return .zoned(local, zone: try zones.zone(forTZID: tzid)) } catch { throw MappingError(error.at(property)) }
            }
        }

        /// The instant a time names; dates and floating times read as UTC
        /// (only differences between times of one kind are taken from them).
        static func instant(_ time: ItemTime) -> Int64 {
            // UTC, which every DTSTAMP is in, without the zone cache's lock and look-up.
            if case .zoned(let local, "UTC", _) = time { return local.localSeconds }
            guard case .zoned(let local, let zone, let fold) = time, let rules = try? TimeZoneRules.named(zone) else {
                return time.wallClock.localSeconds
            }
            return rules.resolve(local, fold: fold).instant
        }

        /// A wall-clock reading of `time` in the zone of `frame` (a series' start).
        static func wallClock(_ time: ItemTime, in frame: ItemTime) -> LocalDateTime {
            switch (time, frame) {
            case (.zoned(_, let zone, _), .zoned(_, let frameZone, _)) where zone != frameZone:
                guard let rules = try? TimeZoneRules.named(frameZone) else { return time.wallClock }
                return rules.localTime(at: instant(time))
            case (.date(let date), .zoned(let local, _, _)), (.date(let date), .floating(let local)):
                return LocalDateTime(date: date, hour: local.hour, minute: local.minute, second: local.second) ?? time.wallClock
            case (_, .date):
                return LocalDateTime(date: time.wallClock.date)!
            default:
                return time.wallClock
            }
        }

        /// RECURRENCE-ID as the series' wall clock.
        func originalStart(_ property: ICalendarProperty, in seriesStart: ItemTime) throws(MappingError) -> LocalDateTime {
            Self.wallClock(try time(property), in: seriesStart)
        }

        /// EXDATE or RDATE values as wall-clock readings in the zone of `start`.
        func dates(_ properties: [ICalendarProperty], start: ItemTime) throws(MappingError) -> [LocalDateTime] {
            var dates: [LocalDateTime] = []
            for property in properties {
                for part in property.value.split(separator: ",").prefix(100_000) {
                    // A PERIOD (RDATE;VALUE=PERIOD) counts by its start.
                    let text = part.split(separator: "/").first ?? part
                    let value: ICalendarDateTime
                    do { value = try ICalendarDateTime(value: text, tzid: property[parameter: "TZID"]) } catch { throw MappingError(error.at(property)) }
                    dates.append(Self.wallClock(try time(value, property: property), in: start))
                }
            }
            return dates
        }

        static var timeParameters: [String] { ICalendarItems.timeParameters }

        /// The lines of `component` its item does not hold: the properties
        /// not consumed whole (`ConsumedProperties.partition`) and
        /// `keptComponents`. A repeat of a property RFC 5545 allows once is
        /// left out, with a warning naming its line.
        func unmodelled(_ component: ICalendarComponent, consumed: ConsumedProperties, keptComponents: [ICalendarComponent]) -> String {
            let (kept, repeats) = consumed.partition(component.properties)
            for property in repeats {
                warnings.list.append(Problem(component: component.name, line: property.line, uid: component.name == "VALARM" ? nil : uid,
                                             reason: "\(property.name) is given more than once (RFC 5545 allows one): the first is used, this one left out"))
            }
            return ICalendarComponent.unmodelledText(properties: kept, components: keptComponents)
        }

        func origin(_ component: ICalendarComponent, unmodelled: String) throws(MappingError) -> ICalendarOrigin {
            var sequence = 0
            if let property = component["SEQUENCE"] {
                guard let value = Int(property.value.trimmedSpaces), value >= 0 else {
                    throw MappingError(ICalendarValueError(property: "SEQUENCE", value: property.value, line: property.line, reason: "is not a revision number"))
                }
                sequence = value
            }
            var modified: Int64?
            if let property = component["LAST-MODIFIED"] ?? component["DTSTAMP"] {
                modified = Self.instant(try time(property))
            }
            return ICalendarOrigin(sequence: sequence, lastModified: modified, unmodelled: unmodelled)
        }

        static func text(_ component: ICalendarComponent, _ name: String) -> String? {
            component[name].map { ICalendarText.unescape($0.value) }
        }

        func rule(_ component: ICalendarComponent) throws(MappingError) -> RecurrenceRule? {
            let rules = component.properties(named: "RRULE")
            guard let property = rules.first else { return nil }
            guard rules.count == 1 else { throw MappingError("has more than one RRULE; Chime's items repeat by one rule") }
            if let known = self.rules.read[property.value] { return known }
            do {
                let rule = try RecurrenceRule(rfc5545: property.value)
                self.rules.read[property.value] = rule
                return rule
            } catch {
                throw MappingError(ICalendarValueError(property: "RRULE", value: property.value, line: property.line, reason: "is a rule Chime cannot hold: \(error)"))
            }
        }

        func event(_ component: ICalendarComponent, keepsUID: Bool, keepsRecurrenceID: Bool = false) throws(MappingError) -> Event {
            guard let startProperty = component["DTSTART"] else { throw MappingError("has no DTSTART") }
            let start = try time(startProperty)
            var end = start
            if let endProperty = component["DTEND"] {
                end = try time(endProperty)
                if case .date(let first) = start, case .date(let after) = end {
                    end = .date(after > first ? after.adding(days: -1) : first)
                }
            } else if let durationProperty = component["DURATION"] {
                let duration: ICalendarDuration
                do { duration = try ICalendarDuration(durationProperty) } catch { throw MappingError(error) }
                end = Self.adding(duration, to: start)
            }
            guard start.isSameKind(as: end) else { throw MappingError("has a DTSTART and DTEND of different kinds (a date and a date-time)") }
            var location: StructuredLocation?
            if let apple = component["X-APPLE-STRUCTURED-LOCATION"] {
                location = try Self.structuredLocation(apple)
            } else if let geo = component["GEO"] {
                location = try Self.geo(geo)
            }
            let alarmComponents = component.components(named: "VALARM")
            let consumed = ICalendarItems.eventConsumed[(keepsUID ? 1 : 0) + (keepsRecurrenceID ? 2 : 0)]
            let others = component.components.filter { $0.name != "VALARM" }
            let identifier = ICalendarItems.identifier(calendar: calendar, uid: uid, kind: "event")
            var event = Event(identifier: identifier, calendarIdentifier: calendar, title: Self.text(component, "SUMMARY") ?? "",
                              location: Self.text(component, "LOCATION") ?? "", structuredLocation: location,
                              notes: Self.text(component, "DESCRIPTION") ?? "", url: component["URL"]?.value,
                              start: start, end: end, recurrenceRule: try rule(component),
                              exceptionDates: try dates(component.properties(named: "EXDATE"), start: start),
                              extraDates: try dates(component.properties(named: "RDATE"), start: start),
                              externalKey: uid)
            event.origin = try origin(component, unmodelled: unmodelled(component, consumed: consumed, keptComponents: others))
            event.alarms = try alarms(alarmComponents, item: identifier, start: start, end: end, due: nil,
                                      lastAcknowledged: component["X-MOZ-LASTACK"], snoozes: Self.mozillaSnoozes(component))
            do { try event.validate() } catch { throw MappingError(error.description) }
            return event
        }

        func reminder(_ component: ICalendarComponent, keepsUID: Bool) throws(MappingError) -> Reminder {
            let start = try component["DTSTART"].map { (p) throws(MappingError) in try time(p) }
            var due = try component["DUE"].map { (p) throws(MappingError) in try time(p) }
            if due == nil, let start, let property = component["DURATION"] {
                do { due = Self.adding(try ICalendarDuration(property), to: start) } catch { throw MappingError(error) }
            }
            var completion: Date?
            if let property = component["COMPLETED"] {
                completion = Date(timeIntervalSince1970: TimeInterval(Self.instant(try time(property))))
            }
            let status = component["STATUS"]?.value.uppercased()
            let percentDone = component["PERCENT-COMPLETE"].map { ICalendarItems.isComplete(percent: $0.value) } ?? false
            var priority = 0
            if let property = component["PRIORITY"] {
                guard let value = Int(property.value.trimmedSpaces), (0...9).contains(value) else {
                    throw MappingError(ICalendarValueError(property: "PRIORITY", value: property.value, line: property.line, reason: "is not a priority 0 to 9"))
                }
                priority = value
            }
            var consumed: ConsumedProperties = [
                "DTSTART": Self.timeParameters, "DUE": Self.timeParameters, "COMPLETED": Self.timeParameters, "SUMMARY": [],
                "DESCRIPTION": [], "PRIORITY": [], "RRULE": [], "SEQUENCE": [], "LAST-MODIFIED": [], "DTSTAMP": [],
                "LOCATION": [], "URL": ["VALUE"],
            ]
            if component["DUE"] == nil && due != nil { consumed["DURATION"] = [] }
            if status == "COMPLETED" { consumed["STATUS"] = [] }
            if !keepsUID { consumed["UID"] = [] }
            let identifier = ICalendarItems.identifier(calendar: calendar, uid: uid, kind: "reminder")
            let others = component.components.filter { $0.name != "VALARM" }
            var reminder = Reminder(identifier: identifier, calendarIdentifier: calendar, title: Self.text(component, "SUMMARY") ?? "",
                                    notes: Self.text(component, "DESCRIPTION") ?? "", location: Self.text(component, "LOCATION") ?? "",
                                    url: component["URL"]?.value, priority: priority, start: start, due: due,
                                    isCompleted: status == "COMPLETED" || completion != nil || percentDone,
                                    completionDate: completion, recurrenceRule: try rule(component), externalKey: uid)
            reminder.origin = try origin(component, unmodelled: unmodelled(component, consumed: consumed, keptComponents: others))
            reminder.alarms = try alarms(component.components(named: "VALARM"), item: identifier, start: start, end: nil, due: due,
                                         geo: component["GEO"], lastAcknowledged: component["X-MOZ-LASTACK"],
                                         snoozes: Self.mozillaSnoozes(component))
            do { try reminder.validate() } catch { throw MappingError(error.description) }
            return reminder
        }

        /// `time` plus a DURATION: days on the wall clock, seconds elapsed.
        static func adding(_ duration: ICalendarDuration, to time: ItemTime) -> ItemTime {
            switch time {
            case .date(let date):
                let days = duration.days + (duration.seconds > 0 ? 1 : 0)
                return .date(date.adding(days: max(0, days - 1)))
            case .floating(let local):
                return .floating(LocalDateTime(localSeconds: local.localSeconds + Int64(duration.days) * 86_400 + Int64(duration.seconds)))
            case .zoned(let local, let zone, _):
                let moved = LocalDateTime(localSeconds: local.localSeconds + Int64(duration.days) * 86_400)
                guard let rules = try? TimeZoneRules.named(zone) else { return .zoned(moved, zone: zone) }
                return .zoned(at: rules.resolve(moved).instant + Int64(duration.seconds), in: rules)
            }
        }

        /// `geo:lat,lon[;u=radius]` as a location; nil when it is not one.
        static func geoURI(_ text: String, title: String, radius: Double?) -> StructuredLocation? {
            guard text.lowercased().hasPrefix("geo:") else { return nil }
            let parts = text.dropFirst(4).split(separator: ";")
            guard let head = parts.first else { return nil }
            let numbers = head.split(separator: ",").compactMap { Double($0.trimmedSpaces) }
            guard numbers.count >= 2 else { return nil }
            var uncertainty: Double?
            for part in parts.dropFirst() where part.lowercased().hasPrefix("u=") { uncertainty = Double(part.dropFirst(2)) }
            let chosen = radius ?? uncertainty.flatMap { $0 > 0 ? $0 : nil } ?? StructuredLocation.defaultRadius
            return try? StructuredLocation(title: title, latitude: numbers[0], longitude: numbers[1], radius: chosen)
        }

        static func structuredLocation(_ property: ICalendarProperty) throws(MappingError) -> StructuredLocation {
            let radius = property[parameter: "X-APPLE-RADIUS"].flatMap { Double($0.trimmedSpaces) }
            guard let location = geoURI(property.value, title: property[parameter: "X-TITLE"] ?? "", radius: radius) else {
                throw MappingError(ICalendarValueError(property: property.name, value: property.value, line: property.line,
                                                       reason: "is not a place (geo:latitude,longitude, with a radius Chime can hold)"))
            }
            return location
        }

        static func geo(_ property: ICalendarProperty) throws(MappingError) -> StructuredLocation {
            let numbers = property.value.split(separator: ";").compactMap { Double($0.trimmedSpaces) }
            guard numbers.count == 2, let location = try? StructuredLocation(latitude: numbers[0], longitude: numbers[1]) else {
                throw MappingError(ICalendarValueError(property: "GEO", value: property.value, line: property.line, reason: "is not latitude;longitude"))
            }
            return location
        }

        func renumbered(_ alarms: [Alarm], item: ItemIdentifier) -> [Alarm] {
            var numbered = alarms
            for index in numbered.indices {
                numbered[index].identifier = ICalendarItems.alarmIdentifier(item: item, index: index, repetition: 0)
            }
            return numbered
        }
    }
}

extension ICalendarItems {
    /// The RRULEs a calendar's mappers have read, by their text: a
    /// calendar's series share a few rules, and reading one is dearer than
    /// looking it up.
    final class RuleCache {
        var read: [String: RecurrenceRule] = [:]
    }

    /// The warnings a mapper collects; a class so that its value-typed
    /// mapper's methods can add to them.
    final class WarningLog {
        var list: [Problem] = []
    }

    static let timeParameters = ["VALUE", "TZID"]

    /// The properties (with the parameters of each) a VEVENT's mapping
    /// consumes, by whether it keeps the UID (1) and the RECURRENCE-ID (2):
    /// made once, not for every component.
    static let eventConsumed: [ConsumedProperties] = (0..<4).map { variant in
        var consumed: ConsumedProperties = [
            "DTSTART": timeParameters, "DTEND": timeParameters, "DURATION": [], "SUMMARY": [], "DESCRIPTION": [],
            "LOCATION": [], "URL": ["VALUE"], "RRULE": [], "EXDATE": timeParameters, "RDATE": timeParameters,
            "SEQUENCE": [], "LAST-MODIFIED": [], "DTSTAMP": [], "GEO": [],
            "X-APPLE-STRUCTURED-LOCATION": ["VALUE", "X-APPLE-RADIUS", "X-TITLE"],
        ]
        if variant & 1 == 0 { consumed["UID"] = [] }
        if variant & 2 == 0 { consumed["RECURRENCE-ID"] = timeParameters }
        return consumed
    }
}

extension ICalendarItems {
    /// Whether a VTODO's PERCENT-COMPLETE says it is done: import completes
    /// the reminder, and export leaves the property out of one reopened since.
    static func isComplete(percent: String) -> Bool {
        percent.trimmedSpaces == "100"
    }
}

extension StringProtocol {
    /// Without the spaces and tabs at either end: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` takes off (tab, the Unicode
    /// category Zs, and U+200B as CoreFoundation counts it), on the scalars rather than through
    /// NSString, which took a twentieth of an import (chime-bench ical).
    var trimmedSpaces: String {
        // Most values have no space at either end: found on the bytes, without decoding scalars.
        let text = String(self)
        if let first = text.utf8.first, let last = text.utf8.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return text }
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? scalar == " " || scalar == "\t" : scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == scalars.startIndex && scalars.index(after: last) == scalars.endIndex { return text }
        return String(Substring(scalars[first...last]))
    }
}
