import CalendarModel

/// How a calendar's TZIDs become zones Chime reads (`TimeZoneRules.named`
/// accepts what it returns). A file's TZID may be an IANA name, a Windows
/// name, Outlook's display form or anything its VTIMEZONE defines, so the
/// answer depends on the calendar; `ICalendarZones` gives the full answer.
public protocol ICalendarZoneResolving: Sendable {
    /// The zone for `tzid` as this calendar uses it; throws naming the TZID
    /// when none can be found.
    func zone(forTZID tzid: String) throws(ICalendarValueError) -> String
    /// The zone of the calendar's floating times (X-WR-TIMEZONE), if it names one.
    var floatingZone: String? { get }
}

/// Takes a TZID that is an IANA name as it is and refuses any other: the
/// least a reader can do, and what tests of other parts stand on.
public struct IANAZoneResolver: ICalendarZoneResolving {
    public var floatingZone: String?

    public init(floatingZone: String? = nil) {
        self.floatingZone = floatingZone
    }

    public func zone(forTZID tzid: String) throws(ICalendarValueError) -> String {
        do {
            return try TimeZoneRules.named(tzid).identifier
        } catch {
            throw ICalendarValueError(property: "TZID", value: tzid, reason: "is not a time zone this machine knows")
        }
    }
}
