import CalendarModel
import Foundation

extension CalendarStore {
    /// Marks the time-based alarms of an item from outside (one with an
    /// external key: imported or synced) as answered at `at`, RFC 9074's
    /// ACKNOWLEDGED, so that the other devices that share it hear of the
    /// dismissal and do not ring what was answered here. Every one of the
    /// item's alarms, as Thunderbird's X-MOZ-LASTACK does: only firings due
    /// by `at` are silenced, and those have rung. Returns whether it wrote.
    ///
    /// Nothing is written for an item made here and never shared, nor in
    /// a read-only calendar, nor for an event with attendees: on a scheduling server a change to it is a
    /// change to the meeting, sent to everyone invited (RFC 6638), and a
    /// dismissal is nobody's business but this person's.
    @discardableResult
    public func acknowledgeAlarms(of identifier: ItemIdentifier, at: Date) throws(StoreError) -> Bool {
        func answered(_ alarms: [Alarm]) -> [Alarm]? {
            var changed = false
            let alarms = alarms.map { alarm in
                if case .proximity = alarm.trigger { return alarm }
                guard (alarm.acknowledged ?? .distantPast) < at else { return alarm }
                var answered = alarm
                answered.acknowledged = at
                changed = true
                return answered
            }
            return changed ? alarms : nil
        }
        let kind: String? = try StoreError.wrap { try database.scalar("SELECT type FROM items WHERE id = ?", [identifier.rawValue]) }
        switch kind {
        case "event":
            var event = try event(identifier: identifier)
            guard event.externalKey != nil, event.origin?.keepsProperty(named: "ATTENDEE") != true, try takesChanges(event.calendarIdentifier),
                  let alarms = answered(event.alarms) else { return false }
            event.alarms = alarms
            try save(event)
        case "reminder":
            var reminder = try reminder(identifier: identifier)
            guard reminder.externalKey != nil, try takesChanges(reminder.calendarIdentifier),
                  let alarms = answered(reminder.alarms) else { return false }
            reminder.alarms = alarms
            try save(reminder)
        default:
            return false
        }
        return true
    }

    /// Whether the calendar takes changes: a read-only one (a subscription,
    /// a server's read-only collection) has no way to tell the others.
    private func takesChanges(_ calendar: ItemIdentifier) throws(StoreError) -> Bool {
        try self.calendar(identifier: calendar).allowsContentModifications
    }

    /// Whether the item's calendar takes changes (true for an item not in
    /// the store: there is nothing to refuse). A notification asks before it
    /// offers Done, which would be refused.
    public func takesChanges(item identifier: ItemIdentifier) throws(StoreError) -> Bool {
        let allowed: Bool? = try StoreError.wrap {
            try database.scalar("SELECT c.allows_modifications FROM items i JOIN calendars c ON c.id = i.calendar_id WHERE i.id = ?",
                                [identifier.rawValue])
        }
        return allowed ?? true
    }
}
