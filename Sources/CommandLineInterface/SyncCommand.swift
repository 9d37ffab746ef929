import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload

/// `chime sync`: two-way sync of the CalDAV accounts' calendars now.
enum SyncCommand: Command {
    static let name = "sync"
    static let abstract = "Sync the CalDAV accounts' calendars now (Chime's changes up, then the server's down)"
    static let syntax = CommandSyntax("chime sync", forms: [.init("[ACCOUNT...]", options: [allowEmptying] + ChimeOptions.store),
                                                            .init("--status", options: ChimeOptions.store),
                                                            .init("resolve UID (--mine | --theirs)", options: ChimeOptions.store)],
                                      options: [allowEmptying, status, mine, theirs] + ChimeOptions.store,
                                      discussion: """
        Looks for calendars made on the server since (mapped as 'chime account
        add' maps them), sends Chime's changes in each account's calendars to
        the server, then brings the server's changes down, and prints one line
        a calendar:
        uploaded, deleted on the server, downloaded, removed here, conflicts.
        Where both sides changed an item, the server's version is kept and
        Chime's is kept as a conflict, which --status lists. A resource that
        cannot be read is left out and named. A calendar the server suddenly
        lists as empty (every one of two or more items gone at once) is not
        emptied here: the sync says so, and --allow-emptying confirms it.
        Where both sides changed an item in different properties, the two
        are merged and the merge goes up. 'resolve' settles a conflict:
        --theirs keeps the server's version (what Chime holds since), --mine
        puts Chime's back, and the next sync sends it.
        """, epilogue: StoreOptions.exitStatusHelp + "\n69 when a server cannot be reached or refuses the password.")

    static let status = Flag("--status", help: "list the conflicts kept instead of syncing")
    static let allowEmptying = Flag("--allow-emptying",
                                    help: "let a calendar the server suddenly lists as empty be emptied here too (a sync without it keeps everything and says so)")

    static let mine = Flag("--mine", help: "with resolve: Chime's version of the item replaces the server's, sent at the next sync")
    static let theirs = Flag("--theirs", help: "with resolve: the server's version, which Chime holds since the sync, stays")

    static var changesStore: Bool { true }

    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure) {
        let command = syntax.name
        let (parsed, names, store) = try StoreOptions.start(syntax, arguments, positionals: nil, access: .writing, context: context)
        let state = try StoreOptions.run(command) { () throws(StoreError) in try SyncState(store: store) }
        if names.first == "resolve" {
            guard names.count == 2, parsed[mine] != parsed[theirs] else {
                throw .usage("\(command) resolve: give one UID (as 'chime sync --status' lists it) and one of --mine and --theirs")
            }
            let uid = names[1]
            let calendar: ItemCalendar
            do {
                calendar = try ConflictResolution.resolve(uid, keeping: parsed[mine] ? .mine : .theirs, store: store, state: state)
            } catch let failure as ConflictResolution.Failure {
                throw .data("\(command) resolve: \(failure.description)")
            } catch {
                throw .data("\(command) resolve: \((error as? StoreError)?.description ?? String(describing: error))")
            }
            if parsed[ChimeOptions.json] {
                struct Resolved: Encodable { var uid, kept, calendar: String }
                StoreOptions.printJSON(Resolved(uid: uid, kept: parsed[mine] ? "mine" : "theirs", calendar: calendar.title), context: context)
                return
            }
            context.standardOutput(parsed[mine] ? "\(uid): Chime's version kept in \(calendar.title); the next sync sends it"
                                                : "\(uid): the server's version kept in \(calendar.title)")
            return
        }
        if parsed[mine] || parsed[theirs] { throw .usage("\(command): --mine and --theirs are for 'chime sync resolve UID'") }
        if parsed[status] {
            let conflicts = try StoreOptions.run(command) { () throws(StoreError) in try state.conflicts() }
            if parsed[ChimeOptions.json] {
                struct Conflict: Encodable { var uid, href: String }
                StoreOptions.printJSON(["conflicts": conflicts.map { Conflict(uid: $0.uid, href: $0.href) }], context: context)
                return
            }
            if conflicts.isEmpty { context.standardOutput("No conflicts.") }
            for conflict in conflicts {
                context.standardOutput("\(conflict.uid): Chime's version kept aside, the server's kept (\(conflict.href))")
            }
            return
        }
        let accounts = try StoreOptions.run(command) { () throws(StoreError) in try state.accounts() }.filter { names.isEmpty || names.contains($0.name) }
        if let missing = names.first(where: { name in !accounts.contains { $0.name == name } }) {
            throw .notFound("\(command): '\(missing)' is not an account")
        }
        if accounts.isEmpty && !parsed[ChimeOptions.json] { context.standardOutput("No accounts.") }
        let reports = try StoreOptions.run(command) { () throws(StoreError) in
            try AccountSync.run(accounts, store: store, state: state, allowsEmptying: parsed[allowEmptying], discoversCalendars: true,
                                environment: context.childEnvironment)
        }
        var failures: [String] = []
        var failed: Int32?
        if parsed[ChimeOptions.json] { StoreOptions.printJSON(["synced": reports.map(Synced.init)], context: context) }
        for report in reports {
            switch report.result {
            case .success(let outcome):
                if !parsed[ChimeOptions.json] { context.standardOutput(report.line) }
                let place = "\(report.account)/\(report.calendar ?? outcome.collectionURL)"
                for skipped in outcome.skipped { context.standardError("\(command): \(place): \(skipped)") }
            case .failure(let failure):
                failures.append("\(command): \(report.line)")
                // The first failure's status: the account as stored is wrong
                // (64), its password command failed (65), a server (69).
                if failed == nil {
                    switch failure {
                    case .noPasswordCommand: failed = ExitStatus.usage
                    case .password: failed = ExitStatus.dataError
                    case .sync: failed = ExitStatus.unavailable
                    }
                }
            }
        }
        if let failed {
            // One line each: a message is written as one line, its line breaks escaped.
            for failure in failures { context.standardError(failure) }
            throw CommandFailure(message: "", status: failed)
        }
    }

    /// One collection's sync as `--json` gives it (a failure: `failure`, and no counts).
    struct Synced: Encodable {
        var account: String
        @Nullable var calendar: String?
        @Nullable var url: String?
        @Nullable var failure: String?
        var uploaded = 0, deletedOnServer = 0, downloaded = 0, removed = 0, conflicts = 0, merged = 0, keptDeletedThere = 0
        var writtenAsDates = 0
        var leftOut: [String] = []
        var readOnly: Bool?

        init(_ report: AccountSync.Report) {
            account = report.account
            calendar = report.calendar
            switch report.result {
            case .success(let outcome):
                url = outcome.collectionURL
                (uploaded, deletedOnServer, downloaded, removed) = (outcome.uploaded, outcome.deletedOnServer, outcome.downloaded, outcome.removed)
                (conflicts, merged, keptDeletedThere, writtenAsDates) = (outcome.conflicts, outcome.merged, outcome.restored, outcome.writtenAsDates)
                leftOut = outcome.skipped
                readOnly = outcome.becameReadOnly ? true : outcome.becameWritable ? false : nil
            case .failure:
                failure = report.failureText
            }
        }
    }

    /// The account's credentials for a command that needs them now
    /// (`chime account add`): a failure is the command's.
    static func credentials(for account: SyncState.Account, command: String,
                            context: CommandContext) throws(CommandFailure) -> HTTPCredentials? {
        do throws(AccountSync.Report.Failure) {
            return try AccountSync.credentials(for: account, environment: context.childEnvironment)
        } catch {
            let line = AccountSync.Report(account: account.name, calendar: nil, result: .failure(error)).line
            if case .noPasswordCommand = error { throw .usage("\(command): \(line)") }
            throw .data("\(command): \(line)")
        }
    }
}
