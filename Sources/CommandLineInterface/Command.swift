// Every file of the module uses the parser, its declarations and CommandFailure.
@_exported import CommandLineSupport

/// A `chime` subcommand: one type per file, named after it.
protocol Command {
    static var name: String { get }
    /// One line for `chime --help`.
    static var abstract: String { get }
    /// Its command line: what it parses, and what `chime NAME --help` says.
    static var syntax: CommandSyntax { get }
    /// Every syntax it parses by: its own, and its actions' (`add event`).
    static var syntaxes: [CommandSyntax] { get }
    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure)
    /// The help for these arguments: a command with actions (`add event`)
    /// picks the action's help.
    static func help(for arguments: [String]) -> String
    /// Whether the command may change the store, so that a running daemon
    /// is told to re-plan when it succeeds.
    static var changesStore: Bool { get }
}

extension Command {
    static var syntaxes: [CommandSyntax] { [syntax] }
    static func help(for arguments: [String]) -> String { syntax.help }
    static var changesStore: Bool { false }
}
