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
        .init("add URL", options: [user, passwordCommand, passwordStdin, accountName] + ChimeOptions.store),
        .init("list", options: ChimeOptions.store),
        .init("remove NAME", options: ChimeOptions.store),
    ], options: [user, passwordCommand, passwordStdin, accountName] + ChimeOptions.store, discussion: """
        add       finds the account's calendars (/.well-known/caldav, the
                  principal, its calendar home) and maps each to a Chime
                  calendar named by its display name, made when missing
                  (read-only where the server lets the user only read).
                  https is required except to this machine (loopback).
        list      the accounts and their calendars
        remove    forgets an account (its Chime calendars and items stay) and
                  the password --password-stdin put in the keyring

        The password is never in Chime's store: --password-command runs each
        time one is needed, and the first line it prints is the password;
        --password-stdin reads it once and keeps it in the desktop's keyring
        (secret-tool, under service chime account NAME user USER server URL),
        whose lookup is then the account's password command. Adding an
        account again under its name changes how it logs in; a name in use
        for another server or user is refused.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when the server cannot be reached or refuses the password.")

    static let user = Option("--user", value: "NAME", help: "the user name on the server")
    static let passwordCommand = Option("--password-command", value: "CMD", help: """
        the command that prints the password (such as 'pass show caldav' or
        'secret-tool lookup service chime account home'), split into words
        as a shell quotes them and run without a shell; name one ("sh -c
        '…'") to have one
        """)
    static let passwordStdin = Flag("--password-stdin", help: """
        read the password from the first line of standard input (asked for
        on a terminal) and keep it in the desktop's keyring
        """)
    static let accountName = Option("--name", value: "NAME", help: "the account's name in Chime (default: the server's host)")

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let parsed = try syntax.parse(arguments)
        let (action, command, rest) = try parsed.action(of: "chime account", among: ["add", "list", "remove"]).parts
        if action != "add", parsed[user] != nil || parsed[passwordCommand] != nil || parsed[passwordStdin] || parsed[accountName] != nil {
            throw .usage("\(command): --user, --password-command, --password-stdin and --name are for 'chime account add'")
        }
        switch action {
        case "add":
            try add(rest, parsed: parsed, context: context, command: command)
        case "list":
            let (_, store) = try StoreOptions.start(rest, positionals: [], access: .writing, context: context, command: command)
            try list(store, account: nil, parsed: parsed, context: context, command: command)
        case "remove":
            let (given, store) = try StoreOptions.start(rest, positionals: ["NAME"], access: .writing, context: context, command: command)
            let removed = try StoreOptions.run(command) { () throws(StoreError) -> SyncState.Account? in
                let state = try SyncState(store: store)
                guard let account = try state.accounts().first(where: { $0.name == given[0] }) else { return nil }
                try state.removeAccount(given[0])
                return account
            }
            guard removed != nil else { throw .notFound("\(command): '\(given[0])' is not an account") }
            if !parsed[ChimeOptions.json] { context.standardOutput("removed account '\(given[0])'") }
            if let lookup = removed?.passwordCommand, let clear = Keyring.clearCommand(lookingUp: lookup) {
                do throws(PasswordCommand.Failure) {
                    try Keyring(environment: context.childEnvironment).clear(lookingUp: lookup)
                } catch {
                    // secret-tool clear exits 1 both when nothing is kept and when the keyring is out of reach.
                    context.standardError("""
                        \(command): the keyring's password for '\(given[0])' may still be there (\(error.description)); \
                        clear it with: \(clear.joined(separator: " "))
                        """)
                }
            }
        default:
            preconditionFailure("\(command): action(of:among:) took an action with no case here")
        }
    }

    /// Finds the account's calendars, keeps a password given on standard
    /// input in the keyring, then maps the calendars; nothing is kept when
    /// the server cannot be reached or refuses the password.
    private static func add(_ rest: ParsedArguments, parsed: ParsedArguments, context: CommandContext,
                            command: String) throws(CommandFailure) {
        if parsed[passwordStdin] {
            if parsed[passwordCommand] != nil { throw .usage("\(command): --password-stdin and --password-command exclude each other") }
            if parsed[user] == nil { throw .usage("\(command): --password-stdin needs --user") }
        }
        let (given, store) = try StoreOptions.start(rest, positionals: ["URL"], access: .writing, context: context, command: command)
        let address = given[0]
        let name = parsed[accountName] ?? URL(string: address)?.host ?? address
        // Adding an account again changes how it logs in; another server or
        // user under the same name would take the old one's calendars, and
        // send the new password to the old server when they sync.
        let existing = try StoreOptions.run(command) { () throws(StoreError) in
            try SyncState(store: store).accounts().first { $0.name == name }
        }
        if let existing, existing.address != address || existing.user != parsed[user] {
            throw .data("\(command): account '\(name)' is \(existing.user.map { "user '\($0)' at " } ?? "")\(existing.address); "
                + "give this one another --name, or remove that one first ('chime account remove \(name)')")
        }
        var words: [String]?
        var typed: String?
        if let line = parsed[passwordCommand] {
            guard let split = PasswordCommand.words(line), !split.isEmpty else {
                throw .usage("\(command): --password-command '\(line)' has a quote left open, ends in a lone backslash or is empty")
            }
            words = split
        } else if parsed[passwordStdin], let user = parsed[user] {
            typed = try PasswordInput.read(from: context.standardInput, prompt: "Password for \(user) at \(address): ", command: command)
            words = Keyring.lookupCommand(account: name, user: user, server: address)
        }
        let account = SyncState.Account(name: name, address: address, user: parsed[user], passwordCommand: words)
        let credentials: HTTPCredentials?
        if let typed, let user = account.user {
            credentials = HTTPCredentials(user: user, password: typed)
        } else {
            credentials = try SyncCommand.credentials(for: account, command: command, context: context)
        }
        let discovered: CalendarDiscovery.Account
        do {
            discovered = try CalendarDiscovery(credentials: credentials).discover(address)
        } catch {
            throw CommandFailure(message: "\(command): \(error.description)", status: ExitStatus.unavailable)
        }
        let keyring = Keyring(environment: context.childEnvironment)
        // Re-adding an account replaces its kept password: a failure then leaves the new one, not none.
        if let typed {
            do throws(PasswordCommand.Failure) {
                try keyring.store(typed, lookingUp: words ?? [], label: "Chime: \(account.user ?? "") at \(address)")
            } catch {
                throw CommandFailure(message: "\(command): the password could not be kept in the keyring: \(error.description)",
                                     status: ExitStatus.unavailable)
            }
        }
        let mapped: [SyncState.Collection]
        do throws(CommandFailure) {
            mapped = try StoreOptions.run(command) { () throws(StoreError) in
                try SyncState(store: store).adopt(account, discovered: discovered)
            }
        } catch {
            if typed != nil, existing == nil, let words { try? keyring.clear(lookingUp: words) }
            throw error
        }
        if !parsed[ChimeOptions.json] { context.standardOutput("added account '\(account.name)' with \(mapped.count) calendar\(mapped.count == 1 ? "" : "s")") }
        try list(store, account: account.name, parsed: parsed, context: context, command: command)
    }

    /// One line an account, then one a calendar: its Chime calendar, components, read-only.
    private static func list(_ store: CalendarStore, account: String?, parsed: ParsedArguments, context: CommandContext,
                             command: String) throws(CommandFailure) {
        struct Line: Encodable {
            var account, url, calendar: String
            var components: [String]?
            var readOnly: Bool
        }
        struct Account: Encodable {
            var name, url: String
            @Nullable var user: String?
        }
        let (accounts, lines) = try StoreOptions.run(command) { () throws(StoreError) -> ([Account], [Line]) in
            let state = try SyncState(store: store)
            let accounts = try state.accounts().filter { account == nil || $0.name == account }
            let lines = try state.collections(of: account).map { collection throws(StoreError) in
                Line(account: collection.account, url: collection.url, calendar: try store.calendar(identifier: collection.calendar).title,
                     components: collection.components, readOnly: collection.isReadOnly)
            }
            return (accounts.map { Account(name: $0.name, url: $0.address, user: $0.user) }, lines)
        }
        if parsed[ChimeOptions.json] {
            struct Listing: Encodable { var accounts: [Account], calendars: [Line] }
            StoreOptions.printJSON(Listing(accounts: accounts, calendars: lines), context: context)
            return
        }
        for line in lines {
            let components = line.components?.joined(separator: ",") ?? "any"
            context.standardOutput("\(line.account): \(line.calendar) (\(components)\(line.readOnly ? ", read-only" : "")) \(line.url)")
        }
        // An account whose server had no calendar yet is still an account.
        for account in accounts where !lines.contains(where: { $0.account == account.name }) {
            context.standardOutput("\(account.name): no calendars at \(account.url)")
        }
    }
}
