import CalendarModel
import Foundation
import Synchronization

/// Resolves a calendar's TZIDs as real files write them, in this order:
/// an IANA name the machine has (also behind Lightning's
/// `/mozilla.org/20050126_1/` prefixes); a Windows zone name through CLDR's
/// table; Outlook's display form (`(UTC+08:00) Beijing, …`) through the
/// display names Windows ships; the IANA zone whose offsets agree with the
/// file's VTIMEZONE at every change over the years of interest; and last a
/// POSIX rule (`POSIX:<+0330>-3:30`, see `TimeZoneRules.posixPrefix`) built
/// from the VTIMEZONE's latest yearly rules. Answers are cached per TZID.
public struct ICalendarZones: ICalendarZoneResolving {
    /// The VTIMEZONEs of the calendar, by TZID.
    let definitions: [String: ICalendarComponent]
    let years: ClosedRange<Int>?
    let itemYears: @Sendable () -> ClosedRange<Int>?
    let wrTimezone: String?
    private let cache = Cache()

    /// Reads the VTIMEZONEs and X-WR-TIMEZONE of a VCALENDAR. `years`,
    /// when given, is the span of the calendar's items, over which a
    /// VTIMEZONE must agree with an IANA zone; else `itemYears` gives it,
    /// asked only when a TZID comes to be matched by its VTIMEZONE (a
    /// caller may have to read the file again to know it: see
    /// `ICalendarItems.YearSpan`); failing both, from the
    /// VTIMEZONE's own DTSTARTs (not before 1970) through the current year
    /// and five more. Outlook writes 1601 for "always", and a VTIMEZONE
    /// that claims today's European or American rules since then agrees
    /// with no IANA zone before 1996 or 2007: only the items' years tell
    /// that it means Europe/Berlin or America/New_York.
    public init(calendar: ICalendarComponent, years: ClosedRange<Int>? = nil,
                itemYears: @escaping @Sendable () -> ClosedRange<Int>? = { nil }) {
        var definitions: [String: ICalendarComponent] = [:]
        for zone in calendar.components(named: "VTIMEZONE") {
            if let tzid = zone["TZID"]?.value, definitions[tzid] == nil { definitions[tzid] = zone }
        }
        self.definitions = definitions
        self.years = years
        self.itemYears = itemYears
        wrTimezone = calendar["X-WR-TIMEZONE"].map { ICalendarText.unescape($0.value) }
    }

    public var floatingZone: String? {
        guard let wrTimezone, !wrTimezone.isEmpty else { return nil }
        return try? zone(forTZID: wrTimezone)
    }

    public func zone(forTZID tzid: String) throws(ICalendarValueError) -> String {
        if let known = cache.answers.withLock({ $0[tzid] }) { return try known.get() }
        let answer: Result<String, ICalendarValueError>
        do { answer = .success(try resolve(tzid)) } catch { answer = .failure(error) }
        cache.answers.withLock { $0[tzid] = answer }
        return try answer.get()
    }

    final class Cache: Sendable {
        let answers = Mutex<[String: Result<String, ICalendarValueError>]>([:])
    }

    private func resolve(_ tzid: String) throws(ICalendarValueError) -> String {
        let definition = definitions[tzid]
        let line = definition?.line ?? 0
        // a. An IANA name, perhaps behind a vendor prefix.
        if let name = Self.ianaName(in: tzid) { return name }
        // b. A Windows zone ID.
        let trimmed = tzid.trimmingCharacters(in: .whitespaces)
        if let name = WindowsZones.mainZone[trimmed] ?? Self.windowsByCase[trimmed.lowercased()],
           (try? TimeZoneRules.named(name)) != nil {
            if let definition {
                let range = span(definition)
                if let rules = try? Self.rules(of: definition, years: range), !Self.agrees(name, with: rules, years: range),
                   let better = Self.matching(rules, years: range, preferring: WindowsZones.zones.first { $0.windows == trimmed }?.iana ?? []) {
                    return better
                }
            }
            return name
        }
        // c. Outlook's display form: the places name the Windows zone.
        let displayed = Self.windowsZone(forDisplay: trimmed)
        var preferred = displayed.flatMap { id in WindowsZones.zones.first { $0.windows == id }?.iana } ?? []
        preferred += Self.zonesNamed(in: trimmed)
        guard let definition else {
            if let first = preferred.first, displayed != nil { return first }
            throw ICalendarValueError(property: "TZID", value: tzid, line: line,
                                      reason: "is neither an IANA zone, a Windows zone, nor defined by a VTIMEZONE in the file")
        }
        // d. The IANA zone the VTIMEZONE agrees with.
        let range = span(definition)
        let rules: TimeZoneRules
        do { rules = try Self.rules(of: definition, years: range) } catch { throw error }
        if let name = Self.matching(rules, years: range, preferring: preferred) { return name }
        // e. The VTIMEZONE's own latest rule, after the changes it made before that rule.
        guard let posix = Self.posixRule(of: definition), let identifier = Self.posixIdentifier(posix, following: rules, years: range) else {
            throw ICalendarValueError(property: "TZID", value: tzid, line: line,
                                      reason: "has a VTIMEZONE whose rules match no IANA zone and give no yearly rule")
        }
        return identifier
    }

    /// The `POSIX:` identifier of `rule` with as few of `rules`' earlier
    /// changes before it as make the two agree over the years: none for a
    /// VTIMEZONE that always followed its latest rule. When even the longest
    /// history Chime keeps does not agree, the rule alone.
    static func posixIdentifier(_ rule: String, following rules: TimeZoneRules, years: ClosedRange<Int>) -> String? {
        guard let plain = TimeZoneRules.posixIdentifier(rule) else { return nil }
        let range = instants(years)
        let changes = rules.changes(in: range)
        let initial = rules.offset(at: range.lowerBound)
        for count in 0...min(changes.count, TimeZoneRules.maximumPOSIXHistory) {
            guard let identifier = TimeZoneRules.posixIdentifier(rule, history: Array(changes.prefix(count)), initialOffset: initial),
                  let candidate = try? TimeZoneRules.posix(identifier) else { return plain }
            if agrees(candidate, with: rules, years: years) { return identifier }
        }
        return plain
    }

    private func span(_ definition: ICalendarComponent) -> ClosedRange<Int> {
        if let years = years ?? itemYears() { return years }
        let now = LocalDateTime(localSeconds: Int64(Date().timeIntervalSince1970)).date.year
        var first = now
        for observance in definition.components where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            if let start = observance["DTSTART"], let value = try? ICalendarDateTime(start) {
                first = min(first, value.wallClock.date.year)
            }
        }
        return max(first, 1970)...(now + 5)
    }

    static let windowsByCase: [String: String] = Dictionary(
        WindowsZones.mainZone.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })

    // MARK: a. IANA names

    /// Names that are zoneinfo files but not zones a calendar can mean.
    static let notZones: Set<String> = ["localtime", "posixrules", "Factory"]

    /// The longest tail of `tzid`'s slash-separated parts that is a zone the
    /// machine has: `/mozilla.org/20050126_1/Europe/Berlin` → Europe/Berlin.
    static func ianaName(in tzid: String) -> String? {
        let parts = tzid.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.isEmpty, parts.count <= 12 else { return nil }
        for start in parts.indices {
            let name = parts[start...].joined(separator: "/")
            if notZones.contains(name) || name.hasPrefix("posix/") || name.hasPrefix("right/") { continue }
            if let rules = try? TimeZoneRules.named(name) { return rules.identifier }
        }
        return nil
    }

    // MARK: c. Display names

    /// The places of a display name, normalised: `(GMT+01.00) Amsterdam /
    /// Berlin` → offset +3600 and ["amsterdam", "berlin"].
    static func display(_ text: String) -> (offset: Int32?, places: Set<String>)? {
        let scalars = Array(text.unicodeScalars)
        guard scalars.first == "(", let close = scalars.firstIndex(of: ")"), close < 20 else { return nil }
        let head = String(String.UnicodeScalarView(scalars[1..<close])).uppercased()
        guard head.hasPrefix("UTC") || head.hasPrefix("GMT") else { return nil }
        var offset: Int32?
        let sign = head.dropFirst(3)
        if !sign.isEmpty {
            let digits = sign.dropFirst().filter(\.isNumber)
            guard let first = sign.first, first == "+" || first == "-", digits.count == 4,
                  let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)) else { return nil }
            offset = Int32((hours * 3600 + minutes * 60) * (first == "-" ? -1 : 1))
        } else {
            offset = 0
        }
        let rest = String(String.UnicodeScalarView(scalars[(close + 1)...])).lowercased()
        let places = rest.split(whereSeparator: { ",/;:".contains($0) })
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
        return (offset, Set(places))
    }

    static let displayTable: [(offset: Int32?, places: Set<String>, windows: String)] =
        WindowsZones.displayNames.sorted { $0.key < $1.key }.compactMap { name, windows in
            display(name).map { ($0.offset, $0.places, windows) }
        }

    /// The Windows zone whose display name shares the most places with
    /// `text` at the same offset; nil when none shares one.
    static func windowsZone(forDisplay text: String) -> String? {
        guard let (offset, places) = display(text), !places.isEmpty else { return nil }
        var best: (count: Int, windows: String)?
        for entry in displayTable where entry.offset == offset {
            let shared = entry.places.intersection(places).count
            if shared > 0, shared > best?.count ?? 0 { best = (shared, entry.windows) }
        }
        return best?.windows
    }

    /// Zones of the Windows table whose city the TZID's text names
    /// ("Berlin time" → Europe/Berlin).
    static func zonesNamed(in text: String) -> [String] {
        let lower = text.lowercased()
        var result: [String] = []
        for entry in WindowsZones.zones {
            for name in entry.iana {
                guard let city = name.split(separator: "/").last?.replacingOccurrences(of: "_", with: " ").lowercased(),
                      city.count >= 4, lower.contains(city), !result.contains(name) else { continue }
                result.append(name)
            }
        }
        return result
    }

    // MARK: d. Matching a VTIMEZONE to an IANA zone

    /// Every zone worth trying, best first: the Windows table's zones, the
    /// Windows IDs covering most places first (so a plain CET definition
    /// gives Europe/Berlin), then zone1970.tab's.
    static let candidates: [String] = {
        var seen: Set<String> = []
        var list: [String] = []
        for entry in WindowsZones.zones.enumerated().sorted(by: {
            $0.element.iana.count != $1.element.iana.count ? $0.element.iana.count > $1.element.iana.count : $0.offset < $1.offset
        }) {
            for name in entry.element.iana where !name.hasPrefix("Etc/") && seen.insert(name).inserted { list.append(name) }
        }
        if let text = try? String(contentsOfFile: TimeZoneRules.systemDirectory + "/zone1970.tab", encoding: .utf8) {
            for line in text.split(separator: "\n").prefix(2000) where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t")
                if fields.count >= 3, seen.insert(String(fields[2])).inserted { list.append(String(fields[2])) }
            }
        }
        return list
    }()

    static func matching(_ rules: TimeZoneRules, years: ClosedRange<Int>, preferring preferred: [String]) -> String? {
        for name in preferred + candidates where agrees(name, with: rules, years: years) { return name }
        return nil
    }

    /// Whether the zone's offsets equal `rules`' just before and at every
    /// change either makes in the years, and at their start.
    static func agrees(_ name: String, with rules: TimeZoneRules, years: ClosedRange<Int>) -> Bool {
        guard let zone = try? TimeZoneRules.named(name) else { return false }
        return agrees(zone, with: rules, years: years)
    }

    static func agrees(_ zone: TimeZoneRules, with rules: TimeZoneRules, years: ClosedRange<Int>) -> Bool {
        let range = instants(years)
        var samples: [Int64] = [range.lowerBound]
        for change in zone.changes(in: range) + rules.changes(in: range) {
            samples += [change.instant - 1, change.instant]
        }
        return samples.allSatisfy { zone.offset(at: $0) == rules.offset(at: $0) }
    }

    static func instants(_ years: ClosedRange<Int>) -> ClosedRange<Int64> {
        let start = Int64(CivilDate.dayNumber(year: years.lowerBound, month: 1, day: 1)) * 86_400 - 86_400
        let end = Int64(CivilDate.dayNumber(year: years.upperBound + 1, month: 1, day: 1)) * 86_400 + 86_400
        return start...end
    }
}
