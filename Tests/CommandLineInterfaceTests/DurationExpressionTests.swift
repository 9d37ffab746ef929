@testable import CalendarModel
import CommandLineInterface
import Testing

/// The error reading `text` as a duration throws, or nil when it reads.
private func refusal(_ text: String, allowingNegative: Bool = false) -> TimeExpressionError? {
    do {
        _ = try DurationExpression(text, allowingNegative: allowingNegative)
        return nil
    } catch {
        return error
    }
}

@Suite struct DurationExpressionTests {
    @Test("a duration is a run of whole amounts with units s, m, h, d, w, largest first, in seconds",
          arguments: [
              ("30s", 30), ("10m", 600), ("2h", 7_200), ("1d", 86_400), ("1w", 604_800),
              ("1h30m", 5_400), ("90m", 5_400), ("1d2h3m4s", 93_784), ("1w1d", 691_200), ("2h0m", 7_200),
              ("0m", 0), ("0s", 0), ("0", 0), ("-0", 0), ("000", 0), ("007m", 420), ("+10m", 600),
          ])
    func accepted(text: String, seconds: Int) throws {
        #expect(try DurationExpression(text).seconds == seconds)
        #expect(try DurationExpression(text, allowingNegative: true).seconds == seconds)
    }

    @Test("a duration in words: unit names, spaces between amounts and units, 'and', 'a' and 'an'",
          arguments: [
              ("10 minutes", 600), ("10min", 600), ("10 mins", 600), ("1 minute", 60), ("2hours", 7_200), ("2 Hours", 7_200),
              ("1 hr", 3_600), ("3 hrs", 10_800), ("90 secs", 90), ("1 second", 1), ("2 days", 172_800), ("1 wk", 604_800),
              ("2 weeks", 1_209_600), ("1 hour 30 minutes", 5_400), ("1 hour and 30 minutes", 5_400),
              ("1 hour, 30 minutes", 5_400), ("1h 30m", 5_400), ("an hour", 3_600), ("a day", 86_400), ("+10 minutes", 600),
          ])
    func inWords(text: String, seconds: Int) throws {
        #expect(try DurationExpression(text).seconds == seconds)
        #expect(try DurationExpression("-" + text.drop { $0 == "+" }, allowingNegative: true).seconds == -seconds)
    }

    @Test("a day in a duration is always 86,400 s (unlike +1d in a time expression)")
    func dayIsElapsed() throws {
        #expect(try DurationExpression("1d").seconds == DurationExpression("24h").seconds)
        #expect(try DurationExpression("1w").seconds == DurationExpression("168h").seconds)
    }

    @Test("units and case: 10M is ten minutes, 2H two hours", arguments: [("10M", 600), ("2H", 7_200), ("1H30M", 5_400), ("1W", 604_800)])
    func caseInsensitive(text: String, seconds: Int) throws {
        #expect(try DurationExpression(text).seconds == seconds)
    }

    @Test("whitespace around the text is ignored, and the text is kept as given",
          arguments: [(" 10m", 600), ("10m\n", 600), ("\t1h30m  ", 5_400)])
    func whitespace(text: String, seconds: Int) throws {
        let duration = try DurationExpression(text)
        #expect(duration.seconds == seconds)
        #expect(duration.text == text)
    }

    @Test("a negative duration where the caller allows it (an alarm before the start)",
          arguments: [("-10m", -600), ("-1h30m", -5_400), ("-1d", -86_400), ("-0m", 0), ("-366d", -31_622_400)])
    func negativeWhenAllowed(text: String, seconds: Int) throws {
        #expect(try DurationExpression(text, allowingNegative: true).seconds == seconds)
    }

    @Test("a negative duration is refused unless the caller allows it", arguments: ["-10m", "-1h30m", "-0m"])
    func negativeRefusedByDefault(text: String) {
        #expect(refusal(text) == TimeExpressionError(text: text, expected: .duration, reason: "a negative duration is not allowed here"))
    }

    @Test("at most 366 days either way, whatever the unit", arguments: [
        ("366d", 31_622_400), ("8784h", 31_622_400), ("527040m", 31_622_400), ("31622400s", 31_622_400),
        ("52w2d", 31_622_400), ("52w", 31_449_600), ("365d23h59m59s", 31_622_399),
    ])
    func upperBoundAccepted(text: String, seconds: Int) throws {
        #expect(try DurationExpression(text).seconds == seconds)
        #expect(try DurationExpression("-" + text, allowingNegative: true).seconds == -seconds)
    }

    @Test("more than 366 days is refused, without overflowing however long the number", arguments: [
        "367d", "53w", "8785h", "527041m", "31622401s", "366d1s", "52w2d1s", "99999999d",
        "99999999999999999999999999w", "9223372036854775807s", "9223372036854775808s",
        "1w1d1h1m99999999999999999999s",
    ])
    func beyondBound(text: String) {
        #expect(refusal(text) == TimeExpressionError(text: text, expected: .duration, reason: "the most Chime accepts is 366 days"))
        #expect(refusal("-" + text, allowingNegative: true)
            == TimeExpressionError(text: "-" + text, expected: .signedDuration, reason: "the most Chime accepts is 366 days"))
    }

    @Test("text that is no duration is refused, naming the text and why", arguments: [
        ("10", "a bare number is ambiguous; give a unit, as in 10m or 10h"),
        ("+10", "a bare number is ambiguous; give a unit, as in 10m or 10h"),
        ("1h30", "'30' has no unit (s, m, h, d or w)"),
        ("", "it is empty"), ("  ", "it is empty"),
        ("+", "a sign needs an amount after it, as in +10m"), ("-", "a sign needs an amount after it, as in -10m"),
        ("10x", "unknown unit 'x' (the units are s, m, h, d and w)"),
        ("10y", "'y': months and years have no fixed length (the units are s, m, h, d and w)"),
        ("1 month", "'month': months and years have no fixed length (the units are s, m, h, d and w)"),
        ("10 minits", "unknown unit 'minits' (the units are s, m, h, d and w)"),
        ("30 minutes 1 hour", "give each unit once, largest first, as in 1h30m"),
        ("1.5h", "use whole numbers, as in 90m or 1h30m"), ("1,5h", "use whole numbers, as in 90m or 1h30m"),
        ("30m1h", "give each unit once, largest first, as in 1h30m"),
        ("1h1h", "give each unit once, largest first, as in 1h30m"),
        ("m", nil), ("h10", nil), ("10m!", nil), ("a", nil), ("an hour ago", nil), ("1 1h", nil), ("ten minutes", nil), ("--10m", nil), ("+-10m", nil),
        ("１０m", nil),
    ] as [(String, String?)])
    func refused(text: String, reason: String?) {
        #expect(refusal(text) == TimeExpressionError(text: text, expected: .duration, reason: reason))
    }

    @Test("the messages, word for word, for durations and for signed durations")
    func messages() throws {
        let bare = try #require(refusal("10"))
        #expect(bare.description
            == "'10' is not a duration: a bare number is ambiguous; give a unit, as in 10m or 10h (try 30s, 10m, 2h, 1d, 1w, 1h30m or '10 minutes')")
        let signed = try #require(refusal("-10x", allowingNegative: true))
        #expect(signed.description
            == "'-10x' is not a duration: unknown unit 'x' (the units are s, m, h, d and w) "
            + "(try 10m, -10m, +10m, 1h30m, '10 minutes before' or '1 hour after'; the units are s, m, h, d and w)")
        let garbage = try #require(refusal("soon"))
        #expect(garbage.description == "'soon' is not a duration (try 30s, 10m, 2h, 1d, 1w, 1h30m or '10 minutes')")
        #expect(garbage.failure(in: "chime add: --alarm").status == 65)
    }
}
