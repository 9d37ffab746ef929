/// How a recurrence rule treats the days of a workday calendar: the RRULE
/// extension part `X-WORKDAY` (with `X-BREAK` for `RETURN`).
///
/// Which dates are workdays is the business of a `WorkdaySchedule` given to
/// the recurrence engine, chosen by the rule's `X-REGION` or by the caller.
/// Each rule occurrence, the start included, is judged by the date it is
/// scheduled on:
///
/// - `skip` (`X-WORKDAY=SKIP`): an occurrence on a day off is dropped.
///   `FREQ=DAILY;X-WORKDAY=SKIP` is "every workday".
/// - `forward` (`X-WORKDAY=FORWARD`): an occurrence on a day off moves to the
///   same wall-clock time on the next workday, at most 366 days away (past
///   that it is dropped).
/// - `backward` (`X-WORKDAY=BACKWARD`): likewise to the previous workday.
/// - `makeup` (`X-WORKDAY=MAKEUP`): only occurrences on makeup workdays (days
///   of the ordinary weekend worked in exchange for days off) are kept.
/// - `firstAfterBreak(days:)` (`X-WORKDAY=RETURN;X-BREAK=N`): only
///   occurrences on a workday that follows at least N consecutive days off
///   are kept (N is 1…366).
public enum WorkdayRule: Hashable, Sendable, CustomStringConvertible {
    case skip
    case forward
    case backward
    case makeup
    case firstAfterBreak(days: Int)

    /// The longest break `X-BREAK` may ask for, and the farthest FORWARD and
    /// BACKWARD look for a workday: a year and a day.
    public static let longestReach = 366

    /// The value of the `X-WORKDAY` part.
    public var partValue: String {
        switch self {
        case .skip: "SKIP"
        case .forward: "FORWARD"
        case .backward: "BACKWARD"
        case .makeup: "MAKEUP"
        case .firstAfterBreak: "RETURN"
        }
    }

    /// The `X-WORKDAY` part and, for `RETURN`, its `X-BREAK`.
    public var description: String {
        if case .firstAfterBreak(let days) = self { return "X-WORKDAY=RETURN;X-BREAK=\(days)" }
        return "X-WORKDAY=\(partValue)"
    }

    /// In words, as a qualifier after a description of the rest of the rule
    /// ("FREQ=MONTHLY;BYMONTHDAY=10, moved to the next workday when it falls
    /// on a day off").
    public var qualifier: String {
        switch self {
        case .skip: "only on workdays"
        case .forward: "moved to the next workday when it falls on a day off"
        case .backward: "moved to the previous workday when it falls on a day off"
        case .makeup: "only on makeup workdays"
        case .firstAfterBreak(let days): "only on the first workday after at least \(Self.days(days)) off"
        }
    }

    /// In words, for a rule that is every day and nothing more (`FREQ=DAILY`
    /// with no other part): "every workday".
    public var everyDayPhrase: String {
        switch self {
        case .skip: "every workday"
        case .forward: "every day, moved to the next workday when it falls on a day off"
        case .backward: "every day, moved to the previous workday when it falls on a day off"
        case .makeup: "every makeup workday"
        case .firstAfterBreak(let days): "the first workday after at least \(Self.days(days)) off"
        }
    }

    static func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }

    /// The `X-WORKDAY` values, in the order error messages list them.
    public static let partValues = ["SKIP", "FORWARD", "BACKWARD", "MAKEUP", "RETURN"]
}
