import CalendarModel
import SQLiteDatabase

/// Why the store refused or failed an operation. Every case names the
/// value at fault, so the command line can print it as it is.
public enum StoreError: Error, CustomStringConvertible {
    case invalid(ValidationError)
    case notFound(kind: String, identifier: String)
    case ambiguous(prefix: String, matches: Int)
    case readOnlyCalendar(title: String)
    case duplicateCalendar(title: String)
    case duplicateExternalKey(key: String, calendar: String)
    case calendarNotEmpty(title: String, items: Int)
    case lastCalendar(title: String)
    case notAnOccurrence(identifier: String, start: String)
    case database(DatabaseError)
    case unusable(path: String, reason: String)
    /// A row the store cannot read back: written by something else, or damaged.
    case damaged(item: String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let error): "invalid \(error)"
        case .notFound(let kind, let identifier): "no \(kind) '\(identifier)'"
        case .ambiguous(let prefix, let matches): "'\(prefix)' matches \(matches) items; give more of the identifier"
        case .readOnlyCalendar(let title): "calendar '\(title)' is read-only"
        case .duplicateCalendar(let title): "a calendar named '\(title)' already exists"
        case .duplicateExternalKey(let key, let calendar): "external key '\(key)' is already used in calendar '\(calendar)'"
        case .calendarNotEmpty(let title, let items): "calendar '\(title)' holds \(items) items; confirm to remove them with it"
        case .lastCalendar(let title): "calendar '\(title)' is the last one; a store keeps at least one"
        case .notAnOccurrence(let identifier, let start): "event '\(identifier)' has no occurrence starting \(start)"
        case .database(let error): "store: \(error)"
        case .damaged(let item, let reason): "the store's item '\(item)' is damaged: \(reason)"
        case .unusable(let path, let reason): path.isEmpty ? "cannot use the store: \(reason)" : "cannot use the store at \(path): \(reason)"
        }
    }
}

extension StoreError {
    /// Runs store code, turning validation and database errors into StoreError.
    package static func wrap<T>(_ body: () throws -> T) throws(StoreError) -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch let error as ValidationError {
            throw .invalid(error)
        } catch let error as DatabaseError {
            throw .database(error)
        } catch {
            throw .unusable(path: "", reason: "\(error)")
        }
    }
}

extension ItemIdentifier {
    /// An identifier read back from a row: a text that is not one is damage
    /// to report with the row it is in, never a reason to make one up.
    package static func stored(_ text: String?, row: @autoclosure () -> String, column: String) throws(StoreError) -> ItemIdentifier {
        guard let text, let identifier = ItemIdentifier(text) else {
            throw .damaged(item: row(), reason: "its \(column) '\(text ?? "NULL")' is not an identifier")
        }
        return identifier
    }
}
