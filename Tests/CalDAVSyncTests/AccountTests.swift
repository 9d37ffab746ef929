import CalDAVSync
import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import TestSupport
import Testing

@Suite("Accounts: password commands and calendars mapped")
struct AccountTests {
    @Test("the password is the first line the command prints; it runs without a shell")
    func passwordFirstLine() throws {
        #expect(try PasswordCommand(["printf", "s3cret\\nsecond line\\n"]).password() == "s3cret")
        #expect(try PasswordCommand(["/bin/sh", "-c", "echo from-a-shell"]).password() == "from-a-shell")
        // No shell unless named: the words are not split or expanded.
        #expect(throws: PasswordCommand.Failure.self) { try PasswordCommand(["echo $HOME"]).password() }
    }

    @Test("a failing, silent or hanging password command is a clear error that names it")
    func passwordFailures() throws {
        #expect(throws: PasswordCommand.Failure(description: "password command 'false' exited with status 1")) {
            try PasswordCommand(["false"]).password()
        }
        #expect(throws: PasswordCommand.Failure(description: "password command 'true' printed no password")) {
            try PasswordCommand(["true"]).password()
        }
        #expect(throws: PasswordCommand.Failure(description: "password command 'sleep' gave no answer within 1 s")) {
            try PasswordCommand(["sleep", "30"], timeLimit: 1).password()
        }
        #expect(throws: PasswordCommand.Failure(description: "the password command is empty")) { try PasswordCommand([]).password() }
    }

    @Test("a password command that is not installed says so")
    func passwordCommandMissing() {
        #expect(throws: PasswordCommand.Failure(description: "password command 'no-such-password-tool' was not found (status 127)")) {
            try PasswordCommand(["no-such-password-tool"]).password()
        }
    }

    /// A folder holding a stand-in `secret-tool` (`script` as its body),
    /// and the environment whose PATH finds it first.
    private static func standIn(_ script: String) throws -> (folder: TemporaryFolder, environment: [String: String]) {
        let folder = TemporaryFolder("chime-keyring-stand-in")
        let path = folder.appending("secret-tool")
        try ("#!/bin/sh\n" + script).write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return (folder, ["PATH": folder.path + ":/usr/bin:/bin"])
    }

    @Test("the keyring keeps a password through secret-tool store, with the password on its standard input only")
    func keyringStore() throws {
        let (folder, environment) = try Self.standIn("printf '%s\\n' \"$*\" >\"$(dirname \"$0\")/arguments\"; cat >\"$(dirname \"$0\")/input\"\n")
        let lookup = Keyring.lookupCommand(account: "home", user: "ann", server: "https://dav.example.org/")
        #expect(lookup == ["secret-tool", "lookup", "service", "chime", "account", "home", "user", "ann", "server", "https://dav.example.org/"])
        try Keyring(environment: environment).store("pass word", lookingUp: lookup, label: "Chime: ann")
        #expect(try String(contentsOfFile: folder.appending("arguments"), encoding: .utf8)
                == "store --label=Chime: ann service chime account home user ann server https://dav.example.org/\n")
        #expect(try String(contentsOfFile: folder.appending("input"), encoding: .utf8) == "pass word")
        // A lookup of an account added before the user and server were kept clears as it looks up; another command is not Chime's.
        #expect(Keyring.clearCommand(lookingUp: ["secret-tool", "lookup", "service", "chime", "account", "home"])
                == ["secret-tool", "clear", "service", "chime", "account", "home"])
        #expect(Keyring.clearCommand(lookingUp: ["pass", "show", "caldav"]) == nil)
        #expect(Keyring.clearCommand(lookingUp: ["secret-tool", "lookup", "service", "mail", "account", "home"]) == nil)
    }

    static let homeLookup = Keyring.lookupCommand(account: "home", user: "ann", server: "https://dav.example.org/")

    @Test("a secret-tool that fails, never reads its input, is missing or hangs is a clear error, not a crash")
    func keyringFailures() throws {
        // Exits at once, unread input and all: no SIGPIPE reaches Chime.
        let (failingFolder, failing) = try Self.standIn("echo 'secret-tool: Cannot create an item in a locked collection' >&2; exit 1\n")
        #expect(throws: PasswordCommand.Failure(description: """
            secret-tool store exited with status 1 (secret-tool: Cannot create an item in a locked collection): \
            is a keyring (GNOME Keyring, KeePassXC) running and unlocked?
            """)) {
            try Keyring(environment: failing).store(String(repeating: "x", count: 4096), lookingUp: Self.homeLookup, label: "Chime")
        }
        let empty = TemporaryFolder("chime-keyring-none")
        #expect(throws: PasswordCommand.Failure(description: "secret-tool is not installed (Debian: libsecret-tools)")) {
            try Keyring(environment: ["PATH": empty.path]).clear(lookingUp: Self.homeLookup)
        }
        let (hangingFolder, hanging) = try Self.standIn("exec sleep 30\n")
        #expect(throws: PasswordCommand.Failure(description: "secret-tool clear gave no answer within 1 s")) {
            try Keyring(environment: hanging, timeLimit: 1).clear(lookingUp: Self.homeLookup)
        }
        withExtendedLifetime((failingFolder, hangingFolder)) {}
    }

    @Test("an account's calendars map to Chime calendars named by their display names, and a second adoption keeps them",
          arguments: CalDAVServer.Kind.allCases)
    func adopt(kind: CalDAVServer.Kind) throws {
        let server = try CalDAVServer(kind)
        _ = try server.makeCalendar("Work")
        _ = try server.makeCalendar("Chores", components: ["VTODO"])
        let password = server.password.map { ["printf", $0] }
        let credentials = try server.user.map { HTTPCredentials(user: $0, password: try PasswordCommand(password ?? []).password()) }
        let discovered = try CalendarDiscovery(credentials: credentials, timeLimit: 20).discover(server.base)
        let fixture = try StoreFixture(zone: "Europe/Berlin")
        let store = try fixture.open()
        let state = try SyncState(store: store)
        let account = SyncState.Account(name: "home", address: server.base, user: server.user, passwordCommand: password)
        let mapped = try state.adopt(account, discovered: discovered)
        let titles = try mapped.map { try store.calendar(identifier: $0.calendar).title }
        #expect(Set(titles).isSuperset(of: ["Work", "Chores"]))
        #expect(mapped.first { $0.displayName == "Chores" }?.components == ["VTODO"])
        #expect(try state.accounts() == [account])
        let again = try state.adopt(account, discovered: discovered)
        #expect(again.map(\.calendar) == mapped.map(\.calendar))
        #expect(try store.calendars().filter { $0.title == "Work" }.count == 1)
        try state.removeAccount("home")
        #expect(try state.accounts().isEmpty && state.collections().isEmpty)
    }
}

extension AccountTests {
    @Test("a password command line splits into words as a shell quotes them, and nothing is expanded", arguments: [
        ("secret-tool lookup service chime", ["secret-tool", "lookup", "service", "chime"]),
        ("pass show \"My Server\"", ["pass", "show", "My Server"]),
        ("sh -c 'pass show x | head -n 1'", ["sh", "-c", "pass show x | head -n 1"]),
        ("printf %s\\ secret  ", ["printf", "%s secret"]),
        ("echo \"a \\\"b\\\" \\$HOME \\n\" '$HOME'", ["echo", "a \"b\" $HOME \\n", "$HOME"]),
        ("a''b \"\"", ["ab", ""]),
    ])
    func words(line: String, expected: [String]) {
        #expect(PasswordCommand.words(line) == expected)
    }

    @Test("a quote left open or a lone backslash at the end is no command line")
    func unfinishedWords() {
        #expect(PasswordCommand.words("pass show 'My Server") == nil)
        #expect(PasswordCommand.words("pass show \"My Server") == nil)
        #expect(PasswordCommand.words("pass show \\") == nil)
    }

    @Test("a quoted word reaches the command whole")
    func quotedWordReachesTheCommand() throws {
        let words = try #require(PasswordCommand.words("sh -c 'printf \"%s\\n\" \"$0\"' 'pass word'"))
        #expect(try PasswordCommand(words).password() == "pass word")
    }
}
