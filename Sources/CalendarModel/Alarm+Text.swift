import Foundation

/// An alarm as a person reads it. Here rather than in the command line:
/// `chime next` and the daemon's `next` answer write the same `trigger`.
extension Alarm {
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// `10m before`, `at 09:00 on the day`, `on leaving 31.2,121.4 within 150 m`;
    /// absolute times read in `zone`. `allDay`: of an item on a date, whose
    /// offsets count from its local midnight ("at 09:00 on the day").
    public func text(in zone: TimeZoneRules, allDay: Bool = false) -> String {
        switch missedWindow {
        case nil: triggerText(in: zone, allDay: allDay)
        case 0: triggerText(in: zone, allDay: allDay) + " (if missed: never shown late)"
        case let window?: triggerText(in: zone, allDay: allDay) + " (if missed: shown up to \(Self.durationText(window)) late)"
        }
    }

    private func triggerText(in zone: TimeZoneRules, allDay: Bool) -> String {
        switch trigger {
        case .relative(let seconds):
            if allDay, (0..<86_400).contains(seconds) {
                return "at " + Self.clock(LocalDateTime(localSeconds: Int64(seconds))) + " on the day"
            }
            if seconds == 0 { return "at the time" }
            return "\(Self.durationText(abs(seconds))) \(seconds < 0 ? "before" : "after")"
        case .absolute(let date):
            let local = zone.localTime(at: Int64(date.timeIntervalSince1970))
            return "at \(Self.weekdayNames[local.date.weekday.rawValue]) \(local.date) \(Self.clock(local))"
        case .proximity(let location, let proximity):
            let place = "\(location.latitude),\(location.longitude) within \(Self.numberText(location.radius)) m"
            var text = "on \(proximity == .enter ? "arriving at" : "leaving") \(place)\(location.title.isEmpty ? "" : " (\(location.title))")"
            if proximity == .enter && dwell > 0 { text += ", after \(Self.durationText(dwell)) inside" }
            if firesOnFirstFix { text += ", also on the first position" }
            return text
        }
    }

    private static func clock(_ time: LocalDateTime) -> String {
        CivilDate.twoDigits(time.hour) + ":" + CivilDate.twoDigits(time.minute)
    }

    /// `1h30m`, `10m`, `1d`.
    public static func durationText(_ seconds: Int) -> String {
        if seconds == 0 { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, length) in [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)] where rest >= length {
            text += "\(rest / length)\(unit)"
            rest %= length
        }
        return text
    }

    /// `150`, `12.5`: a whole number without its `.0`.
    public static func numberText(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
