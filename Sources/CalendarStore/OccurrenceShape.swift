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
        days = Self.allDayLength(of: series)
    }

    /// For an all-day event: how many days after its first day it ends.
    static func allDayLength(of event: Event) -> Int? {
        guard case .date(let first) = event.start, case .date(let last) = event.end else { return nil }
        return last.dayNumber - first.dayNumber
    }

    /// When an occurrence ends: `duration` after it, or for an all-day one
    /// (`days` from `allDayLength`) the local midnight after its last day.
    static func endInstant(_ occurrence: Occurrence, duration: Int64, days: Int?, zone: TimeZoneRules) -> Int64 {
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
        } else if case .zoned(_, let name, let fold) = series.start {
            // Only a start that names a fold's later instant has an occurrence there.
            item.start = .zoned(occurrence.localTime, zone: name, fold: fold == .later ? zone.reading(at: occurrence.instant).1 : .earlier)
            let (end, endFold) = endZone.reading(at: occurrence.instant + duration)
            item.end = .zoned(end, zone: series.end.zoneName ?? name, fold: endFold)
        } else {
            item.start = .floating(occurrence.localTime)
            item.end = .floating(zone.localTime(at: occurrence.instant + duration))
        }
        return item
    }
}
