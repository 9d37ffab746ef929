import CalendarModel
import FuzzSupport

@_cdecl("fuzz_time_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// A zone with transitions, so that wall times in gaps and folds are reached;
/// UTC when this machine has no zone data.
private let zone = (try? TimeZoneRules.named("Europe/Berlin")) ?? .utc
/// 2026-03-29T00:30:00Z, half an hour before Berlin's spring gap.
private let now: Int64 = 1_774_744_200

/// Time and duration expressions (`chime add --at`, `--before`): never a
/// crash; a refusal quotes the text as given; a duration stays within its
/// bound and its sign; a time gives an instant in the zone without trapping.
private let check: FuzzInput.Check = { data, size in
    let text = FuzzInput.text(data, size)
    do throws(TimeExpressionError) {
        let expression = try TimeExpression(text, now: now, zone: zone)
        _ = expression.instant(in: zone)
        _ = expression.itemTime(in: zone)
        _ = expression.itemTime(in: .utc, floating: true)
    } catch {
        FuzzInput.require(error.text == text && error.expected == .time, "a time refusal that does not quote its text: \(error)")
    }
    for allowingNegative in [false, true] {
        do throws(TimeExpressionError) {
            let duration = try DurationExpression(text, allowingNegative: allowingNegative)
            FuzzInput.require(abs(duration.seconds) <= DurationExpression.maximumSeconds, "duration \(duration.seconds)s past the bound")
            FuzzInput.require(allowingNegative || duration.seconds >= 0, "a negative duration where none is allowed: \(duration.seconds)")
        } catch {
            FuzzInput.require(error.text == text, "a duration refusal that does not quote its text: \(error)")
        }
    }
    return 0
}
