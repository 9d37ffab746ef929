import Foundation
import CalendarModel

extension ICalendarItems {
    /// Reads a VCALENDAR's VEVENTs and VTODOs into items of the calendar
    /// `calendarIdentifier`, TZIDs resolved through `zones`.
    ///
    /// Times: a TZID time is zoned in the zone `zones` gives; a UTC time is
    /// zoned in "UTC" (the instant stays exact); a floating time is zoned in
    /// `zones.floatingZone` when there is one, else floating. An all-day
    /// DTEND is exclusive in iCalendar and Chime's all-day end is the last
    /// day, inclusive: one day is taken off. With neither DTEND nor
    /// DURATION a date lasts one day and a time no time.
    ///
    /// Not yet mapped (reported as problems, so nothing is silently lost):
    /// RECURRENCE-ID;RANGE=THISANDFUTURE, and components other than VEVENT,
    /// VTODO and VTIMEZONE.
    public static func read(calendar: ICalendarComponent, into calendarIdentifier: ItemIdentifier,
                            zones: some ICalendarZoneResolving) -> Result {
        var result = Result()
        var masters: [String: Int] = [:]
        var overrides: [(String, ICalendarComponent)] = []
        let bound = min(calendar.components.count, 1_000_000)
        for component in calendar.components.prefix(bound) {
            let uid = component["UID"].map { ICalendarText.unescape($0.value) }
            func problem(_ reason: String) {
                result.problems.append(Problem(component: component.name, line: component.line, uid: uid, reason: reason))
            }
            switch component.name {
            case "VTIMEZONE":
                continue
            case "VEVENT", "VTODO":
                break
            default:
                problem("is a component Chime has no place for")
                continue
            }
            let key = uid ?? derivedUID(of: component)
            if component["RECURRENCE-ID"] != nil {
                guard uid != nil else { problem("has a RECURRENCE-ID but no UID to name its series"); continue }
                overrides.append((key, component))
                continue
            }
            guard masters[key] == nil else { problem("repeats the UID of an earlier component without a RECURRENCE-ID"); continue }
            do throws(MappingError) {
                let mapper = Mapper(calendar: calendarIdentifier, uid: key, zones: zones)
                let item: Item = component.name == "VEVENT"
                    ? .event(try mapper.event(component, keepsUID: uid == nil))
                    : .reminder(try mapper.reminder(component, keepsUID: uid == nil))
                masters[key] = result.entries.count
                result.entries.append(Entry(uid: key, item: item))
            } catch {
                problem(error.reason)
            }
        }
        for (uid, component) in overrides {
            func problem(_ reason: String) {
                result.problems.append(Problem(component: component.name, line: component.line, uid: uid, reason: reason))
            }
            let mapper = Mapper(calendar: calendarIdentifier, uid: uid, zones: zones)
            do throws(MappingError) {
                if component["RECURRENCE-ID"]?[parameter: "RANGE"]?.uppercased() == "THISANDFUTURE" {
                    throw MappingError("RECURRENCE-ID;RANGE=THISANDFUTURE is not mapped yet")
                }
                guard let index = masters[uid] else {
                    // An invitation to one occurrence: a plain event that keeps its UID and RECURRENCE-ID.
                    guard component.name == "VEVENT" else { throw MappingError("is an occurrence whose series is not in the file") }
                    var event = try mapper.event(component, keepsUID: true, keepsRecurrenceID: true)
                    event.externalKey = nil
                    let original = try mapper.time(component["RECURRENCE-ID"]!).wallClock
                    event.identifier = identifier(calendar: calendarIdentifier, uid: uid, kind: "orphan", occurrence: original)
                    event.alarms = mapper.renumbered(event.alarms, item: event.identifier)
                    result.entries.append(Entry(uid: uid, item: .event(event)))
                    continue
                }
                switch result.entries[index].item {
                case .reminder(var master):
                    guard component.name == "VTODO" else { throw MappingError("is a VEVENT occurrence of a VTODO") }
                    var origin = master.origin ?? ICalendarOrigin()
                    origin.unmodelled += component.unfoldedText
                    master.origin = origin
                    result.entries[index].item = .reminder(master)
                case .event(let master):
                    guard component.name == "VEVENT" else { throw MappingError("is a VTODO occurrence of a VEVENT") }
                    let original = try mapper.originalStart(component["RECURRENCE-ID"]!, in: master.start)
                    guard !result.entries[index].detached.contains(where: { $0.originalStart == original }) else {
                        throw MappingError("repeats the RECURRENCE-ID of an earlier occurrence")
                    }
                    var event = try mapper.event(component, keepsUID: false)
                    event.externalKey = nil
                    event.identifier = identifier(calendar: calendarIdentifier, uid: uid, kind: "occurrence", occurrence: original)
                    event.alarms = mapper.renumbered(event.alarms, item: event.identifier)
                    event.seriesIdentifier = master.identifier
                    event.originalStart = original
                    result.entries[index].detached.append(event)
                }
            } catch {
                problem(error.reason)
            }
        }
        return result
    }

    /// Why a component cannot be mapped.
    struct MappingError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
        init(_ error: ICalendarValueError) { reason = error.description }
    }
}
