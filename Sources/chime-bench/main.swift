import Benchmarks
import Foundation

// chime-bench recurrence [--quick]
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "recurrence" else {
    FileHandle.standardError.write(Data("usage: chime-bench recurrence [--quick]\n".utf8))
    exit(64)
}
let quick = arguments.contains("--quick")
try RecurrenceBenchmark(repetitions: quick ? 1 : 5, scale: quick ? 0.01 : 1).run { print($0) }
