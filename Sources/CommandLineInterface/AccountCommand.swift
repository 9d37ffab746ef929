import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload

/// `chime account add|list|remove`: the CalDAV accounts `chime sync` syncs.
enum AccountCommand: Command {
    static let name = "account"
    static let changesStore = true
    static let abstract = "Add, list or remove a CalDAV account"
    static let syntax = CommandSyntax("chime account", forms: [
        .init("add URL", options: [user, passwordCommand, accountName] + ChimeOptions.store),
        .init("list", options: ChimeOptions.store),
        .init("remove NAME", options: ChimeOptions.store),
    ], options: [user, passwordCommand, accountName] + ChimeOptions.store, discussion: """
        add       finds the account's calendars (/.well-known/caldav, the
                  principal, its calendar home) and maps each to a Chime
                  calendar named by its display name, made when missing.
                  https is required except to this machine (loopback).
        list      the accounts and their calendars
        remove    forgets an account (its Chime calendars and items stay)

        The password is never stored: --password-command runs each time one
        is needed, and the first line it prints is the password.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when the server cannot be reached or refuses the password.")

    static let user = Option("--user", value: "NAME", help: "the user name on the server")
    static let passwordCommand = Option("--password-command", value: "CMD", help: """
        the command that prints the password (such as 'secret-tool lookup
        chime caldav'), split into words as a shell quotes them and run
        without a shell; name one ("sh -c '…'") to have one
        """)
    static let accountName = Option("--name", value: "NAME", help: "the account's name in Chime (default: the server's host)")

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        guard let action = parsed.positionals.first else {
            throw .usage("chime account: missing add, list or remove (see 'chime account --help')")
        }
        let command = "chime account \(action)"
        var rest = parsed
        rest.positionals.removeFirst()
        if action != "add", parsed[user] != nil || parsed[passwordCommand] != nil || parsed[accountName] != nil {
            throw .usage("\(command): --user, --password-command and --name are for 'chime account add'")
        }
        switch action {
        case "add":
            let (given, store) = try StoreOptions.start(rest, positionals: ["URL"], access: .writing, context: context, command: command)
            let address = given[0]
            var words: [String]?
            if let line = parsed[passwordCommand] {
                guard let split = PasswordCommand.words(line), !split.isEmpty else {
                    throw .usage("\(command): --password-command '\(line)' has a quote left open, ends in a lone backslash or is empty")
                }
                words = split
            }
            let account = SyncState.Account(name: parsed[accountName] ?? URL(string: address)?.host ?? address, address: address,
                                            user: parsed[user], passwordCommand: words)
            let credentials = try SyncCommand.credentials(for: account, command: command)
            let discovered: CalendarDiscovery.Account
            do {
                discovered = try CalendarDiscovery(credentials: credentials).discover(address)
            } catch {
                throw CommandFailure(message: "\(command): \(error.description)", status: ExitStatus.unavailable)
            }
            let mapped = try StoreOptions.run(command) { () throws(StoreError) in
                try SyncState(store: store).adopt(account, discovered: discovered)
            }
            if !parsed[ChimeOptions.json] { context.standardOutput("added account '\(account.name)' with \(mapped.count) calendar\(mapped.count == 1 ? "" : "s")") }
            try list(store, account: account.name, parsed: parsed, context: context, command: command)
        case "list":
            let (_, store) = try StoreOptions.start(rest, positionals: [], access: .writing, context: context, command: command)
            try list(store, account: nil, parsed: parsed, context: context, command: command)
        case "remove":
            let (given, store) = try StoreOptions.start(rest, positionals: ["NAME"], access: .writing, context: context, command: command)
            try StoreOptions.run(command) { () throws(StoreError) in
                let state = try SyncState(store: store)
                guard try state.accounts().contains(where: { $0.name == given[0] }) else {
                    throw .invalid(ValidationError(field: "account", value: given[0], reason: "is not an account"))
                }
                try state.removeAccount(given[0])
            }
            if !parsed[ChimeOptions.json] { context.standardOutput("removed account '\(given[0])'") }
        default:
            throw .usage("chime account: unknown action '\(action)': add, list or remove (see 'chime account --help')")
        }
    }

    /// One line an account, then one a calendar: its Chime calendar, components, read-only.
    private static func list(_ store: CalendarStore, account: String?, parsed: ParsedArguments, context: CommandContext,
                             command: String) throws(CommandFailure) {
        struct Line: Encodable {
            var account, url, calendar: String
            var components: [String]?
            var readOnly: Bool
        }
        let lines = try StoreOptions.run(command) { () throws(StoreError) -> [Line] in
            let state = try SyncState(store: store)
            return try state.collections(of: account).map { collection throws(StoreError) in
                Line(account: collection.account, url: collection.url, calendar: try store.calendar(identifier: collection.calendar).title,
                     components: collection.components, readOnly: collection.isReadOnly)
            }
        }
        if parsed[ChimeOptions.json] {
            StoreOptions.printJSON(["calendars": lines], context: context)
            return
        }
        for line in lines {
            let components = line.components?.joined(separator: ",") ?? "any"
            context.standardOutput("\(line.account): \(line.calendar) (\(components)\(line.readOnly ? ", read-only" : "")) \(line.url)")
        }
    }
}
