import Foundation

/// A Swift type that can be bound to a statement and read back from a row.
///
/// Reading is strict where a silent change would hide a bug: text is not read
/// as a number, a REAL with a fraction is not read as an integer, an integer out
/// of the type's range is not truncated; `init(databaseValue:)` returns nil and
/// `Row` turns that into a `DatabaseError` with code `.mismatch`. NULL is read
/// only by `Optional` (as nil) and `DatabaseValue`.
public protocol DatabaseValueConvertible: Sendable {
    /// The value to store.
    var databaseValue: DatabaseValue { get }
    /// The Swift value for a stored one, or nil when it cannot be converted.
    init?(databaseValue: DatabaseValue)
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }

    public init?(databaseValue: DatabaseValue) {
        self = databaseValue
    }
}

extension Int64: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .integer(self) }

    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self = value
        // A REAL column stores 3 as 3.0: accept a whole number in range.
        case .real(let value): guard let exact = Int64(exactly: value) else { return nil }; self = exact
        default: return nil
        }
    }
}

/// Int and Int32 (and any narrower signed integer) are stored as SQLite's
/// 64-bit integer and read back when the value fits.
extension DatabaseValueConvertible where Self: FixedWidthInteger & SignedInteger {
    public var databaseValue: DatabaseValue { .integer(Int64(self)) }

    public init?(databaseValue: DatabaseValue) {
        guard let value = Int64(databaseValue: databaseValue), let exact = Self(exactly: value) else { return nil }
        self = exact
    }
}

extension Int: DatabaseValueConvertible {}

extension Int32: DatabaseValueConvertible {}

extension Double: DatabaseValueConvertible {
    /// Note that SQLite stores NaN as NULL.
    public var databaseValue: DatabaseValue { .real(self) }

    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension Bool: DatabaseValueConvertible {
    /// Stored as the integer 0 or 1; any non-zero number reads as true.
    public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }

    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .integer(let value): self = value != 0
        case .real(let value): self = value != 0
        default: return nil
        }
    }
}

extension String: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .text(self) }

    public init?(databaseValue: DatabaseValue) {
        guard case .text(let value) = databaseValue else { return nil }
        self = value
    }
}

extension Array: DatabaseValueConvertible where Element == UInt8 {
    public var databaseValue: DatabaseValue { .blob(self) }

    /// A blob, or the UTF-8 bytes of a text.
    public init?(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .blob(let bytes): self = bytes
        case .text(let text): self = Array(text.utf8)
        default: return nil
        }
    }
}

extension Data: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .blob([UInt8](self)) }

    /// A blob, or the UTF-8 bytes of a text.
    public init?(databaseValue: DatabaseValue) {
        guard let bytes = [UInt8](databaseValue: databaseValue) else { return nil }
        self = Data(bytes)
    }
}

extension Date: DatabaseValueConvertible {
    /// Stored as seconds since 1970-01-01T00:00:00Z, a REAL. The conversion
    /// through Foundation's 2001 reference date keeps about a microsecond.
    public var databaseValue: DatabaseValue { .real(timeIntervalSince1970) }

    public init?(databaseValue: DatabaseValue) {
        guard let seconds = Double(databaseValue: databaseValue) else { return nil }
        self = Date(timeIntervalSince1970: seconds)
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    /// nil is NULL.
    public var databaseValue: DatabaseValue {
        switch self {
        case .none: return .null
        case .some(let value): return value.databaseValue
        }
    }

    /// NULL reads as nil; anything else as `Wrapped` would read it.
    public init?(databaseValue: DatabaseValue) {
        if case .null = databaseValue {
            self = .none
            return
        }
        guard let value = Wrapped(databaseValue: databaseValue) else { return nil }
        self = .some(value)
    }
}
