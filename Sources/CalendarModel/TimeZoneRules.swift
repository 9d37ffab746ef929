import Foundation
import Synchronization

/// The UTC offsets of one IANA time zone through history, read from the
/// system's compiled zoneinfo (TZif) files.
///
/// Foundation's `TimeZone` answers the same questions, but each call costs
/// hundreds of nanoseconds; recurrence expansion converts every occurrence, so
/// the rules are kept here as a sorted transition table with the POSIX TZ rule
/// from the file's footer for instants beyond it.
///
/// Converting a wall-clock time follows RFC 5545 §3.3.5: a time inside a gap
/// (spring forward) is read with the offset from before the gap, which moves it
/// forward by the gap's length; a time inside a fold (fall back) is read with
/// the offset from before the fold, the first of its two instants.
public struct TimeZoneRules: Hashable, Sendable, CustomStringConvertible {
    /// One change of UTC offset. Offsets are seconds east of UTC.
    struct Transition: Hashable, Sendable {
        var instant: Int64
        var before: Int32
        var after: Int32
        /// Wall-clock bounds of the gap or fold the change makes.
        var localStart: Int64 { instant + Int64(min(before, after)) }
        var localEnd: Int64 { instant + Int64(max(before, after)) }
    }

    /// A wall-clock time read in this zone.
    public struct Resolution: Hashable, Sendable {
        /// Unix time, in seconds.
        public var instant: Int64
        /// The offset in force at `instant`; differs from the one used to
        /// read the wall time only inside a gap.
        public var offset: Int32
        /// Wall-clock times in `cleanWindow` all read as `local - offset`:
        /// no gap or fold lies inside it, so callers may reuse the offset.
        public var cleanWindow: Range<Int64>
        /// The lowest instant that this or any later wall-clock time reads as:
        /// `instant`, except inside a gap, where the wall time just after the
        /// gap reads as the moment of the change itself.
        public var earliestFromHere: Int64
    }

    public let identifier: String
    let table: [Transition]
    let initialOffset: Int32
    let footer: POSIXTimeZoneRule?

    init(identifier: String, table: [Transition], initialOffset: Int32, footer: POSIXTimeZoneRule?) {
        self.identifier = identifier
        self.table = table
        self.initialOffset = initialOffset
        self.footer = footer
    }

    public var description: String { identifier }

    /// Where the footer rule takes over: after the table's last transition,
    /// or from the beginning when the table is empty (RFC 8536 §3.3).
    private var footerStart: Transition? {
        guard footer != nil else { return nil }
        // Far in the past, yet far enough from Int64.min that offsets can be added.
        return table.last ?? Transition(instant: Int64.min / 2, before: initialOffset, after: initialOffset)
    }

    public static func == (lhs: TimeZoneRules, rhs: TimeZoneRules) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// UTC itself.
    public static let utc = TimeZoneRules(identifier: "UTC", table: [], initialOffset: 0, footer: nil)

    // MARK: Queries

    /// The largest change of offset the zone ever makes, in seconds: an
    /// hour in most zones, a day where a whole one was skipped
    /// (Pacific/Apia, 2011-12-30).
    public var largestOffsetChange: Int32 {
        var largest: Int32 = 0
        for transition in table { largest = max(largest, abs(transition.after - transition.before)) }
        if let footer {
            let last = footerStart?.after ?? initialOffset
            largest = max(largest, abs(footer.standardOffset - last))
            if let daylight = footer.daylightOffset {
                largest = max(largest, abs(daylight - last), abs(daylight - footer.standardOffset))
            }
        }
        return largest
    }

    /// Seconds east of UTC in force at a Unix time.
    public func offset(at instant: Int64) -> Int32 {
        if let footer, let last = footerStart, instant >= last.instant {
            return footer.offset(at: instant, after: last)
        }
        // The last transition at or before `instant`.
        var low = 0, high = table.count
        while low < high {
            let mid = (low + high) / 2
            if table[mid].instant <= instant { low = mid + 1 } else { high = mid }
        }
        return low == 0 ? (table.first?.before ?? initialOffset) : table[low - 1].after
    }

    /// Reads a wall-clock time (seconds since 1970-01-01T00:00 on the wall) as
    /// an instant, by RFC 5545's rules for gaps and folds.
    public func resolve(local: Int64) -> Resolution {
        if let footer, let last = footerStart, local >= last.localEnd {
            let nearby = footer.transitions(aroundLocal: local, after: last)
            return Self.resolve(local: local, in: nearby, initial: last.after, floor: last.localEnd)
        }
        return Self.resolve(local: local, in: table, initial: table.first?.before ?? initialOffset, floor: Int64.min)
    }

    public func resolve(_ time: LocalDateTime) -> Resolution { resolve(local: time.localSeconds) }

    /// Which of a fold's two instants a wall-clock time names, when it
    /// happens twice (fall back); outside a fold both mean the one instant.
    public enum Fold: Hashable, Sendable {
        /// The first reading, with the offset from before the fold: what a
        /// wall time alone means.
        case earlier
        /// The second reading, with the offset from after it: what an
        /// explicit offset or instant (`01:30-05:00` in New York) may name.
        case later
    }

    /// Reads a wall-clock time, taking the later of a fold's two instants
    /// when `fold` says so (a gap is read as by `resolve(_:)`).
    public func resolve(_ time: LocalDateTime, fold: Fold) -> Resolution {
        guard fold == .later else { return resolve(time) }
        let local = time.localSeconds
        if let footer, let last = footerStart, local >= last.localEnd {
            let nearby = footer.transitions(aroundLocal: local, after: last)
            return Self.resolve(local: local, in: nearby, initial: last.after, floor: last.localEnd, later: true)
        }
        return Self.resolve(local: local, in: table, initial: table.first?.before ?? initialOffset, floor: Int64.min, later: true)
    }

    /// The wall-clock reading of an instant, and which of a fold's readings
    /// it is (`.later` only for the second pass through a fold).
    public func reading(at instant: Int64) -> (LocalDateTime, Fold) {
        let local = localTime(at: instant)
        return (local, resolve(local).instant == instant ? .earlier : .later)
    }

    /// The wall-clock time an instant reads in this zone.
    public func localTime(at instant: Int64) -> LocalDateTime {
        LocalDateTime(localSeconds: instant + Int64(offset(at: instant)))
    }

    /// The lowest offset in force within two days either side of `instant`:
    /// a wall-clock time earlier than `instant + lowestOffset` cannot read as
    /// an instant later than `instant`, whatever gap lies between.
    public func lowestOffset(near instant: Int64) -> Int32 {
        // Past the table, a zone without daylight saving has one offset.
        if let footer, footer.daylightOffset == nil, table.last.map({ $0.instant < instant - 172_800 }) ?? true {
            return footer.standardOffset
        }
        var lowest = offset(at: instant)
        for day in [-2, -1, 1, 2] as [Int64] {
            lowest = min(lowest, offset(at: instant + day * 86_400))
        }
        return lowest
    }

    /// The one resolution rule over any ordered list of transitions: the
    /// first transition whose wall-clock end lies after `local` decides, with
    /// the offset from before it.
    static func resolve(local: Int64, in list: [Transition], initial: Int32, floor: Int64, later: Bool = false) -> Resolution {
        var low = 0, high = list.count
        while low < high {
            let mid = (low + high) / 2
            if list[mid].localEnd <= local { low = mid + 1 } else { high = mid }
        }
        let windowStart = low == 0 ? floor : list[low - 1].localEnd
        guard low < list.count else {
            let offset = list.last?.after ?? initial
            return Resolution(instant: local - Int64(offset), offset: offset, cleanWindow: windowStart..<Int64.max,
                              earliestFromHere: local - Int64(offset))
        }
        let next = list[low]
        let instant = local - Int64(next.before)
        if local >= next.localStart {
            // Inside the gap or fold: no clean window to reuse.
            let isGap = next.after > next.before
            if later && !isGap {
                let second = local - Int64(next.after)
                return Resolution(instant: second, offset: next.after, cleanWindow: local..<local, earliestFromHere: second)
            }
            return Resolution(instant: instant, offset: isGap ? next.after : next.before, cleanWindow: local..<local,
                              earliestFromHere: isGap ? next.instant : instant)
        }
        return Resolution(instant: instant, offset: next.before, cleanWindow: windowStart..<next.localStart,
                          earliestFromHere: instant)
    }
}

// MARK: Loading

public enum TimeZoneRulesError: Error, Equatable, CustomStringConvertible {
    case unknownZone(String)
    case malformedFile(zone: String, reason: String)

    public var description: String {
        switch self {
        case .unknownZone(let name): "unknown time zone '\(name)' (expected an IANA name such as Asia/Shanghai)"
        case .malformedFile(let zone, let reason): "the zoneinfo file for '\(zone)' is unreadable: \(reason)"
        }
    }
}

extension TimeZoneRules {
    /// Where Debian's tzdata installs the compiled zones.
    public static let systemDirectory = "/usr/share/zoneinfo"

    /// Zones loaded so far, per zoneinfo folder. Keyed by name alone for
    /// the system folder: this lookup runs for every stored item read.
    private static let cache = Mutex<(system: [String: TimeZoneRules], other: [String: TimeZoneRules])>(([:], [:]))

    /// The rules of an IANA zone, loaded once per process; or of a fixed
    /// POSIX TZ rule when the identifier starts with `POSIX:` (see
    /// `posixPrefix`).
    public static func named(_ identifier: String, directory: String = systemDirectory) throws(TimeZoneRulesError) -> TimeZoneRules {
        let isSystem = directory == systemDirectory
        let key = isSystem ? identifier : directory + "\u{0}" + identifier
        if let cached = cache.withLock({ isSystem ? $0.system[key] : $0.other[key] }) { return cached }
        let rules = identifier.hasPrefix(posixPrefix) ? try posix(identifier) : try load(identifier, directory: directory)
        cache.withLock { if isSystem { $0.system[key] = rules } else { $0.other[key] = rules } }
        return rules
    }

    /// The machine's zone, as Foundation reads it from `TZ` or `/etc/localtime`.
    public static func current() -> TimeZoneRules {
        (try? named(TimeZone.current.identifier)) ?? .utc
    }

    static func load(_ identifier: String, directory: String) throws(TimeZoneRulesError) -> TimeZoneRules {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/_+-")
        guard !identifier.isEmpty, identifier.count <= 255, identifier.allSatisfy(allowed.contains),
              !identifier.hasPrefix("/"), !identifier.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }),
              let data = FileManager.default.contents(atPath: directory + "/" + identifier),
              data.starts(with: Array("TZif".utf8))
        else {
            if identifier == "UTC" { return .utc }
            throw .unknownZone(identifier)
        }
        do {
            return try TZifReader(bytes: [UInt8](data)).rules(identifier: identifier)
        } catch {
            throw .malformedFile(zone: identifier, reason: error.reason)
        }
    }
}

// MARK: Zones that are a POSIX rule, and the changes as public values

extension TimeZoneRules {
    /// What marks an identifier as a POSIX TZ rule (`POSIX:<+0330>-3:30`,
    /// `POSIX:XST5XDT,M3.2.0,M11.1.0`) rather than an IANA name. A colon
    /// never appears in an IANA name (`load` refuses it), and some IANA
    /// names hold digits and signs (`EST5EDT`, `Etc/GMT+8`), so a prefix
    /// is the one unambiguous mark. Calendars whose VTIMEZONE matches no
    /// IANA zone are stored under such identifiers.
    public static let posixPrefix = "POSIX:"

    /// The identifier for a POSIX TZ rule, or nil when `rule` does not read
    /// as one.
    public static func posixIdentifier(_ rule: String) -> String? {
        POSIXTimeZoneRule(rule) == nil ? nil : posixPrefix + rule
    }

    /// The most changes a `POSIX:` identifier lists before its rule takes over.
    public static let maximumPOSIXHistory = 128

    /// The identifier for a POSIX TZ rule that takes over after `history`:
    /// a VTIMEZONE whose offsets changed before its latest yearly rule (a
    /// zone that moved from +12 to +10 once). Written
    /// `POSIX:<+10>-10|36000|43200@1704031200|36000@1715025600`: the rule,
    /// the offset before the first change, then each change's offset after
    /// and its Unix time, all in seconds. Nil when the rule does not read
    /// or the history is longer than `maximumPOSIXHistory`.
    public static func posixIdentifier(_ rule: String, history: [Change], initialOffset: Int32) -> String? {
        guard let plain = posixIdentifier(rule), history.count <= maximumPOSIXHistory else { return nil }
        guard !history.isEmpty else { return plain }
        return ([plain, String(initialOffset)] + history.sorted { $0.instant < $1.instant }.map { "\($0.after)@\($0.instant)" })
            .joined(separator: "|")
    }

    /// The rules of a `POSIX:` identifier, as `named` reads them but not
    /// entered in its cache: for identifiers tried and compared.
    public static func posix(_ identifier: String) throws(TimeZoneRulesError) -> TimeZoneRules {
        let parts = identifier.dropFirst(posixPrefix.count).split(separator: "|", omittingEmptySubsequences: false)
        guard identifier.hasPrefix(posixPrefix), identifier.count <= 255 + 32 * maximumPOSIXHistory,
              parts.count != 2, parts.count <= maximumPOSIXHistory + 2, let rule = POSIXTimeZoneRule(String(parts[0])) else {
            throw .unknownZone(identifier)
        }
        guard parts.count > 2 else { return TimeZoneRules(identifier: identifier, table: [], initialOffset: rule.standardOffset, footer: rule) }
        // Offsets within a day and a bit, instants within 30,000 years: sums stay far from overflowing.
        func offset(_ text: Substring) -> Int32? { Int32(text).flatMap { abs($0) <= 93_600 ? $0 : nil } }
        guard let initial = offset(parts[1]) else { throw .unknownZone(identifier) }
        var table: [Transition] = []
        var current = initial
        for part in parts.dropFirst(2) {
            let pair = part.split(separator: "@", omittingEmptySubsequences: false)
            guard pair.count == 2, let after = offset(pair[0]), let instant = Int64(pair[1]), abs(instant) < Int64(1) << 40,
                  table.last.map({ $0.instant < instant }) ?? true else { throw .unknownZone(identifier) }
            table.append(Transition(instant: instant, before: current, after: after))
            current = after
        }
        return TimeZoneRules(identifier: identifier, table: table, initialOffset: initial, footer: rule)
    }

    /// One change of UTC offset: seconds east of UTC before and after `instant`.
    public struct Change: Hashable, Sendable {
        public var instant: Int64
        public var before: Int32
        public var after: Int32
        public init(instant: Int64, before: Int32, after: Int32) {
            self.instant = instant
            self.before = before
            self.after = after
        }
    }

    /// Rules made of a list of changes (as a VTIMEZONE defines them), with
    /// `initialOffset` before the first. Not entered in `named`'s cache:
    /// such rules are compared, not stored.
    public init(identifier: String, changes: [Change], initialOffset: Int32) {
        let sorted = changes.sorted { $0.instant < $1.instant }
        var table: [Transition] = []
        var current = initialOffset
        for change in sorted where change.after != current {
            table.append(Transition(instant: change.instant, before: current, after: change.after))
            current = change.after
        }
        self.init(identifier: identifier, table: table, initialOffset: initialOffset, footer: nil)
    }

    /// The changes of offset at instants in `range`, from the table and
    /// then the footer rule, in order. At most 2,000 years of footer rule.
    public func changes(in range: ClosedRange<Int64>) -> [Change] {
        var result = table.filter { range.contains($0.instant) }.map { Change(instant: $0.instant, before: $0.before, after: $0.after) }
        if let footer, let last = footerStart, range.upperBound > last.instant {
            let from = max(range.lowerBound, last.instant)
            let firstYear = LocalDateTime(localSeconds: from).date.year - 1
            let lastYear = min(LocalDateTime(localSeconds: range.upperBound).date.year + 1, firstYear + 2000)
            for transition in footer.transitions(years: firstYear...lastYear, after: last) where range.contains(transition.instant) {
                result.append(Change(instant: transition.instant, before: transition.before, after: transition.after))
            }
        }
        return result
    }

    /// The yearly daylight-saving rule the zone follows after its table
    /// ends, when its footer gives one as month, week and weekday.
    public struct AnnualRule: Hashable, Sendable {
        /// Month 1…12; week 1…4, or 5 for the last; weekday 0 = Sunday;
        /// seconds after local midnight, on the clock before the change
        /// (may be negative or past a day, RFC 8536 §3.3.1).
        public var month: Int, week: Int, weekday: Int, time: Int64
    }

    /// The footer rule after the table: the standard and daylight offsets,
    /// when daylight saving begins and ends, and the instant it takes over
    /// from (nil: from the beginning). Nil when there is no footer or its
    /// days are not month-week-weekday.
    public var yearlyRule: (standard: Int32, daylight: Int32?, start: AnnualRule?, end: AnnualRule?, from: Int64?)? {
        guard let footer else { return nil }
        func annual(_ change: POSIXTimeZoneRule.Change?) -> AnnualRule? {
            guard let change, case .monthWeekDay(let month, let week, let weekday) = change.day else { return nil }
            return AnnualRule(month: month, week: week, weekday: weekday, time: change.time)
        }
        let hasDaylight = footer.daylightOffset != nil && footer.daylightOffset != footer.standardOffset
        if hasDaylight && (annual(footer.start) == nil || annual(footer.end) == nil) { return nil }
        return (footer.standardOffset, hasDaylight ? footer.daylightOffset : nil,
                hasDaylight ? annual(footer.start) : nil, hasDaylight ? annual(footer.end) : nil, table.last?.instant)
    }
}
