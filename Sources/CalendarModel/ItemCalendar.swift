/// A calendar that holds events and reminders: EventKit's `EKCalendar`.
public struct ItemCalendar: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Kept on this machine.
        case local
        /// Filled from elsewhere (a URL a script syncs from); usually read-only.
        case subscribed(url: String)
    }

    public var identifier: ItemIdentifier
    public var title: String
    /// `#RRGGBB`.
    public var color: String
    public var kind: Kind
    /// False makes every write of an item in this calendar fail.
    public var allowsContentModifications: Bool

    public static let defaultColor = "#3478F6"

    public init(identifier: ItemIdentifier = .random(), title: String, color: String = defaultColor,
                kind: Kind = .local, allowsContentModifications: Bool = true) {
        self.identifier = identifier
        self.title = title
        self.color = color
        self.kind = kind
        self.allowsContentModifications = allowsContentModifications
    }

    public func validate() throws(ValidationError) {
        guard !title.trimmingSpaces.isEmpty else {
            throw ValidationError(field: "calendar title", value: title, reason: "must not be empty")
        }
        let hex = color.utf8.dropFirst()
        guard color.utf8.first == UInt8(ascii: "#"), hex.count == 6,
              hex.allSatisfy({ (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }) else {
            throw ValidationError(field: "color", value: color, reason: "must be #RRGGBB")
        }
    }
}
