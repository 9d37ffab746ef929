import CalendarModel

/// Words that stand for common rules wherever a rule is given (`--repeat`,
/// `chime rrule`), so that the everyday cases need no RFC 5545.
enum RuleShorthand {
    static let table: [(word: String, rule: String, meaning: String)] = [
        ("workdays", "FREQ=DAILY;X-WORKDAY=SKIP", "every workday: the ordinary week minus days off plus makeup workdays"),
        ("makeup-workdays", "FREQ=DAILY;X-WORKDAY=MAKEUP", "every makeup workday (调休补班)"),
        ("back-to-work", "FREQ=DAILY;X-WORKDAY=RETURN;X-BREAK=3", "the first workday after three or more days off"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Monday to Friday, holidays or not"),
        ("daily", "FREQ=DAILY", "every day"),
        ("weekly", "FREQ=WEEKLY", "every week on the start's weekday"),
        ("monthly", "FREQ=MONTHLY", "every month on the start's day"),
        ("yearly", "FREQ=YEARLY", "every year on the start's date"),
    ]

    /// The rule a word stands for, or the text itself (without an `RRULE:` prefix).
    static func expand(_ text: String) -> String {
        var body = Substring(text).trimmingWhitespace()
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        let lowered = body.lowercased()
        return table.first { $0.word == lowered }?.rule ?? String(body)
    }

    /// The words, for `--help` and hints.
    static var words: [String] { table.map(\.word) }

    /// For a rule that did not parse: the word it was probably meant to be
    /// (`workday` for `workdays`), or, for a bare word, the words there are.
    /// Empty for text that is a rule gone wrong (it has `=`).
    static func hint(for text: String) -> String {
        let word = Substring(text).trimmingWhitespace()
        guard !word.contains("="), !word.contains(";") else { return "" }
        return Suggestion.hint(for: String(word), among: words)
            + " (a rule is RFC 5545, as in FREQ=WEEKLY;BYDAY=MO, or one of the words " + words.joined(separator: ", ") + ")"
    }

    /// For the `--repeat` help: the words (`--help` wraps them).
    static var wordsHelp: String {
        "or a word: " + words.joined(separator: ", ") + " (see 'chime rrule --help')"
    }

    /// For `--help`: one line per word.
    static var help: String {
        table.map { "  \($0.word.padding(toLength: 17, withPad: " ", startingAt: 0)) \($0.rule)\n"
            + String(repeating: " ", count: 21) + $0.meaning }.joined(separator: "\n")
    }
}
