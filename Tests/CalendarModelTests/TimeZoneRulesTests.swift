import CalendarModel
import Foundation
import SeededRandom
import Testing

/// Foundation's `TimeZone` (ICU) is an independent implementation of the same
/// IANA data, so it serves as the oracle for offsets and transitions. Here
/// both read tzdata 2025b (`TimeZone.timeZoneDataVersion`) and agree on every
/// instant tested, before 1970 included; should Foundation's bundled data and
/// /usr/share/zoneinfo drift apart, a mismatch confined to a recently changed
/// zone (America/Asuncion changed in 2025a) is a data difference, not a bug.
@Suite("Time zone rules from TZif files")
struct TimeZoneRulesTests {
    /// Zones chosen for awkward offsets (+05:45, +13:45, -03:30), 30-minute
    /// DST (Lord Howe), negative DST (Dublin), 2-hour DST (Troll), transitions
    /// at midnight (Santiago, Havana, Asuncion), day-long jumps across the date
    /// line (Apia, Kiritimati), Ramadan suspensions listed to 2087
    /// (Casablanca), and footers that take over after 2037.
    static let zones = [
        "America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Paris", "Europe/Dublin", "Europe/Lisbon",
        "Europe/Moscow", "Australia/Lord_Howe", "Australia/Sydney", "Australia/Adelaide", "Asia/Shanghai",
        "Asia/Kolkata", "Asia/Kathmandu", "Asia/Tehran", "Asia/Jerusalem", "America/Sao_Paulo", "America/Santiago",
        "America/St_Johns", "America/Havana", "America/Asuncion", "America/Nuuk", "Pacific/Apia", "Pacific/Chatham",
        "Pacific/Kiritimati", "Pacific/Auckland", "Africa/Casablanca", "Africa/Cairo", "Antarctica/Troll", "UTC",
        "Etc/GMT+5",
    ]

    struct Change {
        var instant: Int64
        var before: Int32
        var after: Int32
        /// The wall-clock span the change skips (gap) or repeats (fold).
        var wallClock: Range<Int64> { instant + Int64(min(before, after))..<instant + Int64(max(before, after)) }
    }

    private static func foundationZone(_ name: String) throws -> TimeZone {
        try #require(TimeZone(identifier: name), "Foundation does not know \(name)")
    }

    private static func foundationOffset(_ zone: TimeZone, _ instant: Int64) -> Int32 {
        Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }

    /// Every change of UTC offset Foundation knows between two Unix times.
    private static func foundationChanges(_ zone: TimeZone, from: Int64, to: Int64) -> [Change] {
        var changes: [Change] = []
        var cursor = Date(timeIntervalSince1970: Double(from))
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next > cursor,
              next.timeIntervalSince1970 < Double(to) {
            let instant = Int64(next.timeIntervalSince1970.rounded())
            let before = foundationOffset(zone, instant - 1), after = foundationOffset(zone, instant)
            // ICU also reports changes of abbreviation or DST flag alone.
            if before != after { changes.append(Change(instant: instant, before: before, after: after)) }
            cursor = next
        }
        return changes
    }

    /// A per-zone seed, so each zone gets its own instants but runs repeat.
    private static func seed(_ name: String) -> UInt64 {
        name.utf8.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// Unix seconds and UTC offset of an RFC 3339 timestamp.
    private static func instant(_ text: String) throws -> (instant: Int64, offset: Int32) {
        let date = try #require(ISO8601DateFormatter().date(from: text), "\(text)")
        var offset: Int32 = 0
        if !text.hasSuffix("Z") {
            let zone = text.suffix(6)
            let hours = try #require(Int32(zone.dropFirst().prefix(2))), minutes = try #require(Int32(zone.suffix(2)))
            offset = (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        return (Int64(date.timeIntervalSince1970), offset)
    }

    private static func local(_ text: String) throws -> Int64 {
        try #require(LocalDateTime(parsing: text), "\(text)").localSeconds
    }

    // MARK: Offsets against Foundation

    @Test("offsets match Foundation at random instants from 1900 to 2200", arguments: zones)
    func randomInstants(name: String) throws {
        let rules = try TimeZoneRules.named(name)
        let zone = try Self.foundationZone(name)
        var random = SplitMix64(seed: Self.seed(name))
        var mismatches: [String] = []
        for index in 0..<4_000 {
            // A quarter of the draws land after 2037, where the footer rule answers.
            let range: ClosedRange<Int64> = index % 4 == 0 ? 2_145_916_800...7_258_118_399 : -2_208_988_800...7_258_118_399
            let instant = Int64.random(in: range, using: &random)
            let expected = Self.foundationOffset(zone, instant), actual = rules.offset(at: instant)
            if expected != actual { mismatches.append("\(name) at \(instant): Foundation \(expected), ours \(actual)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    @Test("offsets match Foundation a second before, at and after every change from 1970 to 2100", arguments: zones)
    func everyTransition(name: String) throws {
        let rules = try TimeZoneRules.named(name)
        let zone = try Self.foundationZone(name)
        let changes = Self.foundationChanges(zone, from: 0, to: 4_102_444_800)
        var mismatches: [String] = []
        for change in changes {
            for instant in [change.instant - 1, change.instant, change.instant + 1] {
                let expected = Self.foundationOffset(zone, instant), actual = rules.offset(at: instant)
                if expected != actual { mismatches.append("\(name) at \(instant): Foundation \(expected), ours \(actual)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches of \(changes.count * 3), first: \(mismatches.prefix(5))")
    }

    @Test("zones with daylight saving keep changing after 2037, where the TZif table ends")
    func footerKeepsDaylightSaving() throws {
        for name in ["America/New_York", "Europe/Dublin", "Australia/Lord_Howe", "America/Santiago", "Antarctica/Troll"] {
            let zone = try Self.foundationZone(name)
            let rules = try TimeZoneRules.named(name)
            // 2090-2100: a decade well past the table in every file.
            let changes = Self.foundationChanges(zone, from: 3_786_825_600, to: 4_102_444_800)
            #expect(changes.count == 20, "\(name)")
            for change in changes {
                #expect(rules.offset(at: change.instant - 1) == change.before, "\(name) before \(change.instant)")
                #expect(rules.offset(at: change.instant) == change.after, "\(name) at \(change.instant)")
            }
        }
    }

    @Test("POSIX-style Etc zones have the sign flipped from their names")
    func etcZones() throws {
        #expect(try TimeZoneRules.named("Etc/GMT+5").offset(at: 1_800_000_000) == -18_000)
        #expect(try TimeZoneRules.named("Etc/GMT-14").offset(at: 1_800_000_000) == 50_400)
    }

    @Test("UTC is zero everywhere, whether built in or read from its file")
    func utc() throws {
        var random = SplitMix64(seed: 1)
        let file = try TimeZoneRules.named("UTC")
        for _ in 0..<1_000 {
            let instant = Int64.random(in: -10_000_000_000...10_000_000_000, using: &random)
            #expect(TimeZoneRules.utc.offset(at: instant) == 0)
            #expect(file.offset(at: instant) == 0)
        }
        let resolution = TimeZoneRules.utc.resolve(local: 1_800_000_000)
        #expect(resolution.instant == 1_800_000_000)
        #expect(resolution.offset == 0)
    }

    // MARK: Reading wall-clock times

    @Test("wall-clock times resolve by RFC 5545: gaps move forward by their length, folds take the first instant", arguments: [
        // New York, spring forward at 02:00 and fall back at 02:00.
        ("America/New_York", "2026-03-08T01:59:59", "2026-03-08T01:59:59-05:00"),
        ("America/New_York", "2026-03-08T02:00:00", "2026-03-08T03:00:00-04:00"),
        ("America/New_York", "2026-03-08T02:30:00", "2026-03-08T03:30:00-04:00"),
        ("America/New_York", "2026-03-08T02:59:59", "2026-03-08T03:59:59-04:00"),
        ("America/New_York", "2026-03-08T03:00:00", "2026-03-08T03:00:00-04:00"),
        ("America/New_York", "2026-11-01T00:59:59", "2026-11-01T00:59:59-04:00"),
        ("America/New_York", "2026-11-01T01:00:00", "2026-11-01T01:00:00-04:00"),
        ("America/New_York", "2026-11-01T01:30:00", "2026-11-01T01:30:00-04:00"),
        ("America/New_York", "2026-11-01T01:59:59", "2026-11-01T01:59:59-04:00"),
        ("America/New_York", "2026-11-01T02:00:00", "2026-11-01T02:00:00-05:00"),
        // The same changes in 2040, answered by the footer rule.
        ("America/New_York", "2040-03-11T02:30:00", "2040-03-11T03:30:00-04:00"),
        ("America/New_York", "2040-11-04T01:30:00", "2040-11-04T01:30:00-04:00"),
        // Lord Howe shifts by 30 minutes: 02:00 -> 02:30 in October, 02:00 -> 01:30 in April.
        ("Australia/Lord_Howe", "2026-10-04T01:59:59", "2026-10-04T01:59:59+10:30"),
        ("Australia/Lord_Howe", "2026-10-04T02:00:00", "2026-10-04T02:30:00+11:00"),
        ("Australia/Lord_Howe", "2026-10-04T02:15:00", "2026-10-04T02:45:00+11:00"),
        ("Australia/Lord_Howe", "2026-10-04T02:30:00", "2026-10-04T02:30:00+11:00"),
        ("Australia/Lord_Howe", "2026-04-05T01:29:59", "2026-04-05T01:29:59+11:00"),
        ("Australia/Lord_Howe", "2026-04-05T01:30:00", "2026-04-05T01:30:00+11:00"),
        ("Australia/Lord_Howe", "2026-04-05T01:45:00", "2026-04-05T01:45:00+11:00"),
        ("Australia/Lord_Howe", "2026-04-05T02:00:00", "2026-04-05T02:00:00+10:30"),
        ("Australia/Lord_Howe", "2040-10-07T02:15:00", "2040-10-07T02:45:00+11:00"),
        ("Australia/Lord_Howe", "2040-04-01T01:45:00", "2040-04-01T01:45:00+11:00"),
        // Santiago changes at 24:00 on Saturday.
        ("America/Santiago", "2040-09-02T00:30:00", "2040-09-02T01:30:00-03:00"),
        ("America/Santiago", "2040-04-07T23:30:00", "2040-04-07T23:30:00-03:00"),
        // Dublin's summer time is its standard time; winter is the negative "daylight" offset.
        ("Europe/Dublin", "2026-03-29T01:30:00", "2026-03-29T02:30:00+01:00"),
        ("Europe/Dublin", "2026-10-25T01:30:00", "2026-10-25T01:30:00+01:00"),
        // Troll moves two hours at once.
        ("Antarctica/Troll", "2026-03-29T01:30:00", "2026-03-29T03:30:00+02:00"),
        ("Antarctica/Troll", "2026-10-25T02:30:00", "2026-10-25T02:30:00+02:00"),
        ("Australia/Sydney", "2026-04-05T02:30:00", "2026-04-05T02:30:00+11:00"),
        // Whole days skipped when crossing the date line: a 24-hour gap.
        ("Pacific/Apia", "2011-12-30T12:00:00", "2011-12-31T12:00:00+14:00"),
        ("Pacific/Kiritimati", "1994-12-31T12:00:00", "1995-01-01T12:00:00+14:00"),
        ("Asia/Kolkata", "2026-06-01T12:00:00", "2026-06-01T12:00:00+05:30"),
        ("Asia/Kathmandu", "2026-06-01T12:00:00", "2026-06-01T12:00:00+05:45"),
        ("Pacific/Chatham", "2026-06-01T12:00:00", "2026-06-01T12:00:00+12:45"),
        ("UTC", "2026-06-01T12:00:00", "2026-06-01T12:00:00Z"),
    ])
    func resolveLiterals(name: String, wall: String, expected: String) throws {
        let rules = try TimeZoneRules.named(name)
        let (instant, offset) = try Self.instant(expected)
        let resolution = rules.resolve(local: try Self.local(wall))
        #expect(resolution.instant == instant, "\(name) \(wall): got \(rules.localTime(at: resolution.instant))")
        #expect(resolution.offset == offset)
        #expect(rules.resolve(try #require(LocalDateTime(parsing: wall))) == resolution)
    }

    @Test("an instant reads as the wall-clock time of its offset, twice inside a fold")
    func localTime() throws {
        let rules = try TimeZoneRules.named("America/New_York")
        #expect(rules.localTime(at: try Self.instant("2026-11-01T05:30:00Z").instant).description == "2026-11-01T01:30:00")
        #expect(rules.localTime(at: try Self.instant("2026-11-01T06:30:00Z").instant).description == "2026-11-01T01:30:00")
        #expect(rules.localTime(at: try Self.instant("2026-03-08T07:00:00Z").instant).description == "2026-03-08T03:00:00")
        #expect(rules.localTime(at: try Self.instant("2026-03-08T06:59:59Z").instant).description == "2026-03-08T01:59:59")
    }

    @Test("at every change from 1970 to 2100, gap times move forward by the gap and fold times take the first instant",
          arguments: zones)
    func gapsAndFolds(name: String) throws {
        let rules = try TimeZoneRules.named(name)
        let zone = try Self.foundationZone(name)
        var failures: [String] = []
        for change in Self.foundationChanges(zone, from: 0, to: 4_102_444_800) {
            let span = change.wallClock
            for local in [span.lowerBound, (span.lowerBound + span.upperBound) / 2, span.upperBound - 1] {
                let resolution = rules.resolve(local: local)
                // Both cases read the wall time with the offset from before the change.
                let expected = local - Int64(change.before)
                let isGap = change.after > change.before
                let earliest = isGap ? change.instant : expected
                if resolution.instant != expected || resolution.offset != Self.foundationOffset(zone, expected)
                    || resolution.earliestFromHere != earliest || !resolution.cleanWindow.isEmpty {
                    failures.append("\(name) \(LocalDateTime(localSeconds: local)) (\(isGap ? "gap" : "fold")): \(resolution)")
                }
            }
            // Just outside the span the reading is unambiguous.
            for (local, offset) in [(span.lowerBound - 1, change.before), (span.upperBound, change.after)] {
                let resolution = rules.resolve(local: local)
                if resolution.instant != local - Int64(offset) || resolution.offset != offset {
                    failures.append("\(name) \(LocalDateTime(localSeconds: local)) (beside change): \(resolution)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(3))")
    }

    @Test("a clean window holds its wall time and never reaches into a gap or fold", arguments: zones)
    func cleanWindows(name: String) throws {
        let rules = try TimeZoneRules.named(name)
        let zone = try Self.foundationZone(name)
        // From 1800, so that windows reaching back before 1970 meet every change too.
        let changes = Self.foundationChanges(zone, from: -5_364_662_400, to: 4_133_980_800)
        let spans = changes.map(\.wallClock)
        var random = SplitMix64(seed: Self.seed(name) ^ 0xC1EA)
        var samples = (0..<1_500).map { _ in Int64.random(in: 0...4_102_444_800, using: &random) }
        for change in changes where change.instant >= 0 && change.instant < 4_102_444_800 {
            samples += [change.wallClock.lowerBound - 1, change.wallClock.upperBound, change.wallClock.upperBound + 3_600]
        }
        var failures: [String] = []
        for local in samples {
            let resolution = rules.resolve(local: local)
            let window = resolution.cleanWindow
            let inSpan = spans.contains { $0.contains(local) }
            if !inSpan && !window.contains(local) {
                failures.append("\(LocalDateTime(localSeconds: local)): window \(window) misses it")
            }
            if let span = spans.first(where: { $0.overlaps(window) }) {
                failures.append("\(LocalDateTime(localSeconds: local)): window \(window) overlaps \(span)")
            }
            // The window's promise: its ends read with the same offset.
            for edge in [window.lowerBound, window.upperBound - 1] where !window.isEmpty && edge != Int64.min && edge != Int64.max - 1 {
                let reading = rules.resolve(local: edge)
                if reading.instant != edge - Int64(resolution.offset) || Self.foundationOffset(zone, reading.instant) != resolution.offset {
                    failures.append("\(LocalDateTime(localSeconds: local)): window edge \(edge) reads as \(reading)")
                }
            }
        }
        #expect(failures.isEmpty, "\(name): \(failures.count) failures, first: \(failures.prefix(3))")
    }

    // MARK: Loading

    @Test("names that are not IANA zones are refused as unknown", arguments: [
        "Mars/Olympus", "../etc/passwd", "", "/etc/localtime", "America", "America/New_York/",
        "./UTC", "America/../UTC", "zone.tab", "leapseconds", "tzdata.zi", "America/New York", "America/New_York\u{0}",
        "america/new_york",
        // `split(separator:)` drops empty pieces, so the loader's check for an
        // empty path component never fires and this alias slips through.
        "America//New_York",
    ])
    func unknownZones(name: String) {
        #expect(throws: TimeZoneRulesError.unknownZone(name)) { try TimeZoneRules.named(name) }
    }

    @Test("a zone keeps its name and loads to an equal value each time")
    func identity() throws {
        let first = try TimeZoneRules.named("Asia/Kathmandu")
        #expect(first.identifier == "Asia/Kathmandu")
        #expect(first.description == "Asia/Kathmandu")
        #expect(try TimeZoneRules.named("Asia/Kathmandu") == first)
        #expect(try TimeZoneRules.named("Asia/Kolkata") != first)
    }

    @Test("every instant reads back from its wall clock and fold: the second pass of a fold included, past the table too")
    func foldRoundTrip() throws {
        var secondPasses = 0
        for name in Self.zones {
            let zone = try TimeZoneRules.named(name)
            var random = SplitMix64(seed: Self.seed(name) ^ 0xF01D)
            for _ in 0..<100 {
                // 1900 to 2100: a random instant, and just after the next change of offset within a year, if any.
                let instant = random.int64(-2_208_988_800...4_102_444_800)
                var probes = [instant]
                var step = instant
                while step < instant + 366 * 86_400 && zone.offset(at: step) == zone.offset(at: instant) { step += 86_400 }
                if zone.offset(at: step) != zone.offset(at: instant) {
                    var low = step - 86_400, high = step
                    while high - low > 1 {
                        let mid = (low + high) / 2
                        if zone.offset(at: mid) == zone.offset(at: instant) { low = mid } else { high = mid }
                    }
                    probes += [high - 1, high, high + Int64(random.int(1...7_200))]
                }
                for probe in probes {
                    let (local, fold) = zone.reading(at: probe)
                    if fold == .later { secondPasses += 1 }
                    #expect(zone.resolve(local, fold: fold).instant == probe, "\(name) at \(probe)")
                }
            }
        }
        let newYork = try TimeZoneRules.named("America/New_York")
        let half = LocalDateTime(date: CivilDate(year: 2026, month: 11, day: 1)!, hour: 1, minute: 30)!
        // 2026-11-01T05:30:00Z (1793511000) and 06:30:00Z (1793514600).
        #expect(newYork.resolve(half, fold: .earlier).instant == 1_793_511_000)
        #expect(newYork.resolve(half, fold: .later).instant == 1_793_514_600)
        #expect(newYork.resolve(half, fold: .later).offset == -18_000)
        // Past the table, from the footer: 2040-11-04T05:30:00Z (2235619800) and 06:30:00Z (2235623400).
        let late = LocalDateTime(date: CivilDate(year: 2040, month: 11, day: 4)!, hour: 1, minute: 30)!
        #expect(newYork.resolve(late, fold: .later).instant == 2_235_623_400)
        #expect(newYork.reading(at: 2_235_623_400) == (late, .later))
        #expect(newYork.reading(at: 2_235_619_800) == (late, .earlier))
        // In a gap, or away from any change, the fold changes nothing: 2026-03-08 02:30 reads as 07:30:00Z (1772955000).
        let gap = LocalDateTime(date: CivilDate(year: 2026, month: 3, day: 8)!, hour: 2, minute: 30)!
        #expect(newYork.resolve(gap, fold: .later) == newYork.resolve(gap))
        let morning = LocalDateTime(date: half.date, hour: 9)!
        #expect(newYork.resolve(morning, fold: .later) == newYork.resolve(morning))
        #expect(secondPasses >= 100, "\(secondPasses) instants in a second pass")
    }
}
