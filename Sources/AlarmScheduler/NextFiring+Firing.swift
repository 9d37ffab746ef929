import CalendarModel
import DaemonControl

extension NextFiring {
    /// `firing` as `chime next --json` and the daemon's `next` answer write it, in `zone`.
    public init(_ firing: Firing, zone: TimeZoneRules) {
        self.init(at: RFC3339.text(firing.instant, in: zone), kind: firing.kind.rawValue, item: firing.itemIdentifier.rawValue,
                  title: firing.title, alarm: firing.alarm.identifier.rawValue,
                  trigger: firing.alarm.text(in: zone, allDay: firing.occurrence?.isAllDay == true), key: firing.key,
                  occurrence: firing.occurrence.map { RFC3339.text($0.instant, in: zone) },
                  scheduled: firing.occurrence?.scheduledTime.description, why: firing.explanation)
    }
}
