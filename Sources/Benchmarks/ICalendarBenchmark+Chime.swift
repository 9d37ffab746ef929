extension ICalendarBenchmark {
    /// Chime's steps for `chime-bench ical`: the one place to wire the
    /// ICalendar reader, the import and the export in when they land (with
    /// "ICalendar" added to the Benchmarks target's dependencies), e.g.
    /// `ChimeSteps(parse: { path in try ICalendarReader.read(...).count })`.
    public static func chimeSteps() -> ChimeSteps {
        ChimeSteps()
    }
}
