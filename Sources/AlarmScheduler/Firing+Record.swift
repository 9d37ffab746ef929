import CalendarModel
import DaemonControl
import Foundation
import RecurrenceEngine

/// A shown firing as the store keeps it (`AlarmLedger.ShownNotification`):
/// everything its notification says and its answers need, so that a daemon
/// started again shows it again as it was. JSON, one object.
extension Firing {
    /// The stored form; optional fields are left out when empty, and read
    /// back with their defaults (records of older versions lack some).
    private struct Record: Codable {
        struct Shape: Codable {
            var instant: Int64
            var utcOffset: Int32
            var scheduled: Int64
            var allDay: Bool?
            var daysMoved: Int?
        }

        var instant: Int64
        var alarm: String
        var kind: String
        var item: String
        var title: String
        var late: Bool?
        var occurrence: Shape?
        var explanation: String?
        var snoozedFrom: String?
        var crossing: String?
        var place: String?
        var location: String?
        var notes: String?
        /// Whether the item repeats by the Chinese calendar (its notification names the day in it).
        var lunar: Bool?
    }

    /// The firing and whether it was shown late, as one JSON object.
    func record(late: Bool) -> String {
        let record = Record(instant: instant, alarm: alarm.identifier.rawValue, kind: kind.rawValue, item: itemIdentifier.rawValue,
                            title: title, late: late,
                            occurrence: occurrence.map {
                                Record.Shape(instant: $0.instant, utcOffset: $0.utcOffset, scheduled: $0.scheduledTime.localSeconds,
                                             allDay: $0.isAllDay, daysMoved: $0.daysMoved)
                            },
                            explanation: explanation, snoozedFrom: snoozedFrom?.description, crossing: crossing, place: crossingPlace,
                            location: location.isEmpty ? nil : location, notes: notes.isEmpty ? nil : notes,
                            lunar: countsInChineseCalendar ? true : nil)
        let data = (try? ControlReply.encoder.encode(record)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// A firing read back from `record(late:)`, and whether it was late; nil
    /// for a record that is not one (written by another version, or damaged).
    static func fromRecord(_ text: String) -> (firing: Firing, late: Bool)? {
        guard let record = try? ControlReply.decoder.decode(Record.self, from: Data(text.utf8)),
              let alarm = ItemIdentifier(record.alarm), let kind = ItemKind(rawValue: record.kind),
              let item = ItemIdentifier(record.item) else { return nil }
        let occurrence = record.occurrence.map {
            Occurrence(instant: $0.instant, utcOffset: $0.utcOffset, scheduledTime: LocalDateTime(localSeconds: $0.scheduled),
                       isAllDay: $0.allDay ?? false, daysMoved: $0.daysMoved ?? 0)
        }
        // The trigger only says when it rang; the key needs the identifier alone.
        let trigger: Alarm.Trigger = occurrence.map { .relative(seconds: Int(record.instant - $0.instant)) }
            ?? .absolute(Date(timeIntervalSince1970: TimeInterval(record.instant)))
        var firing = Firing(instant: record.instant, alarm: Alarm(identifier: alarm, trigger: trigger), kind: kind, itemIdentifier: item,
                            title: record.title, occurrence: occurrence, explanation: record.explanation, snoozedFrom: record.snoozedFrom.flatMap(FiringKey.init))
        firing.crossing = record.crossing
        firing.crossingPlace = record.place
        firing.location = record.location ?? ""
        firing.notes = record.notes ?? ""
        firing.countsInChineseCalendar = record.lunar ?? false
        return (firing, record.late ?? false)
    }
}
