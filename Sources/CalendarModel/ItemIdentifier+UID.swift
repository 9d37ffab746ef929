/// The iCalendar UID of an item that has no key of its own (made in Chime,
/// never imported nor uploaded): its identifier with `@chime`. One rule
/// for the export that writes it, the sync that files resources under it,
/// and the store queries that find an item by it.
extension ItemIdentifier {
    public static let uidSuffix = "@chime"

    public var uid: String { rawValue + Self.uidSuffix }

    /// The identifier a UID of that form names; nil for any other UID.
    public init?(uid: some StringProtocol) {
        guard uid.hasSuffix(Self.uidSuffix) else { return nil }
        self.init(String(uid.dropLast(Self.uidSuffix.count)))
    }
}

extension Event {
    /// The UID the event is exported and synced under: its key, else `identifier.uid`.
    public var uid: String { externalKey ?? identifier.uid }
}

extension Reminder {
    /// The UID the reminder is exported and synced under: its key, else `identifier.uid`.
    public var uid: String { externalKey ?? identifier.uid }
}
