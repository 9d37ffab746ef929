import CalendarExchange
import CalendarModel
import CalendarStore

/// `chime sync resolve UID --mine|--theirs`: what becomes of the conflicts
/// kept for a UID. The server's side (what the store holds since the
/// sync that found them) stays with `theirs`; with `mine`, Chime's version
/// as it was refused replaces it in the store, and the next sync sends it
/// (against the server's ETag, so that an edit made there meanwhile is
/// found again, not overwritten). Either way the conflicts go. All or nothing.
public enum ConflictResolution {
    public enum Side: Sendable { case mine, theirs }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noConflict(uid: String)
        case unreadable(uid: String, reason: String)
        case calendarGone(uid: String)

        public var description: String {
            switch self {
            case .noConflict(let uid): "'\(uid)' has no conflict ('chime sync --status' lists them)"
            case .unreadable(let uid, let reason): "Chime's kept version of '\(uid)' does not read: \(reason)"
            case .calendarGone(let uid): "the calendar of '\(uid)' is no longer synced"
            }
        }
    }

    /// Resolves the conflicts of `uid`; the calendar it was resolved in.
    @discardableResult
    public static func resolve(_ uid: String, keeping side: Side, store: CalendarStore, state: SyncState) throws -> ItemCalendar {
        let conflicts = try state.conflicts().filter { $0.uid == uid }
        // The latest is Chime's version as last refused.
        guard let latest = conflicts.last else { throw Failure.noConflict(uid: uid) }
        guard let collection = try state.collections().first(where: { $0.url == latest.collectionURL }) else {
            throw Failure.calendarGone(uid: uid)
        }
        let calendar = try store.calendar(identifier: collection.calendar)
        var mine = CalendarItems()
        if side == .mine {
            let plan: CalendarImport.Plan
            do {
                plan = try CalendarImport.plan(Array(latest.local.utf8), source: uid, into: calendar, defaultCalendar: calendar, store: store)
            } catch {
                throw Failure.unreadable(uid: uid, reason: error.description)
            }
            if let fault = plan.faults.first { throw Failure.unreadable(uid: uid, reason: fault.description) }
            for part in plan.parts { mine.append(part.items) }
        }
        try store.transaction { () throws -> Void in
            if side == .mine {
                // Replaced, not imported over: the server's copy may be the later by SEQUENCE and LAST-MODIFIED, and the person chose.
                let items = try store.items(of: calendar.identifier, uids: [uid])
                for series in items.events { try store.remove(series.event) }
                for reminder in items.reminders { try store.removeReminder(reminder.identifier) }
                try store.importItems(mine, into: calendar.identifier)
            }
            try state.removeConflicts(of: uid)
        }
        return calendar
    }
}
