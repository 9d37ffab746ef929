/// A value that does not read as its type says: names the property, the
/// value, the line (0 when unknown) and what is wrong.
public struct ICalendarValueError: Error, Hashable, Sendable, CustomStringConvertible {
    public var property: String = ""
    public var value: String
    public var line: Int = 0
    public var reason: String

    /// The same error, said of `property` on its line.
    public func at(_ property: ICalendarProperty) -> ICalendarValueError {
        ICalendarValueError(property: property.name, value: value, line: property.line, reason: reason)
    }

    public var description: String {
        let place = line > 0 ? "line \(line): " : ""
        let name = property.isEmpty ? "" : "\(property) "
        return "\(place)\(name)'\(value)' \(reason)"
    }
}
