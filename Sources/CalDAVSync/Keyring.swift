import Foundation

/// The desktop's keyring (the Secret Service of GNOME Keyring, KeePassXC
/// or KWallet) through libsecret's `secret-tool`: where `chime account add
/// --password-stdin` puts the password, so that the store never holds it.
/// The account's password command is then the lookup, a command the person
/// can read and change like any other.
///
/// `secret-tool` rather than libsecret linked in: the lookup has to be a
/// command anyway, and the tool asks the keyring to unlock as the desktop does.
public struct Keyring: Sendable {
    /// `secret-tool`'s environment (nil: this process's): the session bus is in it.
    public var environment: [String: String]?
    /// Seconds `secret-tool` may take (the keyring may ask to be unlocked).
    public var timeLimit: Double

    public init(environment: [String: String]? = nil, timeLimit: Double = 60) {
        self.environment = environment
        self.timeLimit = timeLimit
    }

    /// The attributes an account's password is kept under.
    static func attributes(account: String) -> [String] { ["service", "chime", "account", account] }

    /// The password command that reads back what `store` kept.
    public static func lookupCommand(account: String) -> [String] { ["secret-tool", "lookup"] + attributes(account: account) }

    /// What clears it by hand, for a message when `clear` could not.
    public static func clearCommand(account: String) -> [String] { ["secret-tool", "clear"] + attributes(account: account) }

    /// Keeps `password` for `account`, replacing what was kept before.
    public func store(_ password: String, account: String, label: String) throws(PasswordCommand.Failure) {
        try run(["secret-tool", "store", "--label=\(label)"] + Self.attributes(account: account), input: Data(password.utf8))
    }

    /// Forgets `account`'s password; forgetting one never kept is no error.
    public func clear(account: String) throws(PasswordCommand.Failure) {
        try run(Self.clearCommand(account: account), input: nil)
    }

    private func run(_ words: [String], input: Data?) throws(PasswordCommand.Failure) {
        let name = "secret-tool \(words[1])"
        let outcome = try ChildCommand(words: words, name: name, environment: environment, timeLimit: timeLimit, keepsErrors: true)
            .run(input: input)
        switch outcome.status {
        case 0: return
        case 127: throw .init(description: "secret-tool is not installed (Debian: libsecret-tools)")
        default:
            let said = outcome.error.isEmpty ? "" : " (\(outcome.error))"
            throw .init(description: "\(name) exited with status \(outcome.status)\(said): is a keyring (GNOME Keyring, KeePassXC) running and unlocked?")
        }
    }
}
