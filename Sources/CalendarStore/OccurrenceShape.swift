import CalendarModel
import RecurrenceEngine

/// What every occurrence of one series shares, worked out once: its length
/// and how its start and end are written, so that each occurrence costs one
/// copy of the series and a few field writes.
struct OccurrenceShape {
    let series: Event
    let duration: Int64
    let zone: TimeZoneRules
    let endZone: TimeZoneRules
    /// For all-day series: how many days after its first day it ends.
    let days: Int?

    init(_ series: Event, duration: Int64, zone: TimeZoneRules, endZone: TimeZoneRules) {
        self.series = series
        self.duration = duration
        self.zone = zone
        self.endZone = endZone
        if case .date(let first) = series.start, case .date(let last) = series.end {
            days = last.dayNumber - first.dayNumber
        } else {
            days = nil
        }
    }

    func endInstant(_ occurrence: Occurrence) -> Int64 {
        guard let days else { return occurrence.instant + duration }
        return zone.resolve(LocalDateTime(date: occurrence.day.adding(days: days + 1))!).instant
    }

    func event(_ occurrence: Occurrence) -> Event {
        var item = series
        item.seriesIdentifier = series.identifier
        item.originalStart = occurrence.scheduledTime
        if let days {
            item.start = .date(occurrence.day)
            item.end = .date(occurrence.day.adding(days: days))
        } else if case .zoned(_, let name) = series.start {
            item.start = .zoned(occurrence.localTime, zone: name)
            item.end = .zoned(endZone.localTime(at: occurrence.instant + duration), zone: series.end.zoneName ?? name)
        } else {
            item.start = .floating(occurrence.localTime)
            item.end = .floating(zone.localTime(at: occurrence.instant + duration))
        }
        return item
    }
}
