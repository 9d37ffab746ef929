import CalendarModel

/// The word after a command that says which of its actions to take
/// (`chime calendar add`), with the rest of the command line.
public struct CommandAction: Sendable {
    public var name: String
    /// `chime calendar add`: what the action's messages begin with.
    public var command: String
    /// The command line without the action's word.
    public var rest: ParsedArguments

    /// Name, command and rest, to take apart in one `let`.
    public var parts: (name: String, command: String, rest: ParsedArguments) { (name, command, rest) }
}

extension ParsedArguments {
    /// The first positional as one of `actions`. With no positional, the
    /// `implicit` action is taken (its messages then name the command
    /// alone) or the command is refused; a word not among `actions` (the
    /// implicit one included) is a usage error that lists them and
    /// suggests the nearest.
    public func action(of command: String, among actions: [String], implicit: String? = nil,
                       word: String = "action") throws(CommandFailure) -> CommandAction {
        let listed = Self.list(actions.filter { $0 != implicit })
        let help = "(see '\(command) --help')"
        var rest = self
        guard !rest.positionals.isEmpty else {
            guard let implicit else { throw .usage("\(command): missing \(listed) \(help)") }
            return CommandAction(name: implicit, command: command, rest: rest)
        }
        let name = rest.positionals.removeFirst()
        guard actions.contains(name) else {
            throw .usage("\(command): unknown \(word) '\(name)'; expected \(listed) \(help)" + Suggestion.hint(for: name, among: actions))
        }
        return CommandAction(name: name, command: name == implicit ? command : "\(command) \(name)", rest: rest)
    }

    /// `add, list or remove`.
    private static func list(_ words: [String]) -> String {
        guard let last = words.last, words.count > 1 else { return words.first ?? "" }
        return words.dropLast().joined(separator: ", ") + " or " + last
    }
}
