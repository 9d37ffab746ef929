import CalendarModel
import Foundation
import SeededRandom
import TestSupport
import Testing

/// Hand-built TZif files (RFC 8536) reach the reader's paths that the
/// system's "fat" zoneinfo files never do: version 1 files, files without
/// transitions, "slim" files whose footer takes over early, rare POSIX day
/// forms, and damaged files.
@Suite("TZif reader on hand-built files")
struct TZifReaderTests {
    /// One local time type: UTC offset, DST flag, index into the designations.
    struct LocalType {
        var offset: Int32
        var isDaylight = false
        var designation: UInt8 = 0
    }

    struct File {
        /// 0 for version 1, else the ASCII digit.
        var version: UInt8 = UInt8(ascii: "2")
        var transitions: [(instant: Int64, type: UInt8)] = []
        var types: [LocalType]
        var designations = "LMT\0STD\0DST\0"
        var footer: String? = nil
        /// Replaces the 32-bit block's data in a version 2+ file, to show
        /// which block the reader trusts.
        var legacyTypes: [LocalType]? = nil
        /// Overrides the transition count in the header of the block the
        /// reader trusts (the last one), to damage the file.
        var claimedTransitionCount: UInt32? = nil

        var bytes: [UInt8] {
            func be<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
                withUnsafeBytes(of: value.bigEndian) { Array($0) }
            }
            func header(_ transitionCount: Int, _ typeCount: Int, trusted: Bool = true) -> [UInt8] {
                let count = trusted ? claimedTransitionCount ?? UInt32(transitionCount) : UInt32(transitionCount)
                return Array("TZif".utf8) + [version] + [UInt8](repeating: 0, count: 15)
                    + be(UInt32(0)) + be(UInt32(0)) + be(UInt32(0)) + be(count) + be(UInt32(typeCount))
                    + be(UInt32(designations.utf8.count))
            }
            func block(_ transitions: [(instant: Int64, type: UInt8)], _ types: [LocalType], wide: Bool) -> [UInt8] {
                var out: [UInt8] = []
                for transition in transitions { out += wide ? be(transition.instant) : be(Int32(transition.instant)) }
                out += transitions.map(\.type)
                for type in types { out += be(type.offset) + [type.isDaylight ? 1 : 0, type.designation] }
                return out + Array(designations.utf8)
            }
            if version == 0 { return header(transitions.count, types.count) + block(transitions, types, wide: false) }
            let legacyTransitions = legacyTypes == nil ? transitions.filter { Int64(Int32.min)...Int64(Int32.max) ~= $0.instant } : []
            let legacy = legacyTypes ?? types
            return header(legacyTransitions.count, legacy.count, trusted: false) + block(legacyTransitions, legacy, wide: false)
                + header(transitions.count, types.count) + block(transitions, types, wide: true)
                + Array("\n\(footer ?? "")\n".utf8)
        }
    }

    /// Writes the file as zone `Test/Zone` in a fresh directory; the loader
    /// caches by directory, so each test gets its own.
    private static func load(_ file: File) throws -> TimeZoneRules {
        try load(bytes: file.bytes)
    }

    private static func load(bytes: [UInt8]) throws -> TimeZoneRules {
        let directory = TemporaryFolder("chime-tzif")
        try FileManager.default.createDirectory(atPath: directory.appending("Test"), withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: directory.appending("Test/Zone")))
        return try TimeZoneRules.named("Test/Zone", directory: directory.path)
    }

    private static func unix(_ rfc3339: String) throws -> Int64 {
        Int64(try #require(ISO8601DateFormatter().date(from: rfc3339), "\(rfc3339)").timeIntervalSince1970)
    }

    private static let eastern = [LocalType(offset: -17_762), LocalType(offset: -18_000, designation: 4),
                                  LocalType(offset: -14_400, isDaylight: true, designation: 8)]

    // MARK: Versions

    @Test("a version 1 file is read from its 32-bit block")
    func versionOne() throws {
        let file = File(version: 0, transitions: [
            (try Self.unix("2026-03-08T07:00:00Z"), 2), (try Self.unix("2026-11-01T06:00:00Z"), 1),
        ], types: Self.eastern)
        let rules = try Self.load(file)
        #expect(rules.offset(at: try Self.unix("2026-03-08T06:59:59Z")) == -17_762)
        #expect(rules.offset(at: try Self.unix("2026-03-08T07:00:00Z")) == -14_400)
        #expect(rules.offset(at: try Self.unix("2026-11-01T06:00:00Z")) == -18_000)
    }

    @Test("a version 2 file is read from its 64-bit block, transitions before 1901 included")
    func versionTwoUsesWideBlock() throws {
        let file = File(transitions: [
            (try Self.unix("1883-11-18T17:00:00Z"), 1), (try Self.unix("2026-03-08T07:00:00Z"), 2),
            (try Self.unix("2026-11-01T06:00:00Z"), 1),
        ], types: Self.eastern, footer: "EST5EDT,M3.2.0,M11.1.0", legacyTypes: [LocalType(offset: 3_600)])
        let rules = try Self.load(file)
        #expect(rules.offset(at: try Self.unix("1880-01-01T00:00:00Z")) == -17_762)
        #expect(rules.offset(at: try Self.unix("1883-11-18T17:00:00Z")) == -18_000)
        #expect(rules.offset(at: try Self.unix("2026-07-01T00:00:00Z")) == -14_400)
        #expect(rules.offset(at: try Self.unix("2026-12-01T00:00:00Z")) == -18_000)
        #expect(rules.offset(at: try Self.unix("2027-07-01T00:00:00Z")) == -14_400)
    }

    // MARK: Footers

    /// RFC 8536 §3.3 and tzfile(5): the footer's TZ string governs instants
    /// after the last transition, or all instants when the file has none.
    @Test("a file without transitions takes every offset from its footer")
    func footerOnly() throws {
        let rules = try Self.load(File(types: [LocalType(offset: -18_000, designation: 4)], footer: "EST5EDT,M3.2.0,M11.1.0"))
        #expect(rules.offset(at: try Self.unix("2026-01-15T12:00:00Z")) == -18_000)
        #expect(rules.offset(at: try Self.unix("2026-07-01T12:00:00Z")) == -14_400)
        let local = try #require(LocalDateTime(parsing: "2026-07-01T12:00:00")).localSeconds
        #expect(rules.resolve(local: local).instant == (try Self.unix("2026-07-01T12:00:00-04:00")))
    }

    @Test("a slim file's footer takes over right after its last transition, matching Foundation to 2100")
    func slimFile() throws {
        // New York as `zic -b slim` would cut it: the table stops at 2007's rule change.
        let file = File(transitions: [
            (try Self.unix("1883-11-18T17:00:00Z"), 1), (try Self.unix("2007-03-11T07:00:00Z"), 2),
            (try Self.unix("2007-11-04T06:00:00Z"), 1),
        ], types: Self.eastern, footer: "EST5EDT,M3.2.0,M11.1.0")
        let rules = try Self.load(file)
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        var random = SplitMix64(seed: 2007)
        var instants = (0..<3_000).map { _ in Int64.random(in: 1_194_156_000...4_102_444_800, using: &random) }
        var cursor = Date(timeIntervalSince1970: 1_194_156_000)
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next.timeIntervalSince1970 < 4_102_444_800 {
            let instant = Int64(next.timeIntervalSince1970)
            instants += [instant - 1, instant]
            cursor = next
        }
        let mismatches = instants.filter { rules.offset(at: $0) != Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0)))) }
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(instants.count), first at \(mismatches.prefix(3))")
        let gap = try #require(LocalDateTime(parsing: "2026-03-08T02:30:00")).localSeconds
        #expect(rules.resolve(local: gap).instant == (try Self.unix("2026-03-08T03:30:00-04:00")))
        let fold = try #require(LocalDateTime(parsing: "2026-11-01T01:30:00")).localSeconds
        #expect(rules.resolve(local: fold).instant == (try Self.unix("2026-11-01T01:30:00-04:00")))
    }

    /// Iran's footer before 2022: day 79 and 263 of the year with February 29
    /// never counted, at 24:00. Expected instants checked with glibc's `TZ`.
    @Test("a Jn footer day never counts February 29")
    func julianDays() throws {
        let file = File(transitions: [(0, 1)], types: [
            LocalType(offset: 12_344), LocalType(offset: 12_600, designation: 4), LocalType(offset: 16_200, isDaylight: true, designation: 8),
        ], footer: "<+0330>-3:30<+0430>,J79/24,J263/24")
        let rules = try Self.load(file)
        for (text, offset) in [
            ("2030-03-20T20:29:59Z", 12_600), ("2030-03-20T20:30:00Z", 16_200), ("2030-09-20T19:29:59Z", 16_200),
            ("2030-09-20T19:30:00Z", 12_600), ("2032-03-20T20:29:59Z", 12_600), ("2032-03-20T20:30:00Z", 16_200),
            ("2032-09-20T19:29:59Z", 16_200), ("2032-09-20T19:30:00Z", 12_600),
        ] as [(String, Int32)] {
            #expect(rules.offset(at: try Self.unix(text)) == offset, "\(text)")
        }
    }

    /// A bare day number counts from 0 and does count February 29, so day 59
    /// is March 1 in 2030 but February 29 in 2032. Checked with glibc's `TZ`.
    @Test("a zero-based footer day counts February 29")
    func zeroBasedDays() throws {
        let file = File(transitions: [(0, 1)], types: [
            LocalType(offset: -10_000), LocalType(offset: -10_800, designation: 4), LocalType(offset: -7_200, isDaylight: true, designation: 8),
        ], footer: "<-03>3<-02>,59,304/3")
        let rules = try Self.load(file)
        for (text, offset) in [
            ("2030-03-01T04:59:59Z", -10_800), ("2030-03-01T05:00:00Z", -7_200), ("2032-02-29T04:59:59Z", -10_800),
            ("2032-02-29T05:00:00Z", -7_200), ("2030-11-01T04:59:59Z", -7_200), ("2030-11-01T05:00:00Z", -10_800),
            ("2032-10-31T04:59:59Z", -7_200), ("2032-10-31T05:00:00Z", -10_800),
        ] as [(String, Int32)] {
            #expect(rules.offset(at: try Self.unix(text)) == offset, "\(text)")
        }
    }

    // MARK: Damaged files

    @Test("damaged TZif files are reported as malformed, naming the zone", arguments: [
        ("truncated header", Array("TZif2".utf8) + [UInt8](repeating: 0, count: 20)),
        ("no local time types", File(types: []).bytes),
        ("a transition names a missing type", File(transitions: [(0, 7)], types: [LocalType(offset: 0)]).bytes),
        ("an unreadable footer", File(transitions: [(0, 1)], types: Self.eastern, footer: "E5?").bytes),
        ("a truncated data block", Array(File(transitions: [(0, 1)], types: Self.eastern).bytes.prefix(70))),
    ])
    func damaged(what: String, bytes: [UInt8]) {
        let error = #expect(throws: TimeZoneRulesError.self, "\(what)") { try Self.load(bytes: bytes) }
        guard case .malformedFile(let zone, _)? = error else {
            Issue.record("\(what): \(String(describing: error)) instead of malformedFile")
            return
        }
        #expect(zone == "Test/Zone")
    }

    @Test("a file that is not TZif at all is an unknown zone")
    func notTZif() {
        #expect(throws: TimeZoneRulesError.unknownZone("Test/Zone")) { try Self.load(bytes: Array("# tzdb data\n".utf8)) }
    }

    /// RFC 8536 counts are unsigned 32-bit; a corrupt count above 2^31 must be
    /// refused like any other damage, not read as negative and crash.
    @Test("a huge transition count is refused without crashing")
    func hugeCount() async {
        await #expect(processExitsWith: .success) {
            for version in [0, UInt8(ascii: "2")] {
                var file = File(version: version, types: [LocalType(offset: 0)])
                file.claimedTransitionCount = 0xFFFF_FFFF
                _ = try? TZifReaderTests.load(file)
            }
        }
    }
}
