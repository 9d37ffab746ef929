import CalendarStore

/// `chime complete ID`: marks a reminder done.
enum CompleteCommand: Command {
    static let name = "complete"
    static let abstract = "Mark a reminder completed (a repeating one moves to its next due time)"
    static let help = """
    usage: chime complete ID [--db PATH]

    Completes the reminder ID (any unique prefix of its identifier). A
    repeating reminder completes its current occurrence: a completed copy
    keeps that due time, and the reminder moves on to its next one.

    Exit status: 0; 65 for a read-only calendar; 66 for an unknown or ambiguous ID.
    """

    static let parser = ArgumentParser(command: "chime complete", options: StoreAccess.options)

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try parser.parse(arguments)
        guard parsed.positionals.count == 1 else { throw .usage("chime complete: expected one ID") }
        let access = try StoreAccess("chime complete", parsed, context: context)
        try access.attempt { () throws(StoreError) in
            let identifier = try access.store.itemIdentifier(matching: parsed.positionals[0])
            try access.store.complete(identifier)
        }
    }
}
