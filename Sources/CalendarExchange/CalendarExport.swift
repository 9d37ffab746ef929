import CalendarModel
import CalendarStore
import Foundation
import ICalendar

/// Items of the store as one iCalendar file: RFC 5545 text with CR LF
/// lines folded at 75 octets, and a VTIMEZONE for every zone the items use,
/// generated from the machine's zone data for the years they span.
public enum CalendarExport {
    /// The VCALENDAR for `items`; `calendarName` (one calendar exported
    /// whole) is written as X-WR-CALNAME, which `chime import` reads back.
    public static func calendar(_ items: CalendarItems, calendarName: String?, stamp: Date) -> ICalendarComponent {
        let (events, properties, vtimezone) = parts(items, calendarName: calendarName, stamp: stamp)
        return ICalendarItems.components(events: events, reminders: inFileOrder(items.reminders), stamp: stamp, properties: properties,
                                         vtimezone: vtimezone)
    }

    /// The file's bytes: `calendar(…)` as `ICalendarWriter` writes it, written straight from the items.
    public static func bytes(_ items: CalendarItems, calendarName: String?, stamp: Date) throws(ICalendarWriteError) -> [UInt8] {
        let (events, properties, vtimezone) = parts(items, calendarName: calendarName, stamp: stamp)
        return try ICalendarItems.text(events: events, reminders: inFileOrder(items.reminders), stamp: stamp, properties: properties,
                                       vtimezone: vtimezone)
    }

    /// The events in file order, the calendar's own properties, and its VTIMEZONE for a zone.
    private static func parts(_ items: CalendarItems, calendarName: String?, stamp: Date)
        -> ([Event], [ICalendarProperty], (String, ClosedRange<Int>) -> ICalendarComponent?) {
        let events = inFileOrder(items.events).flatMap { [$0.event] + $0.detached }
        let years = yearSpan(events: events, reminders: items.reminders, stamp: stamp)
        let properties = calendarName.map { [ICalendarProperty(name: "X-WR-CALNAME", value: ICalendarText.escape($0))] } ?? []
        return (events, properties, { zone, _ in ICalendarZones.vtimezone(for: zone, years: years) })
    }

    /// Series and reminders by key (the UID; for an item made in Chime, the
    /// one its identifier gives), the store's order among equal keys: an
    /// export does not depend on how the store was filled (an import
    /// written in pieces stores a series with occurrences after the items
    /// that settled before it), so that what is imported again exports the same.
    static func inFileOrder(_ series: [CalendarItems.Series]) -> [CalendarItems.Series] {
        inKeyOrder(series) { $0.event.externalKey ?? $0.event.identifier.uid }
    }

    static func inFileOrder(_ reminders: [Reminder]) -> [Reminder] {
        inKeyOrder(reminders) { $0.externalKey ?? $0.identifier.uid }
    }

    private static func inKeyOrder<Item>(_ items: [Item], key: (Item) -> String) -> [Item] {
        var keyed = items.enumerated().map { (key: key($0.element), place: $0.offset) }
        keyed.sort { $0.key == $1.key ? $0.place < $1.place : $0.key < $1.key }
        return keyed.map { items[$0.place] }
    }

    /// The years a VTIMEZONE must cover: from the earliest item's start to
    /// a year past the later of the last start and now, so that a series
    /// running on is covered where most readers look.
    static func yearSpan(events: [Event], reminders: [Reminder], stamp: Date) -> ClosedRange<Int> {
        var years = events.map { $0.start.wallClock.date.year } + events.map { $0.end.wallClock.date.year }
        years += reminders.compactMap { $0.due?.wallClock.date.year } + reminders.compactMap { $0.start?.wallClock.date.year }
        let now = TimeZoneRules.utc.localTime(at: Int64(stamp.timeIntervalSince1970)).date.year
        let low = min(years.min() ?? now, now)
        return low...(max(years.max() ?? now, now) + 1)
    }
}
