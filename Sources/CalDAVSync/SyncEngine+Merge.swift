import CalendarExchange
import CalendarModel
import CalendarStore
import ICalendar

/// A PUT refused with 412: Chime's version and the server's merged against
/// the base both last agreed on (`ResourceMerge`), each as Chime exports
/// it, so that only real changes count. The merge is what the store
/// keeps; where it holds a change of Chime's, it goes up at the end of the
/// sync; where the two clashed, the server's side stands and Chime's whole
/// version is kept as a conflict (`chime sync --status`, `chime sync resolve`).
extension SyncEngine {
    struct Merge {
        var uid: String
        var url: String
        /// What the store is to hold.
        var items: CalendarItems
        /// Whether `items` holds a change of Chime's the server lacks.
        var keepsMine: Bool
        var clashes: [String]
        /// Chime's version as it was refused, kept with a conflict.
        var mine: String
    }

    func merged(mine: CalendarItems, theirs: Fetched, base: String?, calendar: ItemCalendar) -> Merge {
        let mineText = (try? CalendarExport.bytes(mine, calendarName: nil, stamp: store.now())).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var merge = Merge(uid: theirs.uid, url: theirs.url, items: theirs.items, keepsMine: false, clashes: [], mine: mineText)
        guard let base, case .success(let (_, baseItems)) = read(base, url: theirs.url, calendar: calendar),
              let old = Self.exported(baseItems), let ours = Self.exported(mine), let their = Self.exported(theirs.items) else {
            // Nothing to merge against (an account added again over the
            // calendars it made before): the same item on both sides is no
            // conflict; else the server's stands, Chime's is kept whole.
            if let ours = Self.exported(mine), let their = Self.exported(theirs.items),
               ours.items.map(Self.withoutStamps) == their.items.map(Self.withoutStamps) {
                return merge
            }
            merge.clashes = ["the base"]
            return merge
        }
        let result = ResourceMerge.merge(base: old.items, mine: ours.items, theirs: their.items)
        merge.clashes = result.clashes
        guard result.components != their.items else { return merge }
        // The zones both sides used, so the merge reads as either did.
        var zones = their.zones
        for zone in ours.zones where !zones.contains(where: { $0["TZID"] == zone["TZID"] }) { zones.append(zone) }
        let calendarComponent = ICalendarComponent(name: "VCALENDAR", properties: [
            ICalendarProperty(name: "VERSION", value: "2.0"), ICalendarProperty(name: "PRODID", value: "-//Chime//merge//EN"),
        ], components: zones + result.components)
        guard let bytes = try? ICalendarWriter.write(calendarComponent),
              case .success(let (_, items)) = read(String(decoding: bytes, as: UTF8.self), url: theirs.url, calendar: calendar) else {
            merge.clashes = ["the merge"]
            return merge
        }
        merge.items = items
        merge.keepsMine = true
        return merge
    }

    /// A component without the properties that say when, not what (`ResourceMerge.stamps`), at any depth.
    static func withoutStamps(_ component: ICalendarComponent) -> ICalendarComponent {
        ICalendarComponent(name: component.name, properties: component.properties.filter { !ResourceMerge.stamps.contains($0.name) },
                           components: component.components.map(withoutStamps))
    }

    /// The items as Chime exports them for a digest: their VEVENTs and VTODOs, and their VTIMEZONEs.
    static func exported(_ items: CalendarItems) -> (items: [ICalendarComponent], zones: [ICalendarComponent])? {
        guard let bytes = try? CalendarExport.bytes(items, calendarName: nil, stamp: SyncDigest.stamp),
              let reading = try? ICalendarReader().read(bytes),
              let calendar = reading.components.first(where: { $0.name == "VCALENDAR" }) else { return nil }
        return (calendar.components.filter { $0.name != "VTIMEZONE" }, calendar.components.filter { $0.name == "VTIMEZONE" })
    }
}
