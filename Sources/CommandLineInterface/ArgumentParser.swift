import CalendarModel
/// The one argument parser every `chime` command uses: GNU-style long
/// options (`--count 5`, `--count=5`), short aliases, repeatable options,
/// positionals, and `--` to end options.
struct ArgumentParser {
    struct Option {
        var name: String
        var short: String?
        var takesValue: Bool
        var repeatable = false
    }

    struct Parsed {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var flags: Set<String> = []

        func value(_ name: String) -> String? { values[name]?.last }
        func all(_ name: String) -> [String] { values[name] ?? [] }
        func has(_ name: String) -> Bool { flags.contains(name) }
    }

    let command: String
    let options: [Option]

    func parse(_ arguments: [String]) throws(CommandFailure) -> Parsed {
        var parsed = Parsed()
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
                throw .usage("\(command): unknown option '\(name)' (see '\(command) --help')\(hint)")
            }
            if !option.takesValue {
                if inlineValue != nil { throw .usage("\(command): \(option.name) takes no value") }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else { throw .usage("\(command): \(option.name) needs a value") }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable, parsed.values[option.name] != nil {
                throw .usage("\(command): \(option.name) given more than once")
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
