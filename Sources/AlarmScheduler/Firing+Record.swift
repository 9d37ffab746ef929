import CalendarModel
import Foundation
import RecurrenceEngine

/// A shown firing as the store keeps it (`AlarmLedger.ShownNotification`):
/// everything its notification says and its answers need, so that a daemon
/// started again shows it again as it was. JSON, one object.
extension Firing {
    /// The firing and whether it was shown late, as one JSON object.
    func record(late: Bool) -> String {
        var object: [String: Any] = ["instant": instant, "alarm": alarm.identifier.rawValue, "kind": kind.rawValue,
                                     "item": itemIdentifier.rawValue, "title": title, "late": late]
        if let occurrence {
            object["occurrence"] = ["instant": occurrence.instant, "utcOffset": Int(occurrence.utcOffset),
                                    "scheduled": occurrence.scheduledTime.localSeconds, "allDay": occurrence.isAllDay,
                                    "daysMoved": occurrence.daysMoved]
        }
        if let explanation { object["explanation"] = explanation }
        if let snoozedFrom { object["snoozedFrom"] = snoozedFrom.description }
        if let crossing { object["crossing"] = crossing }
        if !location.isEmpty { object["location"] = location }
        if !notes.isEmpty { object["notes"] = notes }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A firing read back from `record(late:)`, and whether it was late; nil
    /// for a record that is not one (written by another version, or damaged).
    static func fromRecord(_ text: String) -> (firing: Firing, late: Bool)? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let instant = (object["instant"] as? NSNumber)?.int64Value,
              let alarm = (object["alarm"] as? String).flatMap(ItemIdentifier.init),
              let kind = (object["kind"] as? String).flatMap(ItemKind.init(rawValue:)),
              let item = (object["item"] as? String).flatMap(ItemIdentifier.init),
              let title = object["title"] as? String else { return nil }
        var occurrence: Occurrence?
        if let shape = object["occurrence"] as? [String: Any] {
            guard let at = (shape["instant"] as? NSNumber)?.int64Value, let offset = (shape["utcOffset"] as? NSNumber)?.int32Value,
                  let scheduled = (shape["scheduled"] as? NSNumber)?.int64Value else { return nil }
            occurrence = Occurrence(instant: at, utcOffset: offset, scheduledTime: LocalDateTime(localSeconds: scheduled),
                                    isAllDay: (shape["allDay"] as? Bool) ?? false, daysMoved: (shape["daysMoved"] as? NSNumber)?.intValue ?? 0)
        }
        // The trigger only says when it rang; the key needs the identifier alone.
        let trigger: Alarm.Trigger = occurrence.map { .relative(seconds: Int(instant - $0.instant)) }
            ?? .absolute(Date(timeIntervalSince1970: TimeInterval(instant)))
        var firing = Firing(instant: instant, alarm: Alarm(identifier: alarm, trigger: trigger), kind: kind, itemIdentifier: item,
                            title: title, occurrence: occurrence, explanation: object["explanation"] as? String,
                            snoozedFrom: (object["snoozedFrom"] as? String).flatMap(FiringKey.init))
        firing.crossing = object["crossing"] as? String
        firing.location = object["location"] as? String ?? ""
        firing.notes = object["notes"] as? String ?? ""
        return (firing, (object["late"] as? Bool) ?? false)
    }
}
