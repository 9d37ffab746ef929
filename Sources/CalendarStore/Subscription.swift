import CalendarModel

/// A subscribed calendar's feed: where it is, how often to fetch it, what
/// the last good answer's validators were (for a conditional GET), and how
/// the last attempts went. The last good copy of the feed is the
/// calendar's items; the body itself is not kept.
public struct Subscription: Hashable, Sendable {
    public var calendarIdentifier: ItemIdentifier
    public var url: String
    /// Seconds between refreshes.
    public var refreshInterval: Int64
    /// The ETag of the last good answer, for If-None-Match.
    public var entityTag: String?
    /// The Last-Modified header of the last good answer, as it came, for If-Modified-Since.
    public var lastModifiedHeader: String?
    /// Unix seconds of the last attempt, whatever came of it.
    public var lastAttempt: Int64?
    /// Unix seconds of the last attempt that got the feed (or heard it had not changed).
    public var lastSuccess: Int64?
    /// Why the last attempt failed; nil when it succeeded.
    public var lastError: String?
    /// Attempts failed since the last success.
    public var consecutiveFailures: Int

    /// The shortest refresh interval taken: a feed is not a chat.
    public static let minimumRefreshInterval: Int64 = 60
    /// The longest: a year.
    public static let maximumRefreshInterval: Int64 = 366 * 86_400
    /// A failed attempt is tried again this long after it, doubling with
    /// every further failure, but never later than the refresh interval.
    public static let firstRetryDelay: Int64 = 300

    public init(calendarIdentifier: ItemIdentifier, url: String, refreshInterval: Int64 = 86_400, entityTag: String? = nil,
                lastModifiedHeader: String? = nil, lastAttempt: Int64? = nil, lastSuccess: Int64? = nil, lastError: String? = nil,
                consecutiveFailures: Int = 0) {
        self.calendarIdentifier = calendarIdentifier
        self.url = url
        self.refreshInterval = refreshInterval
        self.entityTag = entityTag
        self.lastModifiedHeader = lastModifiedHeader
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.consecutiveFailures = consecutiveFailures
    }

    /// When the next attempt is due (Unix seconds): at once for a feed
    /// never tried; a refresh interval after the last attempt; after a
    /// failure, sooner (five minutes, doubling with each failure in a row,
    /// at most the interval).
    public var nextAttempt: Int64 {
        guard let lastAttempt else { return Int64.min }
        guard consecutiveFailures > 0 else { return lastAttempt &+ refreshInterval }
        let doublings = Int64(min(consecutiveFailures - 1, 20))
        return lastAttempt &+ min(refreshInterval, Self.firstRetryDelay << doublings)
    }

    public func validate() throws(ValidationError) {
        guard !url.isEmpty, !url.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw ValidationError(field: "subscription URL", value: url, reason: "must be a URL without spaces")
        }
        guard (Self.minimumRefreshInterval...Self.maximumRefreshInterval).contains(refreshInterval) else {
            throw ValidationError(field: "refresh interval", value: "\(refreshInterval)s",
                                  reason: "must be from \(Self.minimumRefreshInterval) s to \(Self.maximumRefreshInterval) s (366 days)")
        }
        guard consecutiveFailures >= 0 else {
            throw ValidationError(field: "consecutive failures", value: String(consecutiveFailures), reason: "must not be negative")
        }
    }
}
