/// The thresholds that every geofence shares: hysteresis, how far a fix's
/// accuracy is trusted, and how old a fix may be.
public struct GeofencePolicy: Hashable, Sendable {
    /// The leave margin is the larger of this share of the radius…
    public var marginFraction: Double
    /// …and this many metres, so that small circles get a margin wider than
    /// a phone's usual jitter.
    public var minimumMargin: Double
    /// A fix whose accuracy is within the larger of this many metres…
    public var accuracyLimit: Double
    /// …and this share of the radius is taken at its centre. A less accurate
    /// fix is used only where its whole circle of uncertainty lies on one
    /// side of the line it would cross; otherwise it is ignored for that
    /// geofence. Relative to the radius because 300 m of uncertainty is
    /// useless for a 100 m circle and plenty for a 5 km one.
    public var accuracyLimitFraction: Double
    /// Fixes older than this many seconds before "now" are ignored: a
    /// position from a quarter of an hour ago says little about now, and
    /// firing on it would be late and possibly wrong.
    public var staleAfter: Double
    /// Fixes more than this many seconds after "now" are ignored, so that a
    /// source with a wrong clock cannot shut out every later fix as out of
    /// order.
    public var futureTolerance: Double

    public init(marginFraction: Double = 0.1, minimumMargin: Double = 20, accuracyLimit: Double = 100,
                accuracyLimitFraction: Double = 0.5, staleAfter: Double = 300, futureTolerance: Double = 60) {
        self.marginFraction = marginFraction
        self.minimumMargin = minimumMargin
        self.accuracyLimit = accuracyLimit
        self.accuracyLimitFraction = accuracyLimitFraction
        self.staleAfter = staleAfter
        self.futureTolerance = futureTolerance
    }

    /// How far beyond the radius a position inside must go to count as out.
    public func margin(radius: Double) -> Double { max(marginFraction * radius, minimumMargin) }

    /// The worst accuracy taken at face value for a circle of this radius.
    public func trustedAccuracy(radius: Double) -> Double { max(accuracyLimit, accuracyLimitFraction * radius) }

    /// Whether a fix taken at `time` is too old or too far ahead to use at `now`.
    public func isOutOfDate(_ time: Double, now: Double) -> Bool {
        time < now - staleAfter || time > now + futureTolerance
    }
}
