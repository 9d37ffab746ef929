import Benchmarks
import Foundation

// chime-bench recurrence [--quick] [--only LETTERS]
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.first == "recurrence" else {
    FileHandle.standardError.write(Data("usage: chime-bench recurrence [--quick] [--only abcdef]\n".utf8))
    exit(64)
}
let quick = arguments.contains("--quick")
let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? Set(arguments[$0 + 1]) : nil } ?? []
try RecurrenceBenchmark(repetitions: quick ? 1 : 5, scale: quick ? 0.01 : 1, only: only).run { print($0) }
