import Foundation
import TestSupport
import Testing

/// The quick start's scripts: running installs only what running needs,
/// testing what testing needs, each says what before it installs it, and
/// README describes the scripts as they are.
@Suite("contrib scripts and the quick start")
struct ContribScriptsTests {
    static let root = PackagePaths.root

    static let runPackages = ["tzdata", "pkg-config", "libsqlite3-dev", "libnotify-dev", "libcurl4", "libsecret-tools", "libxml2-dev"]
    static let testOnly = ["dbus-daemon", "dbus-bin", "xvfb", "dunst", "desktop-file-utils", "libxml2-utils", "groff-base", "man-db",
                           "bash-completion", "systemd", "python3", "python3-venv", "libical-dev", "openssl", "gnome-keyring"]

    /// Runs `contrib/setup ARGUMENTS` with `PATH` starting at `stubs`; returns its status, output and errors.
    static func setup(_ arguments: [String], stubs: String? = nil) throws -> (status: Int32, out: String, err: String) {
        var environment = ProcessInfo.processInfo.environment
        if let stubs { environment["PATH"] = stubs + ":/usr/bin:/bin" }
        environment["CHIME_SETUP_YES"] = nil
        return try runProcess("/bin/bash", [root + "/contrib/setup"] + arguments, environment: environment)
    }

    /// A folder of stand-ins: dpkg-query that finds nothing installed, and
    /// apt-get and sudo that only log how they were called.
    final class Stubs {
        let temporary = TemporaryFolder("chime-setup")
        var folder: String { temporary.path }
        var log: String { folder + "/calls.log" }

        init() throws {
            let scripts = [
                "dpkg-query": "#!/bin/sh\nexit 1\n",
                "apt-get": "#!/bin/sh\necho \"apt-get $*\" >>\(log)\n",
                "sudo": "#!/bin/sh\necho \"sudo\" >>\(log)\nexec \"$@\"\n",
            ]
            for (name, text) in scripts {
                try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/" + name)
            }
        }

        var calls: [String] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init).filter { $0 != "sudo" }
        }
    }

    @Test("running needs only the toolchain's packages; testing adds the notification server's and the validators'")
    func packageLists() throws {
        let run = try Self.setup(["--list", "run"]), test = try Self.setup(["--list", "test"])
        #expect(run.status == 0 && test.status == 0)
        #expect(run.out.split(separator: "\n").map(String.init) == Self.runPackages)
        #expect(test.out.split(separator: "\n").map(String.init) == Self.runPackages + Self.testOnly)
        let screenshot = try Self.setup(["--list", "screenshot"]).out.split(separator: "\n").map(String.init)
        #expect(screenshot == Self.runPackages + Self.testOnly + ["libnotify-bin", "imagemagick"])
        #expect(try Self.setup(["tests"]).status == 64)
        #expect(try Self.setup([]).status == 64)
    }

    @Test("--dry-run says what it would install and installs nothing")
    func dryRun() throws {
        let stubs = try Stubs()
        let run = try Self.setup(["--dry-run", "run"], stubs: stubs.folder)
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "contrib/setup: to build and run Chime, would install these Debian packages: "
                + Self.runPackages.joined(separator: " ") + "\n")
        let test = try Self.setup(["--dry-run", "test"], stubs: stubs.folder)
        #expect(test.out.hasSuffix((Self.runPackages + Self.testOnly).joined(separator: " ") + "\n"))
        #expect(stubs.calls == [])
    }

    @Test("installing names the packages first, then installs exactly those")
    func installs() throws {
        let stubs = try Stubs()
        let run = try Self.setup(["run"], stubs: stubs.folder)
        #expect(run.status == 0, "\(run.err)")
        let lines = run.err.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("contrib/setup: to build and run Chime, installing these Debian packages with ") == true)
        #expect(lines.first?.hasSuffix("apt-get: " + Self.runPackages.joined(separator: " ")) == true, "\(lines)")
        #expect(stubs.calls == ["apt-get update -qq", "apt-get install -y -qq " + Self.runPackages.joined(separator: " ")])
    }

    static func text(_ relative: String) throws -> String { try String(contentsOfFile: root + "/" + relative, encoding: .utf8) }

    @Test("the run scripts set up for running, the test script for testing")
    func scriptsPickTheirRole() throws {
        for (script, line) in [("contrib/chimed", "contrib/setup run"), ("contrib/chime", "contrib/setup run"), ("contrib/test", "contrib/setup test")] {
            let lines = try Self.text(script).split(separator: "\n").map(String.init)
            #expect(lines.filter { $0.hasPrefix("contrib/setup") } == [line], "\(script)")
        }
    }

    @Test("README's quick start is two commands, and its contrib/screenshot usage is the script's")
    func readme() throws {
        let readme = try Self.text("README.md")
        let start = try #require(readme.range(of: "## Quick start"))
        let block = try #require(readme[start.upperBound...].components(separatedBy: "```sh\n").dropFirst().first?
            .components(separatedBy: "```").first)
        #expect(block.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" } == ["contrib/chimed", "contrib/test"])

        let script = try Self.text("contrib/screenshot")
        let usage = try #require(script.range(of: #"usage: \$0 [^"]*"#, options: .regularExpression).map { script[$0].dropFirst("usage: $0 ".count) })
        #expect(readme.contains("`contrib/screenshot \(usage)`"), "README does not give 'contrib/screenshot \(usage)'")
        #expect(!readme.contains("contrib/screenshot DIR"))
    }
}
