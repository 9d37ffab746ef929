/// Something the daemon itself has to tell the person, on the desktop and
/// in its log: not a firing, never answered. A value rather than text, so
/// that a notifier can say it in its own language (`DesktopNotifications`
/// has Chinese words for each); `title` and `body` are the English the log
/// writes.
public enum DaemonNotice: Hashable, Sendable {
    /// Workday rules of `region` are in use and `year` has no holiday data:
    /// they follow the ordinary week that year until the data is in.
    case missingHolidayData(region: String, year: Int)
    /// The daemon fetched `year`'s holiday data of `region`: workday rules
    /// follow it from now on.
    case holidayDataArrived(region: String, year: Int, offDays: Int, makeupWorkdays: Int)
    /// The daemon fetched `year`'s holiday data of `region` and found it
    /// changed (a notice amended): workday rules follow the new days.
    case holidayDataChanged(region: String, year: Int, offDays: Int, makeupWorkdays: Int)
    /// A sync found items changed both here and on the server: the server's
    /// version is kept, Chime's kept aside.
    case syncConflicts(count: Int)
    /// The server lists none of a calendar's items any more, and the sync
    /// kept them here rather than empty the calendar.
    case calendarKeptWhole(calendar: String)

    public var title: String {
        switch self {
        case .missingHolidayData(let region, let year): "No holiday data for \(year) (\(region))"
        case .holidayDataArrived(let region, let year, _, _): "Holiday data for \(year) is in (\(region))"
        case .holidayDataChanged(let region, let year, _, _): "Holiday data for \(year) changed (\(region))"
        case .syncConflicts(let count): "Sync: \(count == 1 ? "1 item was" : "\(count) items were") changed on both sides"
        case .calendarKeptWhole(let calendar): "Sync: \(calendar) kept"
        }
    }

    public var body: String {
        switch self {
        case .missingHolidayData(_, let year):
            "workday rules follow the ordinary week in \(year) until its data is in; 'chime holidays update' fetches it"
        case .holidayDataArrived(_, let year, let offDays, let makeupWorkdays), .holidayDataChanged(_, let year, let offDays, let makeupWorkdays):
            "\(offDays) days off and \(makeupWorkdays) makeup workdays; workday reminders in \(year) follow them, and 'chime holidays --year \(year)' lists them"
        case .syncConflicts:
            "the server's version is kept; Chime's is kept aside, and 'chime sync --status' lists it"
        case .calendarKeptWhole:
            "the server lists none of its items any more, so nothing was removed here; "
                + "if it was emptied on purpose, 'chime sync --allow-emptying' empties it here too"
        }
    }
}
