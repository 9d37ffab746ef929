/// One option as declared, once: its names, its value's placeholder, its
/// help and what values it accepts. The parser reads arguments by it and
/// `--help` is written from it, so the two cannot disagree.
public struct OptionSpec: DeclaredOption, Sendable {
    /// The long name, with its dashes: `--tz`.
    public let name: String
    /// The one-letter alias, with its dash: `-n`.
    public let short: String?
    /// The value's placeholder in help (`ZONE`); nil for a flag.
    public let valueName: String?
    /// The help text, as prose: `--help` wraps it.
    public let help: String
    public let repeatable: Bool
    /// Shown without brackets in the usage line (the command checks it is given).
    public let required: Bool
    /// What a value must be, for the message when one is missing or refused
    /// ("a DURATION such as 30m"); nil: "a value".
    public let expected: String?
    /// Whether a value is one the option takes; a refused one is bad data (65).
    let accepts: @Sendable (String) -> Bool

    public init(_ name: String, short: String? = nil, value valueName: String?, help: String, repeatable: Bool = false,
                required: Bool = false, expected: String? = nil, accepts: @escaping @Sendable (String) -> Bool = { _ in true }) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.help = help
        self.repeatable = repeatable
        self.required = required
        self.expected = expected
        self.accepts = accepts
    }

    public var takesValue: Bool { valueName != nil }

    public var spec: OptionSpec { self }

    /// `--tz ZONE`, `-n, --count N`, `--json`: the option as its help line starts.
    var label: String {
        (short.map { $0 + ", " } ?? "") + name + (valueName.map { " " + $0 } ?? "")
    }

    /// The option in a usage line: `[--tz ZONE]`, `[--alarm OFFSET ...]`, `--start WHEN`.
    var synopsis: String {
        let text = name + (valueName.map { " " + $0 } ?? "") + (repeatable ? " ..." : "")
        return required ? text : "[" + text + "]"
    }
}

/// A declared option that takes a value, read back as a `Value`.
public struct Option<Value: Sendable>: DeclaredOption, Sendable {
    public let spec: OptionSpec
    let convert: @Sendable (String) -> Value?

    /// An option whose value is converted by `convert`; a value it refuses
    /// (nil) is refused when the command line is parsed, naming `expected`.
    public init(_ name: String, short: String? = nil, value valueName: String, help: String, repeatable: Bool = false,
                required: Bool = false, expected: String? = nil, convert: @escaping @Sendable (String) -> Value?) {
        spec = OptionSpec(name, short: short, value: valueName, help: help, repeatable: repeatable, required: required,
                          expected: expected, accepts: { convert($0) != nil })
        self.convert = convert
    }
}

extension Option where Value == String {
    /// An option whose value is text, read by the command.
    public init(_ name: String, short: String? = nil, value valueName: String, help: String, repeatable: Bool = false,
                required: Bool = false, expected: String? = nil) {
        self.init(name, short: short, value: valueName, help: help, repeatable: repeatable, required: required,
                  expected: expected, convert: { $0 })
    }
}

/// A declared option without a value: given or not.
public struct Flag: DeclaredOption, Sendable {
    public let spec: OptionSpec

    public init(_ name: String, short: String? = nil, help: String) {
        spec = OptionSpec(name, short: short, value: nil, help: help)
    }
}

/// An option declaration a command's syntax lists: `Option`, `Flag`, or
/// either with its help worded for one command (`with(help:)`).
public protocol DeclaredOption: Sendable {
    var spec: OptionSpec { get }
}

extension DeclaredOption {
    /// The same option (names, parsing, values), its help worded for one
    /// command, and its placeholder too when `value` is given.
    public func with(value: String? = nil, help: String) -> OptionSpec {
        let spec = spec
        return OptionSpec(spec.name, short: spec.short, value: value ?? spec.valueName, help: help, repeatable: spec.repeatable,
                          required: spec.required, expected: spec.expected, accepts: spec.accepts)
    }

    /// The same option shown without brackets in usage lines.
    public var asRequired: OptionSpec {
        let spec = spec
        return OptionSpec(spec.name, short: spec.short, value: spec.valueName, help: spec.help, repeatable: spec.repeatable,
                          required: true, expected: spec.expected, accepts: spec.accepts)
    }
}

/// An option the command takes a value for when it is not given: the value
/// and the help's "(default …)" come from one declaration, so the two
/// cannot disagree. Read back with `parsed[option]`, never nil.
public struct DefaultedOption<Value: Sendable>: DeclaredOption, Sendable {
    public let option: Option<Value>
    public let defaultValue: Value
    public let spec: OptionSpec
}

extension Option {
    /// The same option with `value` taken when it is not given, and its
    /// help ending "(default `shown`)".
    public func defaulting(to value: Value, shown: String) -> DefaultedOption<Value> {
        DefaultedOption(option: self, defaultValue: value, spec: with(help: spec.help + " (default \(shown))"))
    }
}
