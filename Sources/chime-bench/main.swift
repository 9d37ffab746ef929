import Benchmarks
import Foundation

// chime-bench recurrence [--quick] [--only LETTERS] | store [--quick] [--keep PATH] [--mix calendar|endless] [--queries N] | location [--quick] | daemon [--quick] [--keep PATH] | cli [--quick] [--pairs N] | ical [--quick] [--keep PATH] | sync [--quick] [--items N]
let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
switch arguments.first {
case "recurrence":
    let only = arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? Set(arguments[$0 + 1]) : nil } ?? []
    try RecurrenceBenchmark(repetitions: quick ? 1 : 5, scale: quick ? 0.01 : 1, only: only).run { print($0) }
case "store":
    let kept = arguments.firstIndex(of: "--keep").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    let mix = arguments.firstIndex(of: "--mix").flatMap { arguments.indices.contains($0 + 1) ? [arguments[$0 + 1]] : nil } ?? []
    let queries = arguments.firstIndex(of: "--queries").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    try StoreBenchmark(scale: quick ? 0.01 : 1, keptPath: kept, mixes: mix, queries: queries).run { print($0) }
case "location":
    // location [--quick]: 10,000 geofences and 100,000 position lines (a tenth with --quick).
    try LocationBenchmark(scale: quick ? 0.1 : 1, repetitions: quick ? 3 : 5).run { print($0) }
case "daemon":
    // daemon [--quick] [--keep PATH]: 100,000 alarms (1,000 with --quick) and 60 s idle (5 s with --quick).
    let kept = arguments.firstIndex(of: "--keep").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    try DaemonBenchmark(scale: quick ? 0.01 : 1, idleSeconds: quick ? 5 : 60, keptPath: kept).run { print($0) }
case "cli":
    // cli [--quick] [--pairs N]: cold chime commands beside chime-bench-peer, 41 pairs each (5 with --quick).
    let pairs = arguments.firstIndex(of: "--pairs").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    try CLIBenchmark(pairs: pairs ?? (quick ? 5 : 41)).run { print($0) }
case "ical":
    // ical [--quick] [--keep PATH]: a decade's calendar of 10,000 events (500 with --quick), libical's parse beside Chime's parse, import and export.
    let kept = arguments.firstIndex(of: "--keep").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    // Hidden, for profiling: --steps export (comma-separated parse, import, export) times only those, --runs N times each.
    let steps = arguments.firstIndex(of: "--steps").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
    let runs = arguments.firstIndex(of: "--runs").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    try ICalendarBenchmark(events: quick ? 500 : 10_000, parses: runs ?? (quick ? 3 : 11), keptPath: kept,
                           onlySteps: steps.map { Set($0.split(separator: ",").map(String.init)) }).run { print($0) }
case "sync":
    // sync [--quick] [--items N]: a Radicale collection of 10,000 resources (500 with --quick), Chime's first and incremental syncs beside vdirsyncer's.
    let items = arguments.firstIndex(of: "--items").flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil }
    try SyncBenchmark(items: items ?? (quick ? 500 : 10_000), runs: quick ? 1 : 3).run { print($0) }
case "ical-import-child" where arguments.count >= 3:
    // ical-import-child FILE STORE [--warm]: ical's import in a process of its own, printing its memory (the ical benchmark's child).
    print(try ICalendarBenchmark.importChild(file: arguments[1], store: arguments[2], warm: arguments.contains("--warm")))
case "write-load" where arguments.count >= 4:
    // write-load PATH COUNT TAG [--batch]: the store reliability tests' second process.
    try WriteLoad.run(path: arguments[1], count: Int(arguments[2]) ?? 0, tag: arguments[3], batch: arguments.contains("--batch"))
default:
    FileHandle.standardError.write(Data("usage: chime-bench recurrence [--quick] [--only abcdefgh] | store [--quick] [--keep PATH] [--mix calendar|endless] [--queries N] | location [--quick] | daemon [--quick] [--keep PATH] | cli [--quick] [--pairs N] | ical [--quick] [--keep PATH] | sync [--quick] [--items N] | write-load PATH COUNT TAG [--batch]\n".utf8))
    exit(64)
}
