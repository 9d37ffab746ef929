import CalendarModel
import CalendarStore
import DaemonControl
import Dispatch
import Foundation
import Geofencing

/// What the daemon keeps for location alarms between wakes.
struct LocationWatch {
    var monitor = GeofenceMonitor()
    /// The watched alarms with what their firings show, by alarm identifier.
    var alarms: [ItemIdentifier: CalendarStore.LocationAlarm] = [:]
    /// The store's change counter when the alarms were read.
    var readAtCounter: Int64?
    /// The states as the store holds them: what a save compares against.
    var saved: [String: GeofenceState] = [:]
    /// States of geofences no longer watched, still to drop from the store.
    var removed: Set<String> = []
    /// The newest fix taken, and whether the store has it.
    var latest: Fix?
    var latestSaved = true
    /// When (Unix seconds) the position was last written without any state change.
    var positionWrittenAt = 0.0
    /// Writes a position left unwritten once `Options.positionInterval` is
    /// over: without it, the last fix of a burst stayed in memory until the
    /// next fix, and `chime location --status` showed an older one.
    var positionTimer: (any ClockTimer)?
}

/// Location alarms in the daemon: a geofence monitor over the proximity
/// alarms of incomplete reminders, fed by `location` requests on the
/// control socket, its transitions shown through the same delivery path as
/// timed firings.
///
/// Reminders only: an event's location alarm has no natural end (which
/// occurrence would it belong to?), and EventKit only uses location alarms
/// on reminders in practice. Events' location alarms are counted in the log
/// and left alone.
///
/// The geofences are read again whenever the store's change counter moved
/// (one query over a partial index: 17 ms for 10,000 of them in a release
/// build, 35 ms from a change to the daemon's answer; `chime-bench
/// location`), and merged into the monitor:
/// an unchanged circle keeps its state, a moved one starts unknown, a
/// completed or removed reminder's geofences go.
extension Daemon {
    /// Restores the saved states, reads the geofences, and evaluates the
    /// position kept while no daemon ran when it is newer than the last
    /// fix taken. On the daemon's queue, before the first wake.
    func startLocation() throws {
        dispatchPrecondition(condition: .onQueue(queue))
        let snapshot = try ledger.geofenceSnapshot()
        location.saved = snapshot.states
        let (alarms, geofences) = try readLocationAlarms()
        location.monitor = GeofenceMonitor(geofences: geofences, restoring: snapshot)
        location.alarms = alarms
        location.removed = Set(snapshot.states.keys).subtracting(alarms.keys.map(\.rawValue))
        let onEvents = try store.eventLocationAlarmCount()
        if !geofences.isEmpty || onEvents > 0 {
            log("chimed: watching \(geofences.count) geofence(s)"
                + (onEvents > 0 ? "; \(onEvents) location alarm(s) on events are not watched (only reminders')" : ""))
        }
        guard let kept = try ledger.latestPosition(), kept.fix.time > snapshot.latestFixTime ?? -.infinity else {
            try saveLocation()
            return
        }
        let outcome = try takeFixes([kept.fix], now: clock.now)
        if outcome.ignored > 0 {
            log("chimed: the position kept from \(RFC3339.utc(Int64(kept.fix.time.rounded(.down)))) is too old to use")
        } else {
            log("chimed: evaluated the position kept while no daemon ran (\(outcome.transitions) firing(s))")
        }
    }

    /// Reads the geofences again when the store changed since they were
    /// read. Called on every wake; costs one query when nothing changed.
    func refreshGeofences() throws {
        let counter = try store.changeCounter()
        guard counter != location.readAtCounter else { return }
        let (alarms, geofences) = try readLocationAlarms(counter: counter)
        let before = location.monitor.count
        for identifier in location.alarms.keys where alarms[identifier] == nil {
            location.monitor.remove(identifier)
            location.removed.insert(identifier.rawValue)
        }
        for geofence in geofences where location.monitor.geofence(geofence.identifier) != geofence {
            location.monitor.add(geofence)
        }
        location.alarms = alarms
        if location.monitor.count != before { log("chimed: watching \(location.monitor.count) geofence(s)") }
        try saveLocation()
        armDwell()
    }

    private func readLocationAlarms(counter: Int64? = nil) throws -> ([ItemIdentifier: CalendarStore.LocationAlarm], [Geofence]) {
        let counter = try counter ?? store.changeCounter()
        var alarms: [ItemIdentifier: CalendarStore.LocationAlarm] = [:]
        var geofences: [Geofence] = []
        for row in try store.locationAlarms() {
            do {
                guard let geofence = try Geofence(alarm: row.alarm) else { continue }
                geofences.append(geofence)
                alarms[row.alarm.identifier] = row
            } catch {
                log("chimed: location alarm \(row.alarm.identifier.short) of '\(row.title)' is not watched: \(error)")
            }
        }
        location.readAtCounter = counter
        return (alarms, geofences)
    }

    /// What a batch of fixes did.
    struct LocationOutcome {
        var taken = 0
        var ignored = 0
        var transitions = 0
    }

    /// Applies fixes in the order given, shows each transition once, and
    /// saves the states when any changed.
    ///
    /// The order of the writes is what keeps each firing to once: the new
    /// states go to the store together with the firings, marked `showing`
    /// in the delivery log, before anything is shown. A crash after that
    /// leaves them to be shown again after the restart, marked as
    /// interrupted (never lost); a crash before it leaves the old states, and the
    /// same fixes fed again give the same keys, which the log refuses.
    func takeFixes(_ fixes: [Fix], now: Double) throws -> LocationOutcome {
        dispatchPrecondition(condition: .onQueue(queue))
        let ignoredBefore = location.monitor.ignored.outOfOrder + location.monitor.ignored.outOfDate
        let transitions = location.monitor.process(fixes, now: now)
        let ignored = location.monitor.ignored.outOfOrder + location.monitor.ignored.outOfDate - ignoredBefore
        let outcome = LocationOutcome(taken: fixes.count - ignored, ignored: ignored, transitions: transitions.count)
        if outcome.taken > 0, let newest = location.monitor.latestFixTime, newest >= location.latest?.time ?? -.infinity {
            location.latest = fixes.last { $0.time == newest }
            location.latestSaved = false
        }
        var firings = transitions.compactMap(firing)
        let known = try ledger.recordedKeys(among: firings.map(\.firingKey))
        firings.removeAll { known.contains($0.firingKey) }
        try saveLocation(recording: firings, now: now)
        if !firings.isEmpty {
            undelivered += firings
            try deliver(now: clock.second)
        }
        armDwell()
        return outcome
    }

    /// Arms a timer for the end of the earliest pending dwell. The position
    /// is taken as unchanged until a new one arrives (feeders such as
    /// GeoClue report only movement), so when the timer fires the newest
    /// position is taken again, as of then. Only dwells that end after the
    /// newest fix count: one that ended before it without ringing (that
    /// position too vague to say inside) waits for a real position, so the
    /// timer never fires twice for the same end.
    func armDwell() {
        let after = location.monitor.latestFixTime ?? -.infinity
        guard let end = location.monitor.nextDwellEnd(after: after), location.latest != nil else {
            dwellTimer?.source.cancel()
            dwellTimer = nil
            return
        }
        // Fixes arrive in batches many times a second: the same end keeps its timer.
        if dwellTimer?.end == end { return }
        dwellTimer?.source.cancel()
        let source = clock.schedule(at: end, on: queue) { [weak self] in
            guard let self else { return }
            self.dwellTimer = nil
            do {
                let now = self.clock.now
                guard let latest = self.location.latest else { return }
                let still = try Fix(position: latest.position, accuracy: latest.accuracy, time: max(now, end))
                _ = try self.takeFixes([still], now: now)
            } catch {
                self.log("chimed: \(error)")
            }
        }
        dwellTimer = (source, end)
    }

    /// The firing a transition makes: shown like a timed one, keyed by the
    /// alarm, the crossing and the fix's time.
    private func firing(_ transition: Transition) -> Firing? {
        firing(alarm: transition.geofence, kind: transition.kind, second: Int64(transition.time.rounded(.down)))
    }

    private func firing(alarm: ItemIdentifier, kind: Transition.Kind, second: Int64) -> Firing? {
        guard let row = location.alarms[alarm], case .proximity(let place, _) = row.alarm.trigger else { return nil }
        return Firing(instant: second, alarm: row.alarm, kind: .reminder, itemIdentifier: row.item, title: row.title, occurrence: nil,
                      explanation: Firing.crossingText(kind == .leave ? .leave : .enter, place), location: row.place,
                      notes: row.notes, crossing: "\(kind.rawValue)@\(second)", crossingPlace: Firing.placeName(place))
    }

    /// Crossings the last run left being shown (`takeInterrupted`): rebuilt
    /// from their alarm and waiting to be shown again, marked as
    /// interrupted; one whose alarm is no longer watched, or older than its
    /// missed window, is listed as interrupted. After `startLocation`,
    /// before the first wake.
    func showInterruptedCrossings() {
        let crossings = interrupted.filter(\.isCrossing)
        guard !crossings.isEmpty else { return }
        interrupted.subtract(crossings)
        var gone: [FiringKey] = []
        let now = clock.second
        for key in crossings.sorted() {
            guard case .crossing(let proximity, let second) = key.occurrence, let kind = Transition.Kind(rawValue: proximity.rawValue),
                  var firing = firing(alarm: key.alarm, kind: kind, second: second),
                  now - second <= firing.alarm.missedWindow.map(Int64.init) ?? options.lateness else {
                gone.append(key)
                continue
            }
            firing.interrupted = true
            undelivered.append(firing)
        }
        do { try ledger.setOutcome(.interrupted, keys: gone) } catch { log("chimed: \(error)") }
    }

    /// Writes the states that changed (presence, a pending dwell, the last
    /// firing; a newer fix time alone is not a change), the dropped ones,
    /// the newest position, and `firings` as being shown. With no state
    /// changed and no firing, the position alone is written at most every
    /// `positionInterval`, or when `force`d.
    func saveLocation(recording firings: [Firing] = [], now: Double? = nil, force: Bool = false) throws {
        let now = now ?? clock.now
        var changed: [String: GeofenceState] = [:]
        for (alarm, state) in location.monitor.snapshot.states {
            if let old = location.saved[alarm], old.presence == state.presence, old.dwellStartedAt == state.dwellStartedAt,
               old.lastFiredAt == state.lastFiredAt { continue }
            changed[alarm] = state
        }
        let positionDue = !location.latestSaved && (force || now - location.positionWrittenAt >= options.positionInterval)
        guard !changed.isEmpty || !location.removed.isEmpty || !firings.isEmpty || positionDue else {
            if !location.latestSaved { armPositionWrite(in: location.positionWrittenAt + options.positionInterval - now) }
            return
        }
        try ledger.saveGeofenceStates(changed, removed: location.removed, latestFixTime: location.monitor.latestFixTime,
                                     position: location.latestSaved ? nil : location.latest,
                                     recording: firings.map { AlarmLedger.Delivery($0, outcome: .showing, at: clock.second) })
        for (alarm, state) in changed { location.saved[alarm] = state }
        for alarm in location.removed { location.saved[alarm] = nil }
        location.removed = []
        location.latestSaved = true
        location.positionWrittenAt = now
        location.positionTimer?.cancel()
        location.positionTimer = nil
    }

    /// Writes the newest position `seconds` from now, unless a write is
    /// armed already or one happens first.
    private func armPositionWrite(in seconds: Double) {
        guard location.positionTimer == nil else { return }
        location.positionTimer = clock.schedule(in: seconds, on: queue) { [weak self] in
            guard let self else { return }
            self.location.positionTimer = nil
            do { try self.saveLocation(force: true) } catch { self.log("chimed: cannot save the location state: \(error)") }
        }
    }

    /// `{"request":"location","fixes":[{"lat":…,"lon":…,"accuracy":…,"time":…}, …]}`:
    /// applies the fixes in order. A fix without a time is dated now; one
    /// that is not a position or out of range is refused (named by its place
    /// in the list) and the others are still used.
    func answerLocation(_ reported: [ControlRequest.ReportedFix]) -> ControlReply {
        let now = clock.now
        var fixes: [Fix] = []
        fixes.reserveCapacity(reported.count)
        var refused: [String] = []
        for (index, element) in reported.enumerated() {
            do {
                switch element {
                case .position(let report):
                    fixes.append(try Fix(latitude: report.latitude, longitude: report.longitude, accuracy: report.accuracy,
                                         time: report.time ?? now))
                case .refused(let reason):
                    refused.append("fix \(index + 1): \(reason)")
                }
            } catch {
                refused.append("fix \(index + 1): \(error)")
            }
        }
        do {
            let outcome = try takeFixes(fixes, now: now)
            return .location(LocationReply(taken: outcome.taken, ignored: outcome.ignored, transitions: outcome.transitions, refused: refused))
        } catch {
            return .refused("\(error)")
        }
    }
}
