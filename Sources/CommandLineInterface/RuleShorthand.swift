import CalendarModel
import RecurrenceEngine

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

    /// The RRULE text `text` gives: a word's, a phrase's (with what the
    /// phrase reads as), or the text itself (without an `RRULE:` prefix);
    /// `inWords` for a word or a phrase, whose days are what a person said.
    static func expand(_ text: String) throws(RecurrencePhrase.Refusal)
        -> (rule: String, phrase: RecurrencePhrase.Reading?, inWords: Bool) {
        var body = Substring(text).trimmingWhitespace()
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        let lowered = body.lowercased()
        if let word = table.first(where: { $0.word == lowered }) { return (word.rule, nil, true) }
        if let phrase = try RecurrencePhrase.read(String(body)) { return (phrase.rule, phrase, true) }
        return (String(body), nil, false)
    }

    /// The rule `text` gives a series asked to start at `start` (nil: not
    /// known), and how many days the start moves: a series given in words
    /// (`weekdays`, `every monday`) starts on the first of their days on or
    /// after `start` (`RecurrencePhrase.firstDay`), and a phrase's `until`
    /// words are read by `until` against that start. Else why there is
    /// none: the phrase's or the rule's error, and a hint at the word it
    /// was probably meant to be.
    static func series(_ text: String, start: ItemTime?,
                       until: (String, ItemTime) throws(RecurrencePhrase.Refusal) -> RecurrenceRule.Until)
        throws(RecurrencePhrase.Refusal) -> (rule: RecurrenceRule, shift: Int) {
        let (ruleText, phrase, inWords) = try expand(text)
        var rule: RecurrenceRule
        do {
            rule = try RecurrenceRule(rfc5545: ruleText)
        } catch {
            throw RecurrencePhrase.Refusal("\(error)\(hint(for: text))")
        }
        guard inWords, let start else {
            if phrase?.until != nil { throw RecurrencePhrase.Refusal("'until' needs the start or due time the series counts from") }
            return (rule, 0)
        }
        let day = start.wallClock.date
        let shift = firstDay(of: rule, onOrAfter: day).dayNumber - day.dayNumber
        guard let words = phrase?.until else { return (rule, shift) }
        let end = try until(words, start.adding(days: shift))
        do {
            return (try rule.ending(.until(end)), shift)
        } catch {
            throw RecurrencePhrase.Refusal("\(error)")
        }
    }

    /// The first day on or after `date` that a rule a phrase made falls on
    /// (`RecurrencePhrase.firstDay`). A Chinese-calendar rule's days are
    /// found by the engine, its SKIP included: the first occurrence of the
    /// rule, without its end, from the day before.
    static func firstDay(of rule: RecurrenceRule, onOrAfter date: CivilDate) -> CivilDate {
        guard rule.scale == .chinese, !rule.daysOfTheMonth.isEmpty else { return RecurrencePhrase.firstDay(of: rule, onOrAfter: date) }
        guard let endless = try? rule.ending(nil),
              let recurrence = try? Recurrence(rule: endless, startDate: date.adding(days: -1), timeZone: .utc),
              let first = recurrence.occurrences().dropFirst().first(where: { _ in true }) else { return date }
        return first.day
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
            + " (a rule is RFC 5545, as in FREQ=WEEKLY;BYDAY=MO, one of the words " + words.joined(separator: ", ")
            + ", or a phrase such as 'every monday')"
    }

    /// For the `--repeat` help: the words (`--help` wraps them).
    static var wordsHelp: String {
        "or a word: " + words.joined(separator: ", ") + "; or a phrase: 'every monday', 'every other week', "
            + "'every last friday', 'every month on the 15th', 'every day 10 times' (see 'chime rrule --help')"
    }

    /// For `--help`: one line per word.
    static var help: String {
        table.map { "  \($0.word.padding(toLength: 17, withPad: " ", startingAt: 0)) \($0.rule)\n"
            + String(repeating: " ", count: 21) + $0.meaning }.joined(separator: "\n")
    }

    /// For `--help`: phrases and the rules they make, made by `RecurrencePhrase` itself.
    static var phraseHelp: String {
        let phrases = ["every other day", "every 3 months", "every 2 hours", "every mon, wed and fri", "every other friday",
                       "every 2 weeks on mon and thu", "every weekday", "every workday", "every first monday",
                       "every last friday", "every month on the 1st and 15th", "every month on the last day",
                       "every dec 24", "every 4th thursday of november", "every day 10 times",
                       "every lunar year", "every lunar year on 8/15", "every lunar month on the 1st and 15th"]
        return phrases.map { phrase in
            "  " + phrase.padding(toLength: 32, withPad: " ", startingAt: 0) + " " + ((try? RecurrencePhrase.rule(phrase)) ?? nil ?? "")
        }.joined(separator: "\n")
    }
}
