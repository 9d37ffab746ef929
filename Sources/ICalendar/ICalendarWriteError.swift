/// What `ICalendarWriter` refuses to write because it would not read back
/// the same: names the component, the property (empty when the component
/// itself) and why.
public struct ICalendarWriteError: Error, Hashable, Sendable, CustomStringConvertible {
    public var component: String
    public var property: String
    public var reason: String

    public init(component: String, property: String, reason: String) {
        self.component = component
        self.property = property
        self.reason = reason
    }

    public var description: String {
        property.isEmpty ? "\(component): \(reason)" : "\(component) \(property): \(reason)"
    }
}
