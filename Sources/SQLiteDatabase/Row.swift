/// The values of one result row, by position (from 0) and by column name.
///
///     let title: String = try row.value("title")
///     let note: String? = try row.value("note")      // NULL reads as nil
///     let raw: DatabaseValue = row[0]
public struct Row: Sendable, Equatable, CustomStringConvertible {
    /// The values, in column order.
    public let values: [DatabaseValue]
    let columns: RowColumns

    init(values: [DatabaseValue], columns: RowColumns) {
        self.values = values
        self.columns = columns
    }

    /// The column names, in order, as SQLite reports them (`AS` aliases win).
    public var columnNames: [String] { columns.names }

    public var count: Int { values.count }

    /// The value at `index`, counted from 0. Traps when out of range, like an array.
    public subscript(index: Int) -> DatabaseValue {
        values[index]
    }

    /// The value of the first column named `column` (exact match first, then
    /// ignoring ASCII case, as SQL does), or nil when there is no such column.
    public subscript(column: String) -> DatabaseValue? {
        columns.index(of: column).map { values[$0] }
    }

    /// The value at `index` (from 0) as `T`. Throws a `DatabaseError` with code
    /// `.range` for an index out of range and `.mismatch` for a value that is not
    /// a `T` (NULL is only an `Optional`).
    public func value<T: DatabaseValueConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard values.indices.contains(index) else {
            throw DatabaseError(extendedResultCode: .range,
                                message: "column index \(index) out of range: the row has \(values.count) columns",
                                sql: columns.sql)
        }
        return try convert(values[index], column: columns.names[index], to: type)
    }

    /// The value of the column named `column` as `T`; see `value(_:as:)` by index.
    public func value<T: DatabaseValueConvertible>(_ column: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.index(of: column) else {
            throw DatabaseError(extendedResultCode: .range,
                                message: "no column named \(column) in the row (columns: \(columns.names.joined(separator: ", ")))",
                                sql: columns.sql)
        }
        return try convert(values[index], column: column, to: type)
    }

    private func convert<T: DatabaseValueConvertible>(_ value: DatabaseValue, column: String, to type: T.Type) throws -> T {
        guard let converted = T(databaseValue: value) else {
            let shown: String
            switch value {
            case .null: shown = "NULL"
            case .integer, .real: shown = value.description
            case .text(let text): shown = "text of \(text.utf8.count) bytes"
            case .blob(let bytes): shown = "a blob of \(bytes.count) bytes"
            }
            throw DatabaseError(extendedResultCode: .mismatch,
                                message: "column \(column) holds \(shown), which is not a \(T.self)",
                                sql: columns.sql)
        }
        return converted
    }

    public static func == (lhs: Row, rhs: Row) -> Bool {
        lhs.values == rhs.values && lhs.columns.names == rhs.columns.names
    }

    /// `[id: 1, title: 'Stand-up']`
    public var description: String {
        "[" + zip(columns.names, values).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
    }
}

/// The column names of one statement's result, shared by all its rows, with a
/// name index built once.
final class RowColumns: Sendable {
    let names: [String]
    let sql: String
    private let exact: [String: Int]
    private let folded: [String: Int]

    init(names: [String], sql: String) {
        self.names = names
        self.sql = sql
        var exact: [String: Int] = [:]
        var folded: [String: Int] = [:]
        // The leftmost column of a repeated name wins.
        for (index, name) in names.enumerated().reversed() {
            exact[name] = index
            folded[Self.fold(name)] = index
        }
        self.exact = exact
        self.folded = folded
    }

    func index(of name: String) -> Int? {
        exact[name] ?? folded[Self.fold(name)]
    }

    /// ASCII case folding, which is what SQLite does for identifiers.
    private static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
