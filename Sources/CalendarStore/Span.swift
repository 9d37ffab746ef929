/// Which occurrences of a recurring event a change applies to, as EventKit's `EKSpan`.
public enum Span: String, Sendable, CaseIterable {
    /// This occurrence only: a change detaches it, a removal adds an exception.
    case thisEvent = "this"
    /// This occurrence and the ones after it: the series is split there.
    case futureEvents = "future"
}
