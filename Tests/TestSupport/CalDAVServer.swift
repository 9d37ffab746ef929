import Foundation
import Glibc
import Synchronization
import SystemCalls
import Testing

/// A CalDAV server from `.build/caldav-venv` (contrib/caldav/setup, which
/// contrib/test runs) on 127.0.0.1 and a free port, with throwaway storage
/// in a temporary folder: Radicale with Basic authentication (htpasswd,
/// plain: user `ann`, password `secret`), or Xandikos, which authenticates
/// only over https (`--htpasswd` needs `--autocert`), so here has none.
/// Killed with SIGKILL by `stop()` or when released (SIGTERM was seen
/// ignored under the test runner). A missing venv fails the test; it never
/// skips. `phone` and its helpers play another device through Python's
/// caldav library (contrib/caldav/phone.py).
public final class CalDAVServer: Sendable {
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case radicale, xandikos
        public var description: String { rawValue }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public static let venv = PackagePaths.root + "/.build/caldav-venv"
    public static let phoneScript = PackagePaths.root + "/contrib/caldav/phone.py"
    static let remedy = "run contrib/caldav/setup (contrib/test does) to make the CalDAV test servers"

    public let kind: Kind
    public let port: Int
    /// Radicale's user and password; nil for Xandikos.
    public let user: String?
    public let password: String?
    private let process: Process
    private let folder: TemporaryFolder
    private let stopped = Mutex(false)

    /// Whether it speaks https, with a self-signed certificate (`selfSignedTLS`).
    public let isTLS: Bool

    /// Starts the server and returns once it accepts connections (within 60 s).
    /// `selfSignedTLS` (Radicale only): https with a certificate made by
    /// openssl for 127.0.0.1 that no authority signed, which a client that
    /// verifies certificates must refuse.
    /// `readOnly` (Radicale only): resources (file name to text) of a
    /// calendar "Shared" at /ann/shared/ that ann may read and not change,
    /// by Radicale's rights file: bob's, shared with her (`putAsOwner`).
    public init(_ kind: Kind, selfSignedTLS: Bool = false, readOnly: [String: String]? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        let executable = Self.venv + "/bin/" + kind.rawValue
        try #require(FileManager.default.isExecutableFile(atPath: executable), "no \(executable): \(Self.remedy)", sourceLocation: sourceLocation)
        let folder = TemporaryFolder("chime-caldav-\(kind)", sourceLocation: sourceLocation)
        if let readOnly {
            try #require(kind == .radicale, "only Radicale is given a read-only calendar", sourceLocation: sourceLocation)
            try Self.makeReadOnlyCalendar(readOnly, in: folder)
        }
        var lastError = ""
        // A port found free can be taken before the server binds it: a few tries.
        for _ in 1...3 {
            let port = try LoopbackPort.free()
            let (arguments, user, password) = try Self.arguments(kind, port: port, folder: folder, tls: selfSignedTLS)
            let log = folder.appending("server-\(port).log")
            // A file that could not be made fails on the next line, when it is opened.
            _ = FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600])
            let logHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            // Its own HOME and XDG folders: no configuration or state of the machine's user is read or written.
            process.environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.appending("data"), "XDG_CONFIG_HOME": folder.appending("config"),
                                   "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = logHandle
            process.standardError = logHandle
            try process.run()
            try? logHandle.close()
            if Self.waitUntilListening(port: port, process: process, seconds: 60) {
                self.kind = kind
                self.isTLS = selfSignedTLS
                self.port = port
                self.user = user
                self.password = password
                self.process = process
                self.folder = folder
                return
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            lastError = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        throw Failure(description: "\(kind) did not start on 127.0.0.1: \(lastError.suffix(2000))")
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` (https with `selfSignedTLS`).
    public var base: String { (isTLS ? "https" : "http") + "://127.0.0.1:\(port)" }

    public func url(_ path: String) -> String { base + path }

    public func stop() {
        guard stopped.withLock({ let first = !$0; $0 = true; return first }) else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs contrib/caldav/phone.py against this server; its standard output, trimmed.
    public func phone(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let python = Self.venv + "/bin/python"
        try #require(FileManager.default.isExecutableFile(atPath: python), "no \(python): \(Self.remedy)", sourceLocation: sourceLocation)
        let run = try runProcess(python, [Self.phoneScript, base + "/", user ?? "-", password ?? "-"] + arguments)
        try #require(run.status == 0, "phone.py \(arguments.first ?? "") exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        return run.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A calendar made by the phone in the user's calendar home: its URL.
    public func makeCalendar(_ name: String, components: [String] = ["VEVENT", "VTODO"],
                             sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try phone(["make-calendar", name, components.joined(separator: ",")], sourceLocation: sourceLocation)
    }

    /// `text` (one iCalendar object) stored by the phone in the calendar at `calendarURL`: the resource's URL.
    public func put(_ text: String, in calendarURL: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let file = folder.appending("put-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try phone(["put", calendarURL, file], sourceLocation: sourceLocation)
    }

    /// Fills the Xandikos calendar at `calendarURL` with `count` generated
    /// resources (contrib/caldav/seed-xandikos.py: item-NNNNN@bulk, even
    /// ones events, odd ones to-dos, each with an alarm), in one commit.
    public func seed(_ count: Int, in calendarURL: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try #require(kind == .xandikos, "only Xandikos's storage can be seeded", sourceLocation: sourceLocation)
        try #require(calendarURL.hasPrefix(base + "/"), "\(calendarURL) is not on this server", sourceLocation: sourceLocation)
        let path = calendarURL.dropFirst(base.count).split(separator: "/").map { $0.removingPercentEncoding ?? String($0) }
        let collection = folder.appending("storage/" + path.joined(separator: "/"))
        let run = try runProcess(Self.venv + "/bin/python", [PackagePaths.root + "/contrib/caldav/seed-xandikos.py", collection, String(count)])
        try #require(run.status == 0, "seed-xandikos.py exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
    }

    /// The folder of the read-only calendar's resources in Radicale's storage.
    private static func readOnlyFolder(_ folder: TemporaryFolder) -> String { folder.appending("storage/collection-root/ann/shared") }

    private static func makeReadOnlyCalendar(_ resources: [String: String], in folder: TemporaryFolder) throws {
        let calendar = readOnlyFolder(folder)
        try FileManager.default.createDirectory(atPath: calendar, withIntermediateDirectories: true)
        let props = #"{"C:supported-calendar-component-set": "VEVENT,VTODO", "D:displayname": "Shared", "tag": "VCALENDAR"}"#
        try Data(props.utf8).write(to: URL(fileURLWithPath: calendar + "/.Radicale.props"))
        for (name, text) in resources { try Data(text.utf8).write(to: URL(fileURLWithPath: calendar + "/" + name)) }
        // The first section that matches decides: the shared calendar is bob's to change and ann's to read.
        let rights = """
            [owner]
            user: bob
            collection: ann/shared(/.*)?
            permissions: rRwW

            [shared]
            user: .+
            collection: {user}/shared(/.*)?
            permissions: rR

            [principal]
            user: .+
            collection: {user}
            permissions: RrWw

            [own]
            user: .+
            collection: {user}/[^/]+(/.*)?
            permissions: rRwW

            [root]
            user: .+
            collection:
            permissions: R

            """
        try Data(rights.utf8).write(to: URL(fileURLWithPath: folder.appending("rights")))
    }

    /// `text` stored in the read-only calendar by its owner, bob, through his own phone.
    public func putAsOwner(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appending("put-\(UUID().uuidString).ics")
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try runProcess(Self.venv + "/bin/python", [Self.phoneScript, base + "/", "bob", "secret", "put", base + "/ann/shared/", file])
        try #require(run.status == 0, "phone.py put as bob exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
    }

    /// The resource's iCalendar text as the phone reads it.
    public func get(_ resourceURL: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try phone(["get", resourceURL], sourceLocation: sourceLocation)
    }

    private static func arguments(_ kind: Kind, port: Int, folder: TemporaryFolder, tls: Bool) throws -> ([String], String?, String?) {
        switch kind {
        case .radicale:
            let users = folder.appending("users")
            try Data("ann:secret\nbob:secret\n".utf8).write(to: URL(fileURLWithPath: users))
            let config = folder.appending("radicale.conf")
            var ssl = ""
            if tls {
                let (certificate, key) = (folder.appending("cert.pem"), folder.appending("key.pem"))
                let made = try runProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                                                               "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate])
                guard made.status == 0 else { throw Failure(description: "openssl req exited \(made.status): \(made.err)") }
                ssl = "ssl = True\ncertificate = \(certificate)\nkey = \(key)\n"
            }
            // A read-only calendar's rights (makeReadOnlyCalendar), where there is one.
            let rightsFile = folder.appending("rights")
            let rights = FileManager.default.fileExists(atPath: rightsFile) ? "[rights]\ntype = from_file\nfile = \(rightsFile)\n" : ""
            // delay = 0: Radicale waits a second after a wrong password by default.
            let text = """
                [server]
                hosts = 127.0.0.1:\(port)
                \(ssl)[auth]
                type = htpasswd
                htpasswd_filename = \(users)
                htpasswd_encryption = plain
                delay = 0
                \(rights)[storage]
                filesystem_folder = \(folder.appending("storage"))
                [logging]
                level = warning

                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: config))
            return (["--config", config], "ann", "secret")
        case .xandikos:
            return (["serve", "--directory", folder.appending("storage"), "--autocreate", "--listen-address", "127.0.0.1", "--port", String(port),
                     "--no-detect-systemd", "--state-dir", folder.appending("state")], nil, nil)
        }
    }

    /// Connects every 50 ms until the port accepts, the process ends, or the time is up.
    private static func waitUntilListening(port: Int, process: Process, seconds: Double) -> Bool {
        var accepts = false
        waitUntil(seconds: seconds, every: 0.05) {
            accepts = process.isRunning && LoopbackPort.accepts(port)
            return accepts || !process.isRunning
        }
        return accepts
    }
}
