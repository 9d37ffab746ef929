@testable import AlarmScheduler
import CalendarStore

/// What the daemon settles at its first wake after `settled` (see
/// `Daemon.settle`): the plan made as at its start, then `CatchUp.settle`.
/// Tests of the scheduler and of `chime missed` and `chime snooze` use it to
/// do by hand what a daemon away for a while does.
public func settle(_ store: CalendarStore, settled: Int64, now: Int64, window: Int64 = CatchUp.defaultWindow) throws -> CatchUp {
    var plan = try StandingPlan.make(from: store, after: settled)
    return try CatchUp.settle(&plan, store: store, ledger: try AlarmLedger(store: store), settled: settled, now: now, window: window)
}
