/// `chime work add|remove|list`: days the person works though the calendar has them off (加班).
enum WorkCommand: KeepsPersonalDays {
    static let abstract = "Add days you work though they are off (加班), on which workday reminders ring, or list them"
    static let days = PersonalDaysCommand(
        "work", kind: .work, added: "added", removed: "removed", none: "No days of work added.",
        name: Option("--name", value: "TEXT", help: "what the day is, as you call it (加班, stocktaking)"), actions: """
            add       makes DATE (to --to) a workday on every workday calendar,
                      weekend or holiday: reminders on a workday rule (a clock-in
                      at 08:50 every workday) ring then, and those kept for makeup
                      workdays (X-WORKDAY=MAKEUP) too when the ordinary week has
                      the day off. A day already added gets the new --name, if
                      one is given.
            remove    takes the days of DATE (to --to) away again
            list      the days worked from --from (default today) on, or to --to
            """, answer: "workday (extra workday: NAME)")
}
