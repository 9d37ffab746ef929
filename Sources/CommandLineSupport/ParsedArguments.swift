/// A command line as `CommandSyntax.parse` read it: the positionals, and
/// each declared option's values, read back through its declaration.
public struct ParsedArguments: Sendable {
    public var positionals: [String] = []
    var values: [String: [String]] = [:]
    var flags: Set<String> = []

    public init() {}

    /// The option's value (its last, for a repeatable one); nil when not given.
    public subscript<Value>(option: Option<Value>) -> Value? {
        values[option.spec.name]?.last.flatMap(option.convert)
    }

    /// The option's value, or its default when not given.
    public subscript<Value>(option: DefaultedOption<Value>) -> Value {
        self[option.option] ?? option.defaultValue
    }

    /// Every value given to a repeatable option, in order.
    public func all<Value>(_ option: Option<Value>) -> [Value] {
        (values[option.spec.name] ?? []).compactMap(option.convert)
    }

    public subscript(flag: Flag) -> Bool { flags.contains(flag.spec.name) }

    /// Whether the option (flag or not) is on the command line.
    public func has(_ spec: OptionSpec) -> Bool { flags.contains(spec.name) || values[spec.name] != nil }
}
