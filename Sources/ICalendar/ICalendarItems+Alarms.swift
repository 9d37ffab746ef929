import Foundation
import CalendarModel

extension ICalendarItems.Mapper {
    /// The most firings one VALARM's REPEAT may add.
    static var maximumRepeat: Int { 100 }

    /// VALARMs as alarms. Every ACTION rings as a display alarm (ACTION and
    /// the rest stay in `Alarm.unmodelled`). A relative TRIGGER becomes an
    /// offset from the event's start or the reminder's due time: RELATED=END
    /// on an event adds the event's length; on a VTODO, RELATED=START (the
    /// default) is from DTSTART, so the distance from DTSTART to DUE is
    /// taken off (with no DTSTART it is read from DUE, as clients mean it).
    /// REPEAT and DURATION add one alarm per repetition after the first,
    /// which keeps REPEAT and DURATION so that export writes one VALARM.
    /// Proximity: Apple's X-APPLE-PROXIMITY with the VALARM's
    /// X-APPLE-STRUCTURED-LOCATION, or RFC 9074's PROXIMITY with a VLOCATION
    /// whose URL is a geo: URI (else the item's GEO). ACKNOWLEDGED (RFC 9074)
    /// and the item's X-MOZ-LASTACK, the later of the two, become `acknowledged`.
    /// The item's latest X-MOZ-SNOOZE-TIME (`mozillaSnoozes`) not answered
    /// by then becomes the first time-based alarm's `snoozedElsewhere`:
    /// Thunderbird keeps one snooze an item (an occurrence, in a series),
    /// and it rings once, not once an alarm.
    func alarms(_ components: [ICalendarComponent], item: ItemIdentifier, start: ItemTime?, end: ItemTime?, due: ItemTime?,
                geo: ICalendarProperty? = nil, lastAcknowledged: ICalendarProperty? = nil,
                snoozes: [Alarm.SnoozedElsewhere] = []) throws(ICalendarItems.MappingError) -> [Alarm] {
        // Thunderbird's X-MOZ-LASTACK (on the item) answers all of its alarms.
        let mozillaAcknowledged = lastAcknowledged.flatMap { try? time($0) }.map(Self.instant)
        var snooze = snoozes.max { $0.until < $1.until }
        var alarms: [Alarm] = []
        for (index, component) in components.prefix(1_000).enumerated() {
            func fail(_ reason: String) -> ICalendarItems.MappingError {
                ICalendarItems.MappingError("VALARM at line \(component.line): \(reason)")
            }
            // The names (with their parameters) the alarm maps; from a shared
            // dictionary, which an ordinary alarm never changes, rather than
            // one built for each of them (2% of a 10,000-event import).
            var consumed: ICalendarItems.ConsumedProperties
            var trigger: Alarm.Trigger
            var keptComponents = component.components
            let proximity = component["X-APPLE-PROXIMITY"] ?? component["PROXIMITY"]
            if let proximity, let direction = ["ARRIVE": Alarm.Proximity.enter, "DEPART": .leave][proximity.value.uppercased()] {
                consumed = ICalendarItems.consumedByEveryAlarm
                var location: StructuredLocation?
                if let apple = component["X-APPLE-STRUCTURED-LOCATION"] {
                    location = try Self.structuredLocation(apple)
                    consumed["X-APPLE-STRUCTURED-LOCATION"] = ["VALUE", "X-APPLE-RADIUS", "X-TITLE"]
                } else if let vlocation = component.components(named: "VLOCATION").first(where: { $0["URL"].map { Self.geoURI($0.value, title: "", radius: nil) != nil } ?? false }),
                          let url = vlocation["URL"] {
                    location = Self.geoURI(url.value, title: Self.text(vlocation, "NAME") ?? "", radius: nil)
                    // The VLOCATION is written again from the location.
                    keptComponents.removeAll { $0 == vlocation }
                    var rest = vlocation
                    rest.properties.removeAll { $0.name == "URL" || $0.name == "NAME" }
                    if !rest.properties.isEmpty || !rest.components.isEmpty { keptComponents.append(rest) }
                } else if let geo {
                    location = try Self.geo(geo)
                }
                guard let location else { throw fail("is a proximity alarm without a place (geo:) Chime can read") }
                trigger = .proximity(location, direction)
                consumed[proximity.name] = []
                // Apple's never-reached TRIGGER is what export writes on a location alarm anyway.
                if component["TRIGGER"]?.value == "19760401T005545Z" { consumed["TRIGGER"] = ["VALUE"] }
            } else {
                guard let property = component["TRIGGER"] else { throw fail("has no TRIGGER") }
                consumed = ICalendarItems.consumedByTimedAlarm
                // A duration has a P; only p and P upper-case to P (on bytes: Foundation's contains(_:) cost a fortieth of an import).
                let isDuration = property.value.utf8.contains { $0 == UInt8(ascii: "P") || $0 == UInt8(ascii: "p") }
                if property[parameter: "VALUE"]?.uppercased() == "DATE-TIME" || !isDuration {
                    trigger = .absolute(Date(timeIntervalSince1970: TimeInterval(Self.instant(try time(property)))))
                } else {
                    let duration: ICalendarDuration
                    do { duration = try ICalendarDuration(property) } catch { throw ICalendarItems.MappingError(error) }
                    var seconds = duration.totalSeconds
                    let fromEnd = property[parameter: "RELATED"]?.uppercased() == "END"
                    if let due {
                        // A VTODO: offsets are from DUE in Chime.
                        if !fromEnd, let start { seconds += Int(Self.instant(start) - Self.instant(due)) }
                    } else if end == nil {
                        throw fail("is relative, but its VTODO has no DUE to be relative to")
                    } else if fromEnd, let start, let end {
                        seconds += Int(Self.length(from: start, to: end))
                    }
                    trigger = .relative(seconds: seconds)
                }
            }
            if case .relative(let seconds) = trigger, abs(seconds) > 366 * 86_400 {
                throw fail("is more than a year from its item, which Chime's alarms cannot be")
            }
            let fields = ICalendarItems.chimeFields(of: component)
            warnings.list += fields.warnings
            var repeats: (Int, Int) = (0, 0)
            if let count = component["REPEAT"], let every = component["DURATION"] {
                guard let n = Int(count.value.trimmedSpaces), (0...Self.maximumRepeat).contains(n) else {
                    throw fail("REPEAT '\(count.value)' is not a count from 0 to \(Self.maximumRepeat)")
                }
                do { repeats = (n, try ICalendarDuration(every).totalSeconds) } catch { throw ICalendarItems.MappingError(error) }
            }
            // RFC 9074: when the alarm was last answered. One that does not
            // read as a time is kept as it came, and answers nothing.
            var acknowledged = mozillaAcknowledged
            if let property = component["ACKNOWLEDGED"], let at = try? time(property) {
                acknowledged = max(acknowledged ?? .min, Self.instant(at))
                consumed["ACKNOWLEDGED"] = ["VALUE"]
            }
            let answered = acknowledged.map { Date(timeIntervalSince1970: TimeInterval($0)) }
            let unmodelled = unmodelled(component, consumed: consumed, keptComponents: keptComponents)
            var snoozed: Alarm.SnoozedElsewhere?
            let timed = if case .proximity = trigger { false } else { true }
            if let taken = snooze, timed {
                snooze = nil
                if taken.until > answered ?? .distantPast { snoozed = taken }
            }
            alarms.append(Alarm(identifier: ICalendarItems.alarmIdentifier(item: item, index: index, repetition: 0), trigger: trigger,
                                missedWindow: fields.missedWindow, dwell: fields.dwell, firesOnFirstFix: fields.firesOnFirstFix,
                                unmodelled: unmodelled, acknowledged: answered, snoozedElsewhere: snoozed))
            if case .proximity = trigger { continue }
            for repetition in stride(from: 1, through: repeats.0, by: 1) {
                let offset = repetition * repeats.1
                let later: Alarm.Trigger
                switch trigger {
                case .relative(let seconds): later = .relative(seconds: seconds + offset)
                case .absolute(let date): later = .absolute(date.addingTimeInterval(TimeInterval(offset)))
                case .proximity: continue
                }
                alarms.append(Alarm(identifier: ICalendarItems.alarmIdentifier(item: item, index: index, repetition: repetition), trigger: later,
                                    missedWindow: fields.missedWindow, dwell: fields.dwell, firesOnFirstFix: fields.firesOnFirstFix,
                                    acknowledged: answered))
            }
        }
        return alarms
    }

    /// Thunderbird's snoozes on an item: X-MOZ-SNOOZE-TIME (a UTC time) for
    /// an item that does not repeat, X-MOZ-SNOOZE-TIME-<microseconds> for
    /// the occurrence of a series that starts at that PRTime. They stay in
    /// the item's kept lines, and so travel back unchanged; one that does
    /// not read is only kept.
    static func mozillaSnoozes(_ component: ICalendarComponent) -> [Alarm.SnoozedElsewhere] {
        let name = "X-MOZ-SNOOZE-TIME"
        return component.properties.compactMap { property in
            // The first byte before hasPrefix: this runs for every property of every item.
            guard property.name.utf8.first == UInt8(ascii: "X"), property.name.hasPrefix(name),
                  case .utc(let at)? = try? ICalendarDateTime(property) else { return nil }
            let until = Date(timeIntervalSince1970: TimeInterval(at.localSeconds))
            if property.name == name { return .init(until: until) }
            guard property.name.dropFirst(name.count).first == "-",
                  let microseconds = Int64(property.name.dropFirst(name.count + 1)) else { return nil }
            return .init(occurrence: Date(timeIntervalSince1970: TimeInterval(microseconds / 1_000_000)), until: until)
        }
    }

    /// Seconds from `start` to `end`; an all-day end is the midnight after its last day.
    static func length(from start: ItemTime, to end: ItemTime) -> Int64 {
        if case .date(let first) = start, case .date(let last) = end {
            return Int64(last.dayNumber - first.dayNumber + 1) * 86_400
        }
        return instant(end) - instant(start)
    }
}

extension ICalendarItems {
    /// Chime's alarm fields that no standard property holds, as X-properties
    /// on the VALARM (other programs ignore them and keep them):
    /// `X-CHIME-MISSED-WINDOW` (a duration; `PT0S` never shows a missed
    /// firing), `X-CHIME-DWELL` (a duration) and `X-CHIME-FIRST-FIX`
    /// (`TRUE` or `FALSE`). Each is written only when it is not the default.
    static let chimeAlarmProperties = ["X-CHIME-MISSED-WINDOW", "X-CHIME-DWELL", "X-CHIME-FIRST-FIX"]

    /// The names (with their parameters) every alarm maps: Chime's own properties.
    static let consumedByEveryAlarm: ConsumedProperties = {
        var consumed: ConsumedProperties = [:]
        for name in chimeAlarmProperties { consumed[name] = [] }
        return consumed
    }()
    /// What an alarm at a time maps: those, and its TRIGGER with VALUE and RELATED.
    static let consumedByTimedAlarm: ConsumedProperties = {
        var consumed = consumedByEveryAlarm
        consumed["TRIGGER"] = ["VALUE", "RELATED"]
        return consumed
    }()

    /// What a VALARM's Chime properties say, and a warning for each that
    /// does not read (that field keeps its default).
    struct ChimeAlarmFields {
        var missedWindow: Int?
        var dwell = 0
        var firesOnFirstFix = false
        var warnings: [Problem] = []
    }

    static func chimeFields(of valarm: ICalendarComponent) -> ChimeAlarmFields {
        var fields = ChimeAlarmFields()
        func warn(_ property: ICalendarProperty, _ reason: String) {
            fields.warnings.append(Problem(component: "VALARM", line: property.line, uid: nil,
                                           reason: "\(property.name) '\(property.value)' \(reason); the alarm keeps the default"))
        }
        func seconds(_ property: ICalendarProperty) -> Int? {
            guard let duration = try? ICalendarDuration(property), duration.totalSeconds >= 0 else {
                warn(property, "is not a duration of zero or more (such as PT2H)")
                return nil
            }
            return duration.totalSeconds
        }
        if let property = valarm["X-CHIME-MISSED-WINDOW"], let window = seconds(property) { fields.missedWindow = window }
        if let property = valarm["X-CHIME-DWELL"], let dwell = seconds(property) { fields.dwell = dwell }
        if let property = valarm["X-CHIME-FIRST-FIX"] {
            switch property.value.trimmedSpaces.uppercased() {
            case "TRUE": fields.firesOnFirstFix = true
            case "FALSE": break
            default: warn(property, "is not TRUE or FALSE")
            }
        }
        return fields
    }

    /// The Chime properties an alarm is written with (see `chimeAlarmProperties`).
    static func chimeProperties(_ alarm: Alarm) -> [ICalendarProperty] {
        var properties: [ICalendarProperty] = []
        if let window = alarm.missedWindow {
            properties.append(ICalendarProperty(name: "X-CHIME-MISSED-WINDOW", value: ICalendarDuration(seconds: window).value))
        }
        if alarm.dwell != 0 { properties.append(ICalendarProperty(name: "X-CHIME-DWELL", value: ICalendarDuration(seconds: alarm.dwell).value)) }
        if alarm.firesOnFirstFix { properties.append(ICalendarProperty(name: "X-CHIME-FIRST-FIX", value: "TRUE")) }
        return properties
    }
}
