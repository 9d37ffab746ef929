/// A failure that ends a command with a message on standard error.
public struct CommandFailure: Error, Sendable {
    public var message: String
    public var status: Int32

    public init(message: String, status: Int32) {
        self.message = message
        self.status = status
    }

    public static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.usage) }
    public static func data(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.dataError) }
    public static func notFound(_ message: String) -> CommandFailure { CommandFailure(message: message, status: ExitStatus.notFound) }
}
