// Benchmarks: the workloads `chime-bench` runs (recurrence, store, daemon,
// location, cli, ical) and `write-load`, the store tests' second process.
//
// Imports: any library module it measures, and SeededRandom. Nothing
// imports it but chime-bench.
