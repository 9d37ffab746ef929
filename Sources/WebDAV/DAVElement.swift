/// One element of a property's value as the server sent it: the name, the
/// attributes, the text directly inside (CDATA included) and the elements
/// inside, in order. Whatever the reader has no accessor for stays here.
public struct DAVElement: Equatable, Sendable {
    public var name: DAVName
    /// By local name: CalDAV's attributes (`comp`'s name) have no namespace.
    public var attributes: [String: String]
    public var text: String
    public var children: [DAVElement]

    public init(name: DAVName, attributes: [String: String] = [:], text: String = "", children: [DAVElement] = []) {
        self.name = name
        self.attributes = attributes
        self.text = text
        self.children = children
    }

    /// The first child of that name.
    public func child(_ name: DAVName) -> DAVElement? { children.first { $0.name == name } }

    /// The text with the spaces and line breaks of pretty-printing around it removed.
    public var trimmedText: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return String(text[first...last])
    }
}
