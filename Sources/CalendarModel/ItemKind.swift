/// Which of the two kinds of item something is or belongs to: the one type
/// for "event or reminder" from the store to the scheduler and the command
/// line. Its raw value is the text that JSON and the store write.
public enum ItemKind: String, Hashable, Sendable, CaseIterable, Codable {
    case event, reminder
}
