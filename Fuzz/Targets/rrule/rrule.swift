import CalendarModel
import FuzzSupport

@_cdecl("fuzz_rrule_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// RRULE text: parsing never crashes; a rule that parses prints as text that
/// parses to an equal rule and prints the same again; a refusal names a part
/// the text holds, or the rule as a whole. An `every …` phrase makes RRULE
/// text that parses, or says why it makes none.
private let check: FuzzInput.Check = { data, size in
    let text = FuzzInput.text(data, size)
    do throws(RecurrencePhrase.Refusal) {
        if let made = try RecurrencePhrase.read(text) {
            FuzzInput.require((try? RecurrenceRule(rfc5545: made.rule)) != nil,
                              "the phrase '\(text)' makes \(made.rule), which does not parse")
            FuzzInput.require(made.until.map { !$0.isEmpty } ?? true, "the phrase '\(text)' has an empty until")
        }
    } catch {
        FuzzInput.require(!error.description.isEmpty, "a phrase refused without a reason: '\(text)'")
    }
    do throws(RecurrenceRuleError) {
        let rule = try RecurrenceRule(rfc5545: text)
        let printed = rule.rfc5545
        guard let again = RecurrenceRule(printed) else {
            FuzzInput.require(false, "printed rule \(printed) does not parse")
            return 0
        }
        FuzzInput.require(again == rule, "printed rule \(printed) parses to a different rule")
        FuzzInput.require(again.rfc5545 == printed, "printing is not stable: \(printed) then \(again.rfc5545)")
    } catch {
        FuzzInput.require(!error.part.isEmpty && !error.reason.isEmpty, "a refusal without a part or reason: \(error)")
        // The part named is one the text holds (names are case-insensitive), one it lacks, or the rule as a whole.
        FuzzInput.require(error.part == "rule" || error.reason.hasPrefix("is missing") || text.uppercased().contains(error.part.uppercased()),
                          "a refusal naming '\(error.part)', which the text does not hold: \(error)")
    }
    return 0
}
