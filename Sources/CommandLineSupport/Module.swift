// CommandLineSupport: the command-line layer `chime` and `chimed` share.
// Options are declared once (`Option<Value>`, `Flag`) with their names,
// value, help and check; `CommandSyntax` parses by them and generates usage
// and `--help`, so help cannot disagree with parsing. Exit statuses
// (`ExitStatus`, usage errors 64, bad values 65) and `CommandFailure`.
//
// Imports: CalendarModel (did-you-mean hints, terminal escaping),
// SystemCalls (writing the standard descriptors) and Foundation only. Never the store, the scheduler or a command: chimed
// links this and not chime's commands.
