import CalendarStore
import Foundation
import Geofencing
import SQLiteDatabase

/// The geofence monitor's state between runs and the newest position fed
/// in, so that a restarted daemon neither fires an enter again nor forgets
/// a position fed in while it was not running. Where this machine has been
/// is its own business: it never leaves the ledger.
extension AlarmLedger {
    /// A position fed in, and when it reached the ledger.
    public struct StoredPosition: Hashable, Sendable {
        public var fix: Fix
        /// In Unix seconds (the second it fell in: the column keeps fractions).
        public var recordedAt: Int64
    }

    /// The saved states and the newest fix time the monitor took; empty
    /// before the first run.
    public func geofenceSnapshot() throws(StoreError) -> GeofenceMonitor.Snapshot {
        try StoreError.wrap {
            var snapshot = GeofenceMonitor.Snapshot()
            snapshot.latestFixTime = try database.scalar("SELECT latest_fix_at FROM location_state WHERE id = 1")
            try database.withStatement("""
                SELECT alarm_id, presence, last_fix_at, dwell_started_at, last_fired_at FROM geofence_states
                """) { statement in
                while try statement.advance() {
                    guard let alarm = statement.text(0),
                          let presence = statement.text(1).flatMap(GeofenceState.Presence.init(rawValue:)) else { continue }
                    func optional(_ column: Int) -> Double? { statement.isNull(column) ? nil : statement.double(column) }
                    snapshot.states[alarm] = GeofenceState(presence: presence, lastFixTime: optional(2),
                                                           dwellStartedAt: optional(3), lastFiredAt: optional(4))
                }
            }
            return snapshot
        }
    }

    /// Saves what changed in the monitor, in one transaction: the states
    /// given (by alarm identifier), the states of `removed` geofences
    /// dropped, the newest fix time, the position the monitor last took,
    /// and the firings those states produced as `showing` in the delivery
    /// log, so that a crash after this never loses a firing (the next run
    /// shows it again, marked as interrupted).
    public func saveGeofenceStates(_ states: [String: GeofenceState], removed: some Collection<String> = [String](),
                                   latestFixTime: Double?, position: Fix? = nil,
                                   recording deliveries: [Delivery] = []) throws(StoreError) {
        try StoreError.wrap {
            try database.transaction {
                try database.withStatement("""
                    INSERT INTO geofence_states (alarm_id, presence, last_fix_at, dwell_started_at, last_fired_at)
                    VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT(alarm_id) DO UPDATE SET presence = excluded.presence, last_fix_at = excluded.last_fix_at,
                        dwell_started_at = excluded.dwell_started_at, last_fired_at = excluded.last_fired_at
                    """) { statement in
                    for (alarm, state) in states {
                        statement.reset()
                        try statement.bind([alarm, state.presence.rawValue, state.lastFixTime, state.dwellStartedAt, state.lastFiredAt])
                        try statement.execute()
                    }
                }
                if !removed.isEmpty {
                    try database.execute("DELETE FROM geofence_states WHERE alarm_id IN (SELECT value FROM json_each(?))",
                                         [CalendarStore.jsonArray(Array(removed))])
                }
                try database.execute("UPDATE location_state SET latest_fix_at = ? WHERE id = 1", [latestFixTime])
                if let position { try writePosition(position) }
                try record(deliveries)
            }
        }
    }

    /// Replaces every saved state with `snapshot`'s.
    public func replaceGeofenceSnapshot(_ snapshot: GeofenceMonitor.Snapshot) throws(StoreError) {
        try StoreError.wrap {
            try database.transaction {
                try database.execute("DELETE FROM geofence_states")
                try saveGeofenceStates(snapshot.states, latestFixTime: snapshot.latestFixTime)
            }
        }
    }

    // MARK: The newest position

    /// The newest position fed in (by `chime location` with no daemon
    /// running, or saved by the daemon with its states), if any.
    public func latestPosition() throws(StoreError) -> StoredPosition? {
        try StoreError.wrap {
            let rows = try database.query("""
                SELECT latitude, longitude, accuracy, position_at, recorded_at FROM location_state
                WHERE id = 1 AND position_at IS NOT NULL
                """)
            guard let row = rows.first else { return nil }
            let fix = try Fix(latitude: try row.value(0), longitude: try row.value(1), accuracy: try row.value(2) as Double?,
                              time: try row.value(3))
            return StoredPosition(fix: fix, recordedAt: AlarmLedger.second(try row.value(4)))
        }
    }

    /// Keeps `fix` as the newest position unless a newer one is kept
    /// already; returns whether it was kept.
    @discardableResult
    public func keepPosition(_ fix: Fix) throws(StoreError) -> Bool {
        try StoreError.wrap {
            try database.transaction {
                let kept: Double? = try database.scalar("SELECT position_at FROM location_state WHERE id = 1")
                if let kept, kept > fix.time { return false }
                try writePosition(fix)
                return true
            }
        }
    }

    private func writePosition(_ fix: Fix) throws {
        try database.execute("""
            UPDATE location_state SET latitude = ?, longitude = ?, accuracy = ?, position_at = ?, recorded_at = ? WHERE id = 1
            """, [fix.position.latitude, fix.position.longitude, fix.accuracy, fix.time, now().timeIntervalSince1970])
    }
}
