import CalendarModel

/// The one argument parser `chime` and `chimed` use: GNU-style long
/// options (`--count 5`, `--count=5`), short aliases, repeatable options,
/// positionals, and `--` to end options.
public struct ArgumentParser: Sendable {
    /// The program and command, as messages start: `chime add event`.
    public let command: String
    public let options: [OptionSpec]

    public init(command: String, options: [OptionSpec]) {
        self.command = command
        self.options = options
    }

    /// Why a command line was refused, before it became a message.
    public enum Refusal: Error, Sendable {
        /// The option and the hint (`; did you mean '--tz'?`) for it.
        case unknownOption(String, hint: String)
        case failure(CommandFailure)
    }

    /// Parses, with chime's message for an unknown option.
    public func parse(_ arguments: [String]) throws(CommandFailure) -> ParsedArguments {
        do {
            return try parseRefusing(arguments)
        } catch {
            switch error {
            case .unknownOption(let name, let hint):
                throw .usage("\(command): unknown option '\(name)' (see '\(command) --help')\(hint)")
            case .failure(let failure):
                throw failure
            }
        }
    }

    /// Parses, leaving an unknown option for the caller to word.
    public func parseRefusing(_ arguments: [String]) throws(Refusal) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" || Self.looksNegativeNumber(argument) {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.name == name || $0.short == name }) else {
                let hint = name.hasPrefix("--") ? Suggestion.hint(for: name, among: options.map(\.name) + ["--help"]) : ""
                throw .unknownOption(name, hint: hint)
            }
            if !option.takesValue {
                if inlineValue != nil { throw .failure(.usage("\(command): \(option.name) takes no value")) }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw .failure(.usage("\(command): \(option.name) needs \(option.expected ?? "a value")"))
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw .failure(.usage("\(command): \(option.name) given more than once"))
            }
            guard option.accepts(value) else {
                throw .failure(.data("\(command): \(option.name) '\(value)' is not \(option.expected ?? "a value it takes")"))
            }
            parsed.values[option.name, default: []].append(value)
        }
        return parsed
    }

    /// `-1` as a positional value, not an option.
    private static func looksNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.dropFirst().allSatisfy(\.isNumber)
    }
}
