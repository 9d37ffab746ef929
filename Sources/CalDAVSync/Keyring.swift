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

    /// The attributes an account's password is kept under: its name in
    /// Chime, its user and its server, so that two stores that each have an
    /// account named `home` for another login keep two passwords, not one.
    static func attributes(account: String, user: String, server: String) -> [String] {
        ["service", "chime", "account", account, "user", user, "server", server]
    }

    /// The password command that reads back what `store` kept.
    public static func lookupCommand(account: String, user: String, server: String) -> [String] {
        ["secret-tool", "lookup"] + attributes(account: account, user: user, server: server)
    }

    /// What clears the password a lookup command of Chime's reads (nil for
    /// any other command: a password the person keeps is theirs to clear).
    /// Accounts added before the user and server were attributes look up
    /// by `service chime account NAME` alone, and are cleared so.
    public static func clearCommand(lookingUp lookup: [String]) -> [String]? {
        guard lookup.count >= 6, lookup.count % 2 == 0, Array(lookup.prefix(4)) == ["secret-tool", "lookup", "service", "chime"],
              lookup[4] == "account" else { return nil }
        return ["secret-tool", "clear"] + lookup.dropFirst(2)
    }

    /// Keeps `password` under `lookup`'s attributes, replacing what was kept before.
    public func store(_ password: String, lookingUp lookup: [String], label: String) throws(PasswordCommand.Failure) {
        guard let clear = Self.clearCommand(lookingUp: lookup) else {
            throw .init(description: "'\(lookup.joined(separator: " "))' is not a lookup of Chime's")
        }
        try run(["secret-tool", "store", "--label=\(label)"] + clear.dropFirst(2), input: Data(password.utf8))
    }

    /// Forgets the password `lookup` reads; forgetting one never kept is no
    /// error, and a command that is not a lookup of Chime's is left alone.
    public func clear(lookingUp lookup: [String]) throws(PasswordCommand.Failure) {
        guard let clear = Self.clearCommand(lookingUp: lookup) else { return }
        try run(clear, input: nil)
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
