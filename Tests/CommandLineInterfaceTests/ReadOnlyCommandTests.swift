import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Testing

/// Commands that only read never create the store: with none there, they
/// answer as an empty store would and leave no file and no folder behind.
@Suite("Read-only commands without a store")
struct ReadOnlyCommandTests {
    static let commands: [[String]] = [
        ["list", "events"], ["list", "reminders"], ["agenda"], ["next"], ["missed"], ["calendars"], ["workday", "2026-10-01"],
        ["workdays", "--from", "2026-09-30", "--to", "2026-10-10"], ["holidays"], ["holidays", "status"], ["holidays", "week"],
        ["location", "--status"], ["location"], ["show", "3fa2c1d0"], ["next", "--json"], ["calendars", "--json"], ["find", "dentist"],
        ["leave", "list"],
    ]

    @Test("each answers with the status and output of an empty store, and creates no store",
          arguments: commands)
    func noStoreCreated(_ arguments: [String]) throws {
        let missing = Scratch(), empty = Scratch()
        // No store in the folder yet (a folder that is not there is a mistyped path: ValueCheckTests).
        let path = missing.folder + "/chime.db"
        _ = try empty.store()
        let withoutStore = CapturedRun(arguments + ["--db", path], machineZone: missing.zone, now: missing.now)
        let withEmptyStore = empty.run(arguments)
        #expect(withoutStore.status == withEmptyStore.status, "\(withoutStore.errors)")
        // The empty store's default calendar has an identifier of its own; nothing else differs.
        func masked(_ lines: [String]) -> [String] {
            lines.map { $0.replacingOccurrences(of: #"[0-9a-f]{32}"#, with: "ID", options: .regularExpression) }
        }
        #expect(masked(withoutStore.output) == masked(withEmptyStore.output))
        #expect(withoutStore.errors == withEmptyStore.errors.map { $0.replacingOccurrences(of: empty.path, with: path) })
        #expect(!FileManager.default.fileExists(atPath: path), "chime \(arguments.joined(separator: " ")) created \(path)")
    }

    @Test("a command that writes still creates the store at its default location, mode 0600 in a 0700 folder")
    func writerCreates() throws {
        let scratch = Scratch()
        // The default location ($XDG_DATA_HOME/chime/chime.db) is the one whose folders chime makes.
        let path = scratch.folder + "/data/chime/chime.db"
        let run = CapturedRun(["calendar", "add", "Work"], machineZone: scratch.zone, now: scratch.now,
                              environment: ["XDG_DATA_HOME": scratch.folder + "/data"])
        #expect(run.status == 0, "\(run.errors)")
        let file = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        let folder = try FileManager.default.attributesOfItem(atPath: scratch.folder + "/data/chime")[.posixPermissions] as? Int
        #expect(file == 0o600 && folder == 0o700)
    }
}
