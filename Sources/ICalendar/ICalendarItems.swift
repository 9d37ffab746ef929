import Foundation
import CalendarModel

/// iCalendar components mapped to Chime's events, reminders and alarms, and
/// back: values in, values out, no store and no I/O.
///
/// **Identity.** An imported item's `ItemIdentifier` is derived from the
/// target calendar, the UID and (for an occurrence) its original start, so
/// that importing the same file twice gives the same identifiers and saving
/// them again changes nothing. The UID becomes the series' `externalKey`;
/// detached occurrences and the later parts of a THISANDFUTURE split have no
/// key of their own, as when Chime itself detaches or splits. A component
/// without a UID is given one derived from its content (every property but
/// DTSTAMP, which files regenerate on each export): `chime-` and 32 hex
/// digits, `@derived`; it is written back on export, so the next import
/// keeps it. Alarm identifiers are derived from their item's and their place.
///
/// **Revision.** SEQUENCE is recorded in `origin.sequence` and LAST-MODIFIED,
/// else DTSTAMP, in `origin.lastModified`; which copy wins when a UID comes
/// again is the store's or the command's decision, not this type's. Export
/// writes LAST-MODIFIED from `origin.lastModified` and DTSTAMP from the
/// export's own time.
///
/// **Unmodelled data.** Every property, parameter and component Chime has
/// no field for is kept in `origin.unmodelled` (items) or `Alarm.unmodelled`
/// as unfolded content lines and written back on export. A modelled
/// property with parameters Chime does not model (`SUMMARY;LANGUAGE=de`,
/// X-APPLE-STRUCTURED-LOCATION's X-ADDRESS) is kept whole among them, and
/// export writes its parameters back onto the property it writes from the
/// model, in the place of the kept line. Export writes the modelled
/// properties first in a fixed order, then the unmodelled ones in the order
/// they came: the order of the first file is not kept, that of a second
/// export is.
public enum ICalendarItems {
    /// What reading one VCALENDAR gave, ready for the store: every series
    /// before the occurrences detached from it.
    public struct Result: Hashable, Sendable {
        public var entries: [Entry] = []
        public var problems: [Problem] = []
        /// Values read leniently: a Chime alarm property that does not read
        /// (the alarm keeps that field's default).
        public var warnings: [Problem] = []

        /// Every event, series first then their detached occurrences, in the order a store must save them.
        public var events: [Event] {
            var series: [Event] = []
            var detached: [Event] = []
            for entry in entries {
                if case .event(let event) = entry.item { series.append(event) }
                series += entry.followingSeries
                detached += entry.detached
            }
            return series + detached
        }

        /// Every reminder.
        public var reminders: [Reminder] {
            entries.compactMap { entry in
                if case .reminder(let reminder) = entry.item { return reminder }
                return nil
            }
        }
    }

    /// An event or a reminder.
    public enum Item: Hashable, Sendable {
        case event(Event)
        case reminder(Reminder)

        public var identifier: ItemIdentifier {
            switch self {
            case .event(let event): event.identifier
            case .reminder(let reminder): reminder.identifier
            }
        }

        var origin: ICalendarOrigin? {
            switch self {
            case .event(let event): event.origin
            case .reminder(let reminder): reminder.origin
            }
        }

        var isEvent: Bool {
            if case .event = self { true } else { false }
        }
    }

    /// One UID's items: the series (or single item), the later parts a
    /// THISANDFUTURE override split off it, and its detached occurrences.
    ///
    /// A VEVENT with RECURRENCE-ID whose series is not in the file (an
    /// invitation to one occurrence) is an entry of its own: a plain event
    /// keyed by the UID and the RECURRENCE-ID's wall clock
    /// (`UID#20261210T020000`, as a split's later part), its UID and
    /// RECURRENCE-ID kept in `origin.unmodelled` so that export writes them
    /// back. The store replaces such items when their series comes.
    ///
    /// A VTODO with RECURRENCE-ID is kept whole in its series' (the master
    /// VTODO's) `origin.unmodelled`, as Chime's reminders have no detached
    /// occurrences: export writes it back beside its master, unchanged.
    public struct Entry: Hashable, Sendable {
        public var uid: String
        public var item: Item
        /// THISANDFUTURE overrides, each a series that carries on from its
        /// original start (the one before it ends there with UNTIL), as
        /// Chime's own save with span `.futureEvents` shapes them.
        public var followingSeries: [Event] = []
        /// RECURRENCE-ID overrides: events naming their series
        /// (`seriesIdentifier`) and the start they replace (`originalStart`,
        /// the RECURRENCE-ID's wall time in the series' zone).
        public var detached: [Event] = []
    }

    /// A component that could not be mapped: where it starts, its UID if it
    /// has one, and why. The caller decides: skip it, or refuse the file.
    public struct Problem: Hashable, Sendable, CustomStringConvertible, Error {
        /// The component's name: VEVENT, VTODO, VJOURNAL, …
        public var component: String
        /// The line of its BEGIN (0 when built in code).
        public var line: Int
        public var uid: String?
        public var reason: String

        public var description: String {
            let place = line > 0 ? "line \(line): " : ""
            let name = uid.map { "\(component) \($0)" } ?? component
            return "\(place)\(name): \(reason)"
        }
    }
}
