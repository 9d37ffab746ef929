import CalendarModel
import ICalendar

extension ICalendarBenchmark {
    /// Chime's steps for `chime-bench ical`: the reader alone (beside
    /// libical's parser), then the import and the export.
    public static func chimeSteps() -> ChimeSteps {
        ChimeSteps(parse: { path in
            let reading = try ICalendarReader().read(path: path)
            guard reading.problems.isEmpty else {
                throw BenchmarkError(description: "the generated calendar read with \(reading.problems.count) problems: \(reading.problems[0])")
            }
            return reading.components.reduce(0) { $0 + $1.components(named: "VEVENT").count }
        })
    }
}
