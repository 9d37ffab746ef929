import Foundation
import TestSupport
import Testing

/// The built `chime` with its standard descriptors closed or full, as a
/// shell leaves them (`>&-`, `2>&-`, `> /dev/full`).
@Suite("chime with its standard output or error closed or full")
struct StandardStreamTests {
    static let executable = PackagePaths.builtExecutable("chime")

    /// Runs `chime ARGUMENTS` through sh with `redirection` applied.
    static func run(_ arguments: [String], redirection: String, store: String) throws -> (status: Int32, out: String, err: String) {
        let folder = (store as NSString).deletingLastPathComponent
        return try runProcess("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", executable] + arguments,
                              environment: ["CHIME_DB": store, "XDG_RUNTIME_DIR": folder, "HOME": folder, "PATH": "/usr/bin:/bin"])
    }

    @Test("with standard output closed, a command is refused with 74 before it adds anything")
    func closedOutput() throws {
        let folder = TemporaryFolder("chime-streams"), store = folder.appending("chime.db")
        let added = try Self.run(["add", "reminder", "Tea"], redirection: ">&-", store: store)
        #expect(added.status == 74)
        #expect(added.err == "chime: standard output is closed; nothing was done\n")
        let version = try Self.run(["--version"], redirection: ">&-", store: store)
        #expect(version.status == 74)
        let listed = try Self.run(["list", "reminders"], redirection: "", store: store)
        #expect(listed.status == 0)
        #expect(!listed.out.contains("Tea"), "\(listed.out)")
    }

    @Test("with standard error closed, a failing command exits with its own status, and standard output still answers")
    func closedError() throws {
        let folder = TemporaryFolder("chime-streams"), store = folder.appending("chime.db")
        let missing = try Self.run(["show", "abcdef12"], redirection: "2>&-", store: store)
        #expect(missing.status == 66)
        let added = try Self.run(["add", "reminder", "Tea"], redirection: "2>&-", store: store)
        #expect(added.status == 0)
        #expect(added.out.count == 9, "an identifier and a newline: \(added.out)")
    }

    @Test("output that cannot be written (a full disk) is 74, and the message says the command was done")
    func fullOutput() throws {
        let folder = TemporaryFolder("chime-streams"), store = folder.appending("chime.db")
        let added = try Self.run(["add", "reminder", "Tea"], redirection: "> /dev/full", store: store)
        #expect(added.status == 74)
        #expect(added.err.hasPrefix("chime: the command was done, but its output could not be written: "), "\(added.err)")
        let listed = try Self.run(["list", "reminders"], redirection: "", store: store)
        #expect(listed.out.contains("Tea"), "\(listed.out)")
    }
}
