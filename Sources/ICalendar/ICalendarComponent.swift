/// One iCalendar component (RFC 5545 §3.6): `VCALENDAR`, `VEVENT`, `VTODO`,
/// `VALARM`, `VTIMEZONE`, `STANDARD`, `DAYLIGHT`, or any other (kept as read).
///
/// Names are upper case. Order is kept, properties and components alike, so
/// that what Chime does not model is written back as it came.
public struct ICalendarComponent: Hashable, Sendable {
    public var name: String
    public var properties: [ICalendarProperty]
    public var components: [ICalendarComponent]
    /// The physical line of its `BEGIN:`, counted from 1; 0 when built in code.
    /// Not part of equality: the same component read from two files is equal.
    public var line: Int {
        get { position.line }
        set { position.line = newValue }
    }
    private var position: SourcePosition

    public init(name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [], line: Int = 0) {
        self.init(upperCaseName: name.uppercased(), properties: properties, components: components, line: line)
    }

    /// For the reader, whose names are upper case already: `uppercased()` is a cost per component it need not pay.
    init(upperCaseName name: String, properties: [ICalendarProperty] = [], components: [ICalendarComponent] = [], line: Int = 0) {
        self.name = name
        self.properties = properties
        self.components = components
        position = SourcePosition(line: line)
    }

    /// The first property of that name (upper case), if any.
    public subscript(name: String) -> ICalendarProperty? {
        properties.first { Self.same($0.name, name) }
    }

    /// Every property of that name (upper case), in order.
    public func properties(named name: String) -> [ICalendarProperty] {
        properties.filter { Self.same($0.name, name) }
    }

    /// The sub-components of that name (upper case), in order.
    public func components(named name: String) -> [ICalendarComponent] {
        components.filter { Self.same($0.name, name) }
    }

    /// Whether two names are the same, their lengths (which a String
    /// holds) compared first: a mapping looks a score of names up in each
    /// component, and most names it passes differ in length, which `==`
    /// finds out only on its slow path.
    @inline(__always)
    static func same(_ one: String, _ other: String) -> Bool {
        one.utf8.count == other.utf8.count && one == other
    }

}

/// One content line (RFC 5545 §3.1) after unfolding: `NAME;PARAM=V:value`.
///
/// `value` is the text after the colon exactly as the file has it (TEXT
/// values still escaped, §3.3.11); `ICalendarText.unescape` reads it.
public struct ICalendarProperty: Hashable, Sendable {
    public var name: String
    public var parameters: [ICalendarParameter]
    public var value: String
    /// The physical line it starts on, counted from 1; 0 when built in code.
    /// Not part of equality.
    public var line: Int {
        get { position.line }
        set { position.line = newValue }
    }
    private var position: SourcePosition

    public init(name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0) {
        self.init(upperCaseName: name.uppercased(), parameters: parameters, value: value, line: line)
    }

    /// For the reader, whose names are upper case already: `uppercased()` is a cost per line it need not pay.
    init(upperCaseName name: String, parameters: [ICalendarParameter] = [], value: String, line: Int = 0) {
        self.name = name
        self.parameters = parameters
        self.value = value
        position = SourcePosition(line: line)
    }

    /// The first value of the parameter of that name (upper case), if any.
    public subscript(parameter name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

}

/// A property parameter (RFC 5545 §3.2): a name and one or more values, as
/// read: quotes removed, RFC 6868 `^n ^^ ^'` escapes decoded.
public struct ICalendarParameter: Hashable, Sendable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.init(upperCaseName: name.uppercased(), values: values)
    }

    /// For the reader, whose names are upper case already.
    init(upperCaseName name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    public init(_ name: String, _ value: String) {
        self.init(name: name, values: [value])
    }
}

/// Where a value was read, kept beside it but out of its equality and hash:
/// the same component read from two files is the same component.
struct SourcePosition: Hashable, Sendable {
    var line: Int

    static func == (lhs: SourcePosition, rhs: SourcePosition) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
