import CalendarModel
import Foundation
import Testing

// The literals tests read, as values; a text that does not parse is a
// recorded failure at the caller, never a crash.

/// A local date-time from its ISO form, `2026-12-01T09:00:00`.
public func localTime(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> LocalDateTime {
    try #require(LocalDateTime(parsing: text), "'\(text)' is not a local date-time", sourceLocation: sourceLocation)
}

/// A civil date from its ISO form, `2026-12-01`.
public func civilDate(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> CivilDate {
    try #require(CivilDate(parsing: text), "'\(text)' is not a date", sourceLocation: sourceLocation)
}

/// Unix seconds of an RFC 3339 text, `2026-12-01T09:00:00+08:00`.
public func unixSeconds(_ rfc3339: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int64 {
    Int64(try #require(RFC3339.instant(rfc3339), "'\(rfc3339)' is not an RFC 3339 instant", sourceLocation: sourceLocation))
}

/// The `Date` of an RFC 3339 text.
public func rfc3339Date(_ rfc3339: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Date {
    Date(timeIntervalSince1970: try #require(RFC3339.instant(rfc3339), "'\(rfc3339)' is not an RFC 3339 instant",
                                             sourceLocation: sourceLocation))
}

/// Unix seconds of an RFC 3339 text, parsed by Foundation rather than by
/// Chime's own `RFC3339`: the oracle where the model or engine is under test.
public func foundationUnixTime(_ rfc3339: String) throws -> Int64 {
    Int64(try Date.ISO8601FormatStyle().parse(rfc3339).timeIntervalSince1970)
}
