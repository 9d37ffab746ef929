import CommandLineInterface
import Foundation
import TestSupport
import Testing

/// The exit statuses a person can look up: README's table, chime(1)'s EXIT
/// STATUS and `chime --help` list exactly the statuses the code returns,
/// and a command ends with each of them.
@Suite("Exit statuses")
struct ExitStatusTests {
    static let root = PackagePaths.root

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
    }

    /// The first cell of each row of README's table under "Exit status of every `chime` command".
    static func readmeStatuses() throws -> [Int32] {
        let readme = try text("README.md")
        let start = try #require(readme.range(of: "Exit status of every `chime` command"), "README has no exit status table")
        var statuses: [Int32] = []
        for line in readme[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|").first?.trimmingCharacters(in: .whitespaces) ?? ""
            if let status = Int32(cell) { statuses.append(status) }
        }
        return statuses
    }

    /// The `.B N` tags of chime(1)'s EXIT STATUS section.
    static func manStatuses() throws -> [Int32] {
        let page = try text("share/man/man1/chime.1")
        let start = try #require(page.range(of: ".SH EXIT STATUS\n"), "chime.1 has no EXIT STATUS section")
        let section = page[start.upperBound...]
        var statuses: [Int32] = []
        var afterTP = false
        for line in section.split(separator: "\n") {
            if line.hasPrefix(".SH") { break }
            if afterTP, line.hasPrefix(".B "), let status = Int32(line.dropFirst(3)) { statuses.append(status) }
            afterTP = line == ".TP"
        }
        return statuses
    }

    /// The numbered lines under "Exit status:" in `chime --help`.
    static func helpStatuses() throws -> [Int32] {
        let run = CapturedRun(["--help"])
        let lines = run.output.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex(of: "Exit status:"), "chime --help lists no exit statuses")
        return lines[(start + 1)...].compactMap { line in
            line.hasPrefix("  ") ? line.split(separator: " ").first.flatMap { Int32($0) } : nil
        }
    }

    @Test("README's table, chime(1) and chime --help list exactly the statuses of ExitStatus, in order")
    func documentedStatuses() throws {
        let code = ExitStatus.all.sorted()
        #expect(code == [0, 1, 64, 65, 66, 69, 74])
        #expect(try Self.readmeStatuses() == code)
        #expect(try Self.manStatuses() == code)
        #expect(try Self.helpStatuses() == code)
    }

    @Test("no command returns a status of its own: every failure takes one from ExitStatus")
    func noLiteralStatuses() throws {
        let folder = Self.root + "/Sources/CommandLineInterface"
        var literal: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name.hasSuffix(".swift") {
            let source = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            for line in source.split(separator: "\n")
            where line.range(of: #"status: -?[0-9]+\)|exit\(-?[0-9]+\)"#, options: .regularExpression) != nil
                && !line.contains("ExitStatus") {
                literal.append("\(name): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(literal == [])
    }

    @Test("a command ends with each documented status")
    func eachStatusHappens() throws {
        let scratch = Scratch()
        _ = try scratch.store()
        let runtime = scratch.folder + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let garbage = scratch.folder + "/not-a-store.db"
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: garbage))
        let cases: [(Int32, CapturedRun)] = [
            (0, scratch.run("status")),
            (1, scratch.run("workday", "2026-10-01")),
            (64, scratch.run("list", "event")),
            (65, scratch.run("rrule", "FREQ=FORTNIGHTLY", "--start", "2026-12-01T08:50")),
            (66, scratch.run("show", "3fa2c1d0")),
            (69, CapturedRun(["daemon", "status"], environment: ["XDG_RUNTIME_DIR": runtime])),
            (74, CapturedRun(["list", "events", "--db", garbage])),
        ]
        for (status, run) in cases {
            #expect(run.status == status, "\(run.errors)")
        }
        #expect(Set(cases.map(\.0)) == Set(ExitStatus.all))
    }
}
