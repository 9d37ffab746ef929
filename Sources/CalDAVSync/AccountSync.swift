import CalendarStore
import HTTPDownload
import WebDAV

/// One sync of every collection of some accounts, one after the other:
/// what `chime sync` runs when asked and chimed runs on its own. A
/// failure is the collection's (or, when its password cannot be had, the
/// account's): the others are still synced.
public enum AccountSync {
    /// What happened to one collection, or to a whole account whose
    /// password could not be had (`calendar` nil).
    public struct Report: Sendable {
        public enum Failure: Error, Sendable {
            /// The account has a user but no password command: the account is
            /// wrong as it stands (`chime account add` again).
            case noPasswordCommand
            /// The password command failed or printed nothing.
            case password(String)
            /// The server could not be reached, refused, or the store refused what came.
            case sync(CalDAVError)
        }

        public var account: String
        /// The Chime calendar's title (the collection's URL when the calendar is gone).
        public var calendar: String?
        public var result: Result<SyncEngine.Outcome, Failure>

        public init(account: String, calendar: String?, result: Result<SyncEngine.Outcome, Failure>) {
            self.account = account
            self.calendar = calendar
            self.result = result
        }

        /// `ACCOUNT/CALENDAR: 1 uploaded, …`, or what went wrong.
        public var line: String {
            let place = calendar.map { "\(account)/\($0)" } ?? "account '\(account)'"
            switch result {
            case .success(let outcome):
                return "\(place): \(outcome.uploaded) uploaded, \(outcome.deletedOnServer) deleted on the server, "
                    + "\(outcome.downloaded) downloaded, \(outcome.removed) removed, \(outcome.conflicts) conflicts"
                    + (outcome.restored > 0 ? ", \(outcome.restored) edited here and deleted there, kept" : "")
                    + (outcome.writtenAsDates > 0
                        ? ", \(outcome.writtenAsDates) with a Chinese-calendar rule written as dates (the server does not take RSCALE)" : "")
                    + (outcome.becameReadOnly ? "; the server takes no changes here any more: the calendar is now read-only" : "")
                    + (outcome.becameWritable ? "; the server takes changes here now: the calendar is writable" : "")
            case .failure:
                return "\(place): \(failureText ?? "")"
            }
        }

        /// What went wrong, without the place; nil on success.
        public var failureText: String? {
            switch result {
            case .success: nil
            case .failure(.noPasswordCommand): "it has a user but no --password-command"
            case .failure(.password(let reason)): reason
            case .failure(.sync(let error)): error.description
            }
        }
    }

    /// The account's user with the password its command prints now; nil
    /// without a user. The password lives only as long as the sync.
    /// `environment`: the password command's (nil: this process's).
    public static func credentials(for account: SyncState.Account,
                                   environment: [String: String]? = nil) throws(Report.Failure) -> HTTPCredentials? {
        guard let user = account.user else { return nil }
        guard let words = account.passwordCommand else { throw .noPasswordCommand }
        do {
            return HTTPCredentials(user: user, password: try PasswordCommand(words).password(environment: environment))
        } catch {
            throw .password(error.description)
        }
    }

    /// Syncs each collection of `accounts` in turn and reports each, in order.
    /// `allowsEmptying`: a collection that suddenly lists empty may empty
    /// its Chime calendar (`SyncEngine.allowsEmptying`), as the person
    /// confirms with `chime sync --allow-emptying`.
    /// `discoversCalendars`: each account's calendars are looked for again
    /// first (three requests), and one made on the server since (on a phone)
    /// is mapped and synced with the rest; one no longer listed stays mapped
    /// (its next sync says what became of it). A discovery that fails
    /// leaves the calendars as they were.
    public static func run(_ accounts: [SyncState.Account], store: CalendarStore, state: SyncState,
                           timeLimit: Double = 30, allowsEmptying: Bool = false, discoversCalendars: Bool = false,
                           environment: [String: String]? = nil) throws(StoreError) -> [Report] {
        var reports: [Report] = []
        for account in accounts {
            var collections = try state.collections(of: account.name)
            guard !collections.isEmpty || discoversCalendars else { continue }
            let credentials: HTTPCredentials?
            do throws(Report.Failure) {
                credentials = try Self.credentials(for: account, environment: environment)
            } catch {
                reports.append(Report(account: account.name, calendar: nil, result: .failure(error)))
                continue
            }
            if discoversCalendars, let discovered = try? CalendarDiscovery(credentials: credentials, timeLimit: timeLimit).discover(account.address),
               discovered.calendars.contains(where: { found in !collections.contains { DAVHref.decodedPath($0.url) == DAVHref.decodedPath(found.url) } }) {
                _ = try state.adopt(account, discovered: discovered)
                collections = try state.collections(of: account.name)
            }
            let engine = SyncEngine(store: store, state: state, credentials: credentials, timeLimit: timeLimit)
            engine.allowsEmptying = allowsEmptying
            // A refused password or a server out of reach is the account's:
            // its other calendars are not tried with it (a server that counts
            // failed logins would lock the account one calendar at a time).
            var accountFailure: CalDAVError?
            for collection in collections {
                let title = (try? store.calendar(identifier: collection.calendar).title) ?? collection.url
                if let accountFailure {
                    reports.append(Report(account: account.name, calendar: title, result: .failure(.sync(accountFailure))))
                    continue
                }
                do throws(CalDAVError) {
                    reports.append(Report(account: account.name, calendar: title, result: .success(try engine.sync(collection))))
                } catch {
                    reports.append(Report(account: account.name, calendar: title, result: .failure(.sync(error))))
                    if case .transport(let failure) = error.code,
                       [.unauthorized, .authenticationScheme, .cannotResolve, .cannotConnect, .tls].contains(failure) {
                        accountFailure = CalDAVError(error.code, "not tried: \(error.description)")
                    }
                }
            }
        }
        return reports
    }
}
