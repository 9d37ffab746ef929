/// What an item read from an iCalendar file or server brought with it
/// besides what Chime models: its revision (to tell which copy is newer when
/// the same UID comes again) and every property, parameter and component
/// Chime has no field for (ATTENDEE, ORGANIZER, X-…, a VALARM's UID, …),
/// kept to be written back as they came. The UID itself is the item's
/// `externalKey`.
///
/// Only items that came from outside carry one; an item made in Chime has
/// none until it is first exported or synced.
public struct ICalendarOrigin: Hashable, Sendable {
    /// SEQUENCE (RFC 5545 §3.8.7.4): the organizer's revision count.
    public var sequence: Int
    /// LAST-MODIFIED (else DTSTAMP), Unix seconds.
    public var lastModified: Int64?
    /// The unmodelled content lines and components, as iCalendar text:
    /// unfolded lines, each ending in CR LF, in the order they came.
    public var unmodelled: String

    public init(sequence: Int = 0, lastModified: Int64? = nil, unmodelled: String = "") {
        self.sequence = sequence
        self.lastModified = lastModified
        self.unmodelled = unmodelled
    }

    /// Whether the kept lines hold a property `name` (in upper case, as
    /// they are written) of the item itself: one before the first kept
    /// component, whose name is exactly that (`ATTENDEE;CN=…:` but not
    /// `X-ATTENDEE:` or `ATTENDEES:`). A kept component's own properties
    /// (an occurrence kept whole, an X- component) are not the item's.
    public func keepsProperty(named name: String) -> Bool {
        var lines = unmodelled.utf8[...]
        while let first = lines.first {
            let end = lines.firstIndex(of: UInt8(ascii: "\n")) ?? lines.endIndex
            let line = lines[..<end]
            // Components follow the item's own properties.
            if first == UInt8(ascii: "B"), line.starts(with: "BEGIN:".utf8) { return false }
            if line.starts(with: name.utf8) {
                let after = line.dropFirst(name.utf8.count).first
                if after == UInt8(ascii: ";") || after == UInt8(ascii: ":") { return true }
            }
            lines = lines[end...].dropFirst()
        }
        return false
    }

    /// Whether revision `a` is later than `b` (`.later`),
    /// earlier, or neither says (`.same`): the higher SEQUENCE (RFC
    /// 5545 §3.8.7.4), then with equal ones the later LAST-MODIFIED when
    /// both have one.
    public static func compareRevisions(_ a: (sequence: Int, lastModified: Int64?),
                                        _ b: (sequence: Int, lastModified: Int64?)) -> ComparisonOutcome {
        if a.sequence != b.sequence { return a.sequence > b.sequence ? .later : .earlier }
        if let first = a.lastModified, let second = b.lastModified, first != second { return first > second ? .later : .earlier }
        return .same
    }

    /// How one revision compares with another.
    public enum ComparisonOutcome: Sendable { case later, earlier, same }
}
