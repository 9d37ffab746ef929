import AlarmScheduler
import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import Synchronization

/// chimed's syncer of CalDAV accounts: CalDAVSync's `AccountSync` through a
/// store connection of its own, so that a slow server never holds the
/// daemon's queue or its connection. Each collection's outcome is one log
/// line; a sync that changed nothing logs nothing, so an idle account does
/// not fill the journal every interval.
public struct AccountSyncer: CalendarSyncing {
    var machineZone: @Sendable () -> TimeZoneRules
    /// Seconds each request may take.
    var timeLimit: Double
    /// When the accounts' calendars were last looked for: at the first sync,
    /// then once a day (three requests an account), so that a calendar made
    /// on a phone comes to this machine without a `chime sync`.
    private let lastDiscovery = LastDiscovery()
    static let discoveryInterval: TimeInterval = 86_400

    /// Shared by the copies of the syncer the daemon holds.
    private final class LastDiscovery: Sendable {
        let at = Mutex<Date?>(nil)
    }

    /// The clock the once-a-day look for new calendars is read on.
    var now: @Sendable () -> Date

    public init(machineZone: @escaping @Sendable () -> TimeZoneRules, timeLimit: Double = 30, now: @escaping @Sendable () -> Date = { Date() }) {
        self.machineZone = machineZone
        self.timeLimit = timeLimit
        self.now = now
    }

    public func syncAccounts(storePath: String, log: @Sendable (String) -> Void) -> CalendarSyncResult {
        let store: CalendarStore
        do {
            store = try CalendarStore(path: storePath, creating: false, machineTimeZone: machineZone())
        } catch {
            log("chimed: sync: \(error)")
            return CalendarSyncResult(hasAccounts: true, changeCounter: nil)
        }
        do {
            let state = try SyncState(store: store)
            let accounts = try state.accounts()
            guard !accounts.isEmpty else {
                return CalendarSyncResult(hasAccounts: false, changeCounter: try? store.changeCounter())
            }
            let now = self.now()
            let discovers = lastDiscovery.at.withLock { last in
                guard last.map({ now.timeIntervalSince($0) >= Self.discoveryInterval || now < $0 }) ?? true else { return false }
                last = now
                return true
            }
            var conflicts = 0
            var keptEmpty: [String] = []
            for report in try AccountSync.run(accounts, store: store, state: state, timeLimit: timeLimit, discoversCalendars: discovers) {
                switch report.result {
                case .success(let outcome):
                    conflicts += outcome.conflicts
                    if outcome.heldEmpty { keptEmpty.append(report.calendar ?? outcome.collectionURL) }
                    let quiet = outcome.uploaded + outcome.deletedOnServer + outcome.downloaded + outcome.removed + outcome.conflicts == 0
                    if !quiet { log("chimed: sync \(report.line)") }
                    for skipped in outcome.skipped { log("chimed: sync \(report.account)/\(report.calendar ?? outcome.collectionURL): \(skipped)") }
                case .failure:
                    log("chimed: sync \(report.line); tried again at the next sync")
                }
            }
            return CalendarSyncResult(hasAccounts: true, changeCounter: try? store.changeCounter(), conflicts: conflicts, keptEmpty: keptEmpty)
        } catch {
            log("chimed: sync: \(error)")
        }
        return CalendarSyncResult(hasAccounts: true, changeCounter: try? store.changeCounter())
    }
}
