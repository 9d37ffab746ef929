import CalendarModel

/// The geofences of every location alarm with their states: takes fixes,
/// gives firings.
///
/// A fix can change a geofence only if the geofence is `outside` and the
/// fix falls within its radius (an enter), or the geofence is `inside`
/// (a leave, or a dwell coming due) or `unknown` (its first state). So each
/// fix visits the circles the spatial index finds around it plus the set of
/// geofences that are inside or unknown, which is small once the first fix
/// has placed everything; the rest cannot change and are not touched.
public struct GeofenceMonitor: Sendable {
    /// What a restarted daemon needs to carry on: the order of fixes and
    /// each geofence's state, by alarm identifier.
    public struct Snapshot: Hashable, Sendable, Codable {
        /// Unix seconds of the newest fix taken; older ones are out of order.
        public var latestFixTime: Double?
        /// Keyed by the alarm identifier's raw value.
        public var states: [String: GeofenceState]

        public init(latestFixTime: Double? = nil, states: [String: GeofenceState] = [:]) {
            self.latestFixTime = latestFixTime
            self.states = states
        }
    }

    /// Fixes not used, by reason, since the monitor was made.
    public struct Ignored: Hashable, Sendable {
        /// Older than a fix already taken.
        public var outOfOrder = 0
        /// Too old, or too far ahead, of the clock when they arrived.
        public var outOfDate = 0
    }

    public let policy: GeofencePolicy
    /// False scans every geofence for every fix: the reference that tests
    /// and the benchmark hold the index against.
    public let usesIndex: Bool
    public private(set) var latestFixTime: Double?
    public private(set) var ignored = Ignored()

    // Geofences live in slots so that the index and the watched set hold
    // small integers rather than identifiers to hash.
    private var fences: [Geofence?] = []
    private var centres: [SphericalPoint] = []
    private var states: [GeofenceState] = []
    private var slots: [ItemIdentifier: Int32] = [:]
    private var freeSlots: [Int32] = []
    /// Slots whose geofence is inside or unknown: a far fix can change them.
    private var watched: Set<Int32> = []
    private var index: GeofenceIndex<Int32>
    /// How many geofences the index's cell size was chosen for.
    private var indexedFor = 0

    public init(geofences: [Geofence] = [], restoring snapshot: Snapshot? = nil,
                policy: GeofencePolicy = GeofencePolicy(), usesIndex: Bool = true) {
        self.policy = policy
        self.usesIndex = usesIndex
        latestFixTime = snapshot?.latestFixTime
        index = GeofenceIndex(cellSize: GeofenceIndex<Int32>.suggestedCellSize(radii: geofences.map(\.radius)))
        indexedFor = geofences.count
        for geofence in geofences {
            add(geofence, state: snapshot?.states[geofence.identifier.rawValue])
        }
    }

    public var count: Int { slots.count }

    public var geofences: [Geofence] { fences.compactMap { $0 } }

    public func geofence(_ identifier: ItemIdentifier) -> Geofence? { slots[identifier].flatMap { fences[Int($0)] } }

    public func state(of identifier: ItemIdentifier) -> GeofenceState? { slots[identifier].map { states[Int($0)] } }

    /// The earliest moment (Unix seconds) after `instant` that a pending
    /// dwell is over, when there is one: a feeder that sends positions only
    /// when they move (GeoClue) sends none while one stays put, so the
    /// daemon asks again then.
    public func nextDwellEnd(after instant: Double = -.infinity) -> Double? {
        var earliest: Double?
        for slot in slots.values {
            guard let since = states[Int(slot)].dwellStartedAt, let fence = fences[Int(slot)] else { continue }
            let end = since + fence.dwellSeconds
            if end > instant { earliest = min(earliest ?? .infinity, end) }
        }
        return earliest
    }

    /// The states to save, and the order of fixes.
    public var snapshot: Snapshot {
        var states: [String: GeofenceState] = [:]
        for (identifier, slot) in slots { states[identifier.rawValue] = self.states[Int(slot)] }
        return Snapshot(latestFixTime: latestFixTime, states: states)
    }

    /// Adds a geofence with a saved state (or unknown), or replaces one
    /// with the same identifier as `replace` does.
    public mutating func add(_ geofence: Geofence, state: GeofenceState? = nil) {
        if slots[geofence.identifier] != nil {
            replace(geofence, state: state)
            return
        }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            fences[Int(slot)] = geofence
            centres[Int(slot)] = SphericalPoint(geofence.centre)
            states[Int(slot)] = state ?? GeofenceState()
        } else {
            slot = Int32(fences.count)
            fences.append(geofence)
            centres.append(SphericalPoint(geofence.centre))
            states.append(state ?? GeofenceState())
        }
        slots[geofence.identifier] = slot
        index.insert(slot, centre: geofence.centre, radius: geofence.radius)
        updateWatch(slot)
        // Radii seen when the cells were sized may no longer be typical.
        if slots.count > 2 * indexedFor + 64 { reindex() }
    }

    /// Changes a geofence in place. With the same circle the state carries
    /// over (a new dwell or re-arm interval applies from the next fix); a
    /// moved or resized circle starts unknown, keeping only when it last
    /// fired so that the re-arm interval still holds. An explicit `state`
    /// wins over both.
    public mutating func replace(_ geofence: Geofence, state: GeofenceState? = nil) {
        guard let slot = slots[geofence.identifier], let old = fences[Int(slot)] else {
            add(geofence, state: state)
            return
        }
        fences[Int(slot)] = geofence
        if let state {
            states[Int(slot)] = state
        } else if !old.hasSameCircle(as: geofence) {
            states[Int(slot)] = GeofenceState(lastFiredAt: states[Int(slot)].lastFiredAt)
        }
        if !old.hasSameCircle(as: geofence) {
            centres[Int(slot)] = SphericalPoint(geofence.centre)
            index.insert(slot, centre: geofence.centre, radius: geofence.radius)
        }
        updateWatch(slot)
    }

    /// Forgets a geofence (its alarm was removed, or its reminder completed).
    @discardableResult
    public mutating func remove(_ identifier: ItemIdentifier) -> Bool {
        guard let slot = slots.removeValue(forKey: identifier) else { return false }
        fences[Int(slot)] = nil
        states[Int(slot)] = GeofenceState()
        watched.remove(slot)
        index.remove(slot)
        freeSlots.append(slot)
        return true
    }

    /// Rebuilds the index with a cell size for the geofences held now.
    public mutating func reindex() {
        index = GeofenceIndex(cellSize: GeofenceIndex<Int32>.suggestedCellSize(radii: geofences.map(\.radius)))
        for (slot, fence) in fences.enumerated() {
            if let fence { index.insert(Int32(slot), centre: fence.centre, radius: fence.radius) }
        }
        indexedFor = slots.count
    }

    /// Applies one fix taken at `fix.time`, read at `now` (Unix seconds),
    /// and returns the firings in identifier order. A fix out of date, or
    /// older than one already taken, changes nothing.
    public mutating func process(_ fix: Fix, now: Double) -> [Transition] {
        var transitions: [Transition] = []
        process(fix, now: now, into: &transitions)
        return transitions
    }

    /// Applies a burst of fixes in the order given, as one call each would,
    /// so that no crossing between two of them is lost (a walk out and back
    /// within one burst still fires its leave). The saving is in each fix
    /// visiting only the geofences it can change.
    public mutating func process(_ fixes: some Sequence<Fix>, now: Double) -> [Transition] {
        var transitions: [Transition] = []
        for fix in fixes { process(fix, now: now, into: &transitions) }
        return transitions
    }

    private mutating func process(_ fix: Fix, now: Double, into transitions: inout [Transition]) {
        guard !policy.isOutOfDate(fix.time, now: now) else {
            ignored.outOfDate += 1
            return
        }
        if let latestFixTime, fix.time < latestFixTime {
            ignored.outOfOrder += 1
            return
        }
        latestFixTime = fix.time
        let here = SphericalPoint(fix.position)
        let firstNew = transitions.count
        if usesIndex {
            // Those inside or unknown before this fix; visited after the
            // outside ones found near it, so none is visited twice.
            let pending = Array(watched)
            index.forEachCandidate(near: fix.position) { slot in
                guard states[Int(slot)].presence == .outside else { return }
                visit(slot, fix, here, &transitions)
            }
            for slot in pending { visit(slot, fix, here, &transitions) }
        } else {
            for slot in fences.indices where fences[slot] != nil { visit(Int32(slot), fix, here, &transitions) }
        }
        if transitions.count - firstNew > 1 {
            transitions[firstNew...].sort { $0.geofence < $1.geofence }
        }
    }

    private mutating func visit(_ slot: Int32, _ fix: Fix, _ here: SphericalPoint, _ transitions: inout [Transition]) {
        guard let fence = fences[Int(slot)] else { return }
        let before = states[Int(slot)].presence
        if let transition = states[Int(slot)].advance(fence, with: fix, distance: centres[Int(slot)].distance(to: here),
                                                       policy: policy) {
            transitions.append(transition)
        }
        if states[Int(slot)].presence != before { updateWatch(slot) }
    }

    private mutating func updateWatch(_ slot: Int32) {
        if states[Int(slot)].presence == .outside { watched.remove(slot) } else { watched.insert(slot) }
    }
}
