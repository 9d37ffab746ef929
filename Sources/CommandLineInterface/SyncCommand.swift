import CalDAVSync
import CalendarStore
import Foundation
import HTTPDownload

/// `chime sync`: two-way sync of the CalDAV accounts' calendars now.
enum SyncCommand: Command {
    static let name = "sync"
    static let abstract = "Sync the CalDAV accounts' calendars now (Chime's changes up, then the server's down)"
    static let syntax = CommandSyntax("chime sync", forms: [.init("[ACCOUNT]"), .init("--status")], options: [status] + ChimeOptions.store,
                                      discussion: """
        Sends Chime's changes in each account's calendars to the server, then
        brings the server's changes down, and prints one line a calendar:
        uploaded, deleted on the server, downloaded, removed here, conflicts.
        Where both sides changed an item, the server's version is kept and
        Chime's is kept as a conflict, which --status lists. A resource that
        cannot be read is left out and named.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when a server cannot be reached or refuses the password.")

    static let status = Flag("--status", help: "list the conflicts kept instead of syncing")

    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, names, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .writing, context: context)
        let state = try StoreOptions.run(command) { () throws(StoreError) in try SyncState(store: store) }
        if parsed[status] {
            let conflicts = try StoreOptions.run(command) { () throws(StoreError) in try state.conflicts() }
            if conflicts.isEmpty { context.standardOutput("No conflicts.") }
            for conflict in conflicts {
                context.standardOutput("\(conflict.uid): Chime's version kept aside, the server's kept (\(conflict.href))")
            }
            return
        }
        let accounts = try StoreOptions.run(command) { () throws(StoreError) in try state.accounts() }.filter { names.isEmpty || names.contains($0.name) }
        if let missing = names.first(where: { name in !accounts.contains { $0.name == name } }) {
            throw .data("\(command): '\(missing)' is not an account")
        }
        if accounts.isEmpty { context.standardOutput("No accounts.") }
        var failures: [String] = []
        for account in accounts {
            let credentials = try Self.credentials(for: account, command: command)
            let engine = SyncEngine(store: store, state: state, credentials: credentials)
            let collections = try StoreOptions.run(command) { () throws(StoreError) in try state.collections(of: account.name) }
            for collection in collections {
                let title = (try? store.calendar(identifier: collection.calendar).title) ?? collection.url
                do {
                    let outcome = try engine.sync(collection)
                    context.standardOutput("\(account.name)/\(title): \(outcome.uploaded) uploaded, \(outcome.deletedOnServer) deleted on the server, "
                                           + "\(outcome.downloaded) downloaded, \(outcome.removed) removed, \(outcome.conflicts) conflicts")
                    for skipped in outcome.skipped { context.standardError("\(command): \(account.name)/\(title): \(skipped)") }
                } catch {
                    failures.append("\(command): \(account.name)/\(title): \(error.description)")
                }
            }
        }
        if !failures.isEmpty { throw CommandFailure(message: failures.joined(separator: "\n"), status: ExitStatus.unavailable) }
    }

    /// The account's user with the password its command prints now; nil without a user.
    static func credentials(for account: SyncState.Account, command: String) throws(CommandFailure) -> HTTPCredentials? {
        guard let user = account.user else { return nil }
        guard let words = account.passwordCommand else {
            throw .usage("\(command): account '\(account.name)' has a user but no --password-command")
        }
        do {
            return HTTPCredentials(user: user, password: try PasswordCommand(words).password())
        } catch {
            throw .data("\(command): account '\(account.name)': \(error.description)")
        }
    }
}
