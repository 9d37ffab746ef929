/// A `chime` subcommand: one type per file, named after it.
protocol Command {
    static var name: String { get }
    /// One line for `chime --help`.
    static var abstract: String { get }
    /// The whole text of `chime NAME --help`.
    static var help: String { get }
    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure)
    /// The help for these arguments: a command with actions (`add event`)
    /// picks the action's help.
    static func help(for arguments: [String]) -> String
    /// Whether the command may change the store, so that a running daemon
    /// is told to re-plan when it succeeds.
    static var changesStore: Bool { get }
}

extension Command {
    static func help(for arguments: [String]) -> String { help }
    static var changesStore: Bool { false }
}
