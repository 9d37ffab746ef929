import Foundation

/// The command that prints an account's password (`secret-tool lookup …`,
/// `pass show …`), run each time one is needed so that the password is
/// never stored. It runs as the words given, with no shell unless the
/// person names one; the first line of its standard output is the password.
public struct PasswordCommand: Equatable, Sendable {
    public var words: [String]
    /// Seconds the command may take (a keyring may ask to be unlocked).
    public var timeLimit: Double

    public init(_ words: [String], timeLimit: Double = 60) {
        self.words = words
        self.timeLimit = timeLimit
    }

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// The password, or why there is none (never the output itself).
    /// `environment`: the command's (nil: this process's), which tells
    /// `secret-tool` the desktop session's bus.
    public func password(environment: [String: String]? = nil) throws(Failure) -> String {
        guard let first = words.first, !first.isEmpty else { throw Failure(description: "the password command is empty") }
        let name = "password command '\(first)'"
        let outcome = try ChildCommand(words: words, name: name, environment: environment, timeLimit: timeLimit).run()
        guard outcome.status == 0 else {
            if outcome.status == 127 { throw Failure(description: "\(name) was not found (status 127)") }
            throw Failure(description: "\(name) exited with status \(outcome.status)")
        }
        let text = String(decoding: outcome.output, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw Failure(description: "\(name) printed no password") }
        return password
    }
}
