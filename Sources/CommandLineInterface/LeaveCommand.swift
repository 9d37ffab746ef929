/// `chime leave add|remove|list|allowance`: the person's days of leave, which workday rules pass over.
enum LeaveCommand: KeepsPersonalDays {
    static let abstract = "Take days of leave, which workday reminders pass over, or list them"
    static let days = PersonalDaysCommand(
        "leave", kind: .leave, added: "taken", removed: "given back", none: "No leave.",
        name: Option("--name", value: "TEXT", help: "what the leave is, as you call it (年假, sick leave)"), actions: """
            add       takes DATE (to --to) as leave: a day off on every workday
                      calendar, so that reminders on a workday rule (a clock-in at
                      08:50 every workday) do not ring then, makeup workdays
                      included. A day already taken gets the new --name, if one
                      is given.
            remove    gives the days of DATE (to --to) back
            list      the days of leave from --from (default today) on, or to --to
            allowance shows or sets the workdays of leave a year allows (年假):
                      10, 5.5, or none; add and allowance then say what is
                      left of each year's
            """, answer: "day off (leave: NAME)")
}
