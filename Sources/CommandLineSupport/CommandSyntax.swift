/// A command's whole command line, declared once: the forms it is used in,
/// its options and its prose. It parses, and it writes `--help`, from the
/// same declarations.
public struct CommandSyntax: Sendable {
    /// One way of calling the command: the words after its name (`add NAME`)
    /// and the options shown with them.
    public struct Form: Sendable {
        public var arguments: String
        /// nil: every option of the command.
        public var options: [OptionSpec]?

        public init(_ arguments: String, options: [any DeclaredOption]? = nil) {
            self.arguments = arguments
            self.options = options?.map(\.spec)
        }
    }

    /// `chime show`: how the usage lines and messages start.
    public let name: String
    public let forms: [Form]
    /// Every option the command takes, in the order help lists them.
    public let options: [OptionSpec]
    /// The prose between the usage lines and the options.
    public let discussion: String
    /// The prose after the options (value formats, exit statuses).
    public let epilogue: String

    public init(_ name: String, forms: [Form] = [Form("")], options: [any DeclaredOption], discussion: String, epilogue: String = "") {
        self.name = name
        self.forms = forms
        self.options = options.map(\.spec)
        self.discussion = discussion
        self.epilogue = epilogue
    }

    public var parser: ArgumentParser { ArgumentParser(command: name, options: options) }

    public func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        try parser.parse(arguments)
    }

    /// The value of an option the command needs, or a usage error naming it.
    public func required<Value>(_ option: Option<Value>, in parsed: ParsedArguments) throws(CommandFailure) -> Value {
        guard let value = parsed[option] else {
            throw .usage("\(name): missing \(option.spec.name) \(option.spec.valueName ?? "") (see '\(name) --help')")
        }
        return value
    }

    /// `--help`: usage lines, discussion, the options, epilogue.
    public var help: String {
        var sections = [usage]
        if !discussion.isEmpty { sections.append(discussion) }
        if !options.isEmpty { sections.append(HelpText.options(options)) }
        if !epilogue.isEmpty { sections.append(epilogue) }
        return sections.joined(separator: "\n\n")
    }

    /// The usage lines, one per form, wrapped under the form's first word.
    public var usage: String {
        forms.enumerated().map { index, form in
            let lead = (index == 0 ? "usage: " : "       ") + name
            let words = (form.arguments.isEmpty ? [] : [form.arguments]) + (form.options ?? options).map(\.synopsis)
            return HelpText.wrap(words, after: lead)
        }.joined(separator: "\n")
    }
}
