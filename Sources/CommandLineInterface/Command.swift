/// A `chime` subcommand: one type per file, named after it.
protocol Command {
    static var name: String { get }
    /// One line for `chime --help`.
    static var abstract: String { get }
    /// The whole text of `chime NAME --help`.
    static var help: String { get }
    static func run(_ arguments: [String], context: CommandContext) throws(CommandFailure)
}
