/// What `ICalendarWriter` refuses to write because it would not read back
/// the same: names the component, the property (empty when the component
/// itself) and why.
public struct ICalendarWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var component: String
    public var property: String
    public var reason: String

    public var description: String {
        property.isEmpty ? "\(component): \(reason)" : "\(component) \(property): \(reason)"
    }
}
