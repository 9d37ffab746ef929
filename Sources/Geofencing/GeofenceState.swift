/// What one geofence knows between fixes. Every field is a plain value so
/// that the store can keep it in columns (or as JSON through Codable) and a
/// restarted daemon picks up where it stopped without firing again.
public struct GeofenceState: Hashable, Sendable, Codable {
    public enum Presence: String, Hashable, Sendable, Codable, CaseIterable {
        /// No fix has said anything yet (a new geofence, a start with no
        /// saved state, a moved circle).
        case unknown
        case inside
        case outside
    }

    public var presence: Presence
    /// Unix seconds of the last fix this geofence used; an older fix is out
    /// of order and ignored.
    public var lastFixTime: Double?
    /// Unix seconds since which an enter waits for its dwell; nil when no
    /// enter is pending.
    public var dwellStartedAt: Double?
    /// Unix seconds of the fix that last fired, for the re-arm interval.
    public var lastFiredAt: Double?

    public init(presence: Presence = .unknown, lastFixTime: Double? = nil, dwellStartedAt: Double? = nil,
                lastFiredAt: Double? = nil) {
        self.presence = presence
        self.lastFixTime = lastFixTime
        self.dwellStartedAt = dwellStartedAt
        self.lastFiredAt = lastFiredAt
    }

    /// Applies one fix to this geofence and returns its firing, if any.
    /// `now` is the reader's clock, for the staleness check.
    public mutating func advance(_ geofence: Geofence, with fix: Fix, now: Double,
                                 policy: GeofencePolicy = GeofencePolicy()) -> Transition? {
        guard !policy.isOutOfDate(fix.time, now: now) else { return nil }
        return advance(geofence, with: fix, distance: geofence.centre.distance(to: fix.position), policy: policy)
    }

    /// The state machine, with the distance already measured and the fix
    /// already found current.
    mutating func advance(_ geofence: Geofence, with fix: Fix, distance: Double, policy: GeofencePolicy) -> Transition? {
        if let lastFixTime, fix.time < lastFixTime { return nil }
        let radius = geofence.radius
        let outer = radius + policy.margin(radius: radius)
        // A fix within the trusted accuracy is taken at its centre; a worse
        // one only decides where its whole circle of uncertainty agrees.
        let reported = fix.accuracy ?? 0
        let slack = reported <= policy.trustedAccuracy(radius: radius) ? 0 : reported
        let near = distance - slack, far = distance + slack

        let next: Presence
        switch presence {
        case .unknown:
            if far <= radius { next = .inside } else if near > radius { next = .outside } else { return nil }
        case .outside:
            if far <= radius { next = .inside } else if near > radius { next = .outside } else { return nil }
        case .inside:
            if near > outer { next = .outside } else if far <= outer { next = .inside } else { return nil }
        }
        let previous = presence
        presence = next
        lastFixTime = fix.time

        switch (previous, next) {
        case (.unknown, .inside):
            // Already inside when first seen: only an alarm that asks for it
            // counts this as arriving (and then it still dwells).
            dwellStartedAt = geofence.proximity == .enter && geofence.firesOnFirstFix ? fix.time : nil
            return dwellIfDue(geofence, fix)
        case (.unknown, .outside):
            guard geofence.proximity == .leave && geofence.firesOnFirstFix else { return nil }
            return fire(.leave, geofence, fix)
        case (.outside, .inside):
            dwellStartedAt = geofence.proximity == .enter ? fix.time : nil
            return dwellIfDue(geofence, fix)
        case (.inside, .inside):
            return dwellIfDue(geofence, fix)
        case (.inside, .outside):
            dwellStartedAt = nil
            return geofence.proximity == .leave ? fire(.leave, geofence, fix) : nil
        case (.outside, .outside), (_, .unknown):
            return nil
        }
    }

    /// Fires a pending enter once the position has stayed inside for the
    /// dwell: at the first fix at or after the dwell's end.
    private mutating func dwellIfDue(_ geofence: Geofence, _ fix: Fix) -> Transition? {
        guard let since = dwellStartedAt, fix.time - since >= geofence.dwellSeconds else { return nil }
        dwellStartedAt = nil
        return fire(.enter, geofence, fix)
    }

    /// A firing unless one happened within the re-arm interval; a firing
    /// held back that way is dropped, not postponed.
    private mutating func fire(_ kind: Transition.Kind, _ geofence: Geofence, _ fix: Fix) -> Transition? {
        if let lastFiredAt, fix.time - lastFiredAt < geofence.rearmInterval { return nil }
        lastFiredAt = fix.time
        return Transition(geofence: geofence.identifier, kind: kind, time: fix.time, fix: fix)
    }
}
