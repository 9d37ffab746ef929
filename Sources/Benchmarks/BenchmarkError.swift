/// A benchmark could not measure: a command it runs is missing or failed,
/// or the daemon under measure did not start.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}
