import CalendarModel
import Foundation

/// One occurrence of a recurrence: an instant, and how it reads on the wall
/// clock of the recurrence's zone.
public struct Occurrence: Hashable, Sendable, CustomStringConvertible {
    /// Unix time, in seconds.
    public let instant: Int64
    /// Seconds east of UTC in force at the instant.
    public let utcOffset: Int32
    /// The wall-clock time the rule asked for: the occurrence's identity,
    /// which EXDATE matches and the store keys detached occurrences by. It
    /// differs from `localTime` when that time fell into a gap and moved
    /// forward, or when a workday rule moved the occurrence to another day
    /// (`daysMoved`).
    public let scheduledTime: LocalDateTime
    public let isAllDay: Bool
    /// The days a workday rule (`X-WORKDAY=FORWARD` or `BACKWARD`) moved the
    /// occurrence by from its scheduled day: positive forward, negative
    /// back, 0 when it was not moved.
    public let daysMoved: Int

    public init(instant: Int64, utcOffset: Int32, scheduledTime: LocalDateTime, isAllDay: Bool, daysMoved: Int = 0) {
        self.instant = instant
        self.utcOffset = utcOffset
        self.scheduledTime = scheduledTime
        self.isAllDay = isAllDay
        self.daysMoved = daysMoved
    }

    /// The wall-clock time at the instant: where the occurrence rings.
    public var localTime: LocalDateTime { LocalDateTime(localSeconds: instant + Int64(utcOffset)) }

    /// The day of an all-day occurrence (after any workday move), or the
    /// local date of a timed one.
    public var day: CivilDate { isAllDay ? scheduledTime.date.adding(days: daysMoved) : localTime.date }

    public var date: Date { Date(timeIntervalSince1970: TimeInterval(instant)) }

    /// RFC 3339 with the zone's offset (`2026-12-01T08:50:00+08:00`), or the
    /// date alone for an all-day occurrence. Offsets that are not whole
    /// minutes (local mean time before 1900) keep their seconds.
    public var rfc3339: String {
        if isAllDay { return day.description }
        return RFC3339.text(localTime, offset: Int(utcOffset))
    }

    public var description: String { rfc3339 }
}
