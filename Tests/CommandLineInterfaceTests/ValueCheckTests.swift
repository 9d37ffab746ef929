import CalendarModel
import CalendarStore
import CommandLineInterface
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Small refusals: a wrong value is 65 wherever it is given, a source or a
/// store path that is not there fails, and what chime creates is private.
@Suite("Values and paths chime refuses")
struct ValueCheckTests {
    @Test("a wrong option value gets 65 in every command, naming the option and the value")
    func wrongValuesAre65() throws {
        let scratch = Scratch()
        let series = scratch.add("event", "Stand-up", "--start", "2026-12-01T08:50", "--repeat", "FREQ=DAILY")
        let cases: [[String]] = [
            ["next", "--count", "abc"],
            ["missed", "--count", "abc"],
            ["rrule", "FREQ=DAILY", "--start", "2026-12-01T08:00", "--count", "abc"],
            ["edit", series, "--occurrence", "2026-12-02T08:50", "--span", "sometimes", "--title", "x"],
            ["remove", series, "--occurrence", "2026-12-02T08:50", "--span", "sometimes"],
            ["add", "reminder", "X", "--alarm-arrive", "31,121", "--first-position", "loud"],
        ]
        for arguments in cases {
            let option = try #require(arguments.first { ["--count", "--span", "--first-position"].contains($0) })
            let value = try #require(arguments.firstIndex(of: option).map { arguments[$0 + 1] })
            try scratch.refuses(arguments, status: 65, mentioning: [option, "'\(value)'"])
        }
    }

    @Test("coordinates are decimal numbers and a radius is at most 1000 km")
    func coordinates() throws {
        let scratch = Scratch()
        _ = try scratch.store()
        for value in ["0x10,0", "16,0x10", "1e1,0", "10,10,1e3", "inf,0", "nan,0", "10,10,0x64", "+-1,0", "1.2.3,0"] {
            try scratch.refuses(["add", "reminder", "X", "--alarm-arrive", value], status: 65, mentioning: ["--alarm-arrive '\(value)'"])
        }
        try scratch.refuses(["add", "reminder", "X", "--alarm-leave", "10,10,1000000000000"], status: 65,
                            mentioning: ["radius", "1000 km"])
        try scratch.refuses(["add", "reminder", "X", "--alarm-leave", "10,10,1000000.5"], status: 65, mentioning: ["radius"])
        let id = scratch.add("reminder", "Far", "--alarm-arrive", "-33.8688,+151.2093,1000000")
        let alarm = try #require((try scratch.ok("show", id, "--json").json()["alarms"] as? [[String: Any]])?.first)
        #expect(alarm["latitude"] as? Double == -33.8688 && alarm["longitude"] as? Double == 151.2093, "\(alarm)")
        #expect(alarm["radius"] as? Double == 1_000_000, "\(alarm)")
    }

    @Test("holidays update --from a missing folder, a file, or an ftp:// or file:// address fails and imports nothing")
    func updateFromNowhere() throws {
        let scratch = Scratch()
        _ = try scratch.store()
        let file = scratch.folder + "/2021.json"
        try Data("{}".utf8).write(to: URL(fileURLWithPath: file))
        try scratch.refuses(["holidays", "update", "--from", "/nonexistent/folder"], status: 66,
                            mentioning: ["/nonexistent/folder", "no such folder", "nothing imported"])
        try scratch.refuses(["holidays", "update", "--from", file], status: 65, mentioning: [file, "not a folder"])
        try scratch.refuses(["holidays", "update", "--from", "ftp://example.com/holidays"], status: 65,
                            mentioning: ["ftp://example.com/holidays", "http(s)"])
        try scratch.refuses(["holidays", "update", "--from", "file://" + scratch.folder], status: 65, mentioning: ["file://"])
    }

    @Test("an empty file at the store's path becomes a store with mode 0600")
    func emptyFileBecomesPrivate() throws {
        let scratch = Scratch()
        #expect(FileManager.default.createFile(atPath: scratch.path, contents: nil, attributes: [.posixPermissions: 0o644]))
        scratch.add("reminder", "Kept")
        var status = stat()
        try #require(stat(scratch.path, &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600, "mode \(String(status.st_mode & 0o777, radix: 8))")
        #expect(scratch.ok("list", "reminders", "--all").output.count == 1)
    }

    @Test("--db or CHIME_DB in a folder that does not exist is an error naming the folder, for a command that writes or reads; nothing is created")
    func missingFolderIsNotCreated() throws {
        let scratch = Scratch()
        let missing = scratch.folder + "/typo/deeper"
        let run = CapturedRun(["add", "reminder", "X", "--db", missing + "/chime.db"])
        #expect(run.status == 74, "\(run.errors)")
        #expect(run.errors.first?.contains("no folder \(missing)") == true, "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.folder + "/typo"))
        let fromEnvironment = CapturedRun(["add", "reminder", "X"], environment: ["CHIME_DB": missing + "/chime.db"])
        #expect(fromEnvironment.status == 74 && fromEnvironment.errors.first?.contains("CHIME_DB") == true, "\(fromEnvironment.errors)")
        #expect(!FileManager.default.fileExists(atPath: scratch.folder + "/typo"))
        // A command that only reads says so too, rather than answering as an empty store would.
        let reading = CapturedRun(["list", "events", "--db", missing + "/chime.db"])
        #expect(reading.status == 74 && reading.errors.first?.contains("no folder \(missing)") == true, "\(reading.errors)")
        // --db before the command is the same option.
        for first in [["--db", missing + "/chime.db", "list", "events"], ["--db=" + missing + "/chime.db", "list", "events"]] {
            let before = CapturedRun(first)
            #expect(before.status == 74 && before.errors.first?.contains("chime list events: no folder \(missing)") == true, "\(before.errors)")
        }
        let placed = scratch.folder + "/placed.db"
        #expect(CapturedRun(["--db", placed, "add", "reminder", "Placed"]).status == 0)
        #expect(CapturedRun(["list", "reminders", "--db", placed]).output.first?.contains("Placed") == true)
        #expect(CapturedRun(["--db", placed]).status == 64)
        // The default location's folders are still made.
        let home = scratch.folder + "/home"
        let first = CapturedRun(["add", "reminder", "X"], environment: ["HOME": home, "XDG_RUNTIME_DIR": home + "/run"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/chime/chime.db"))
    }

    @Test("an argument that is not UTF-8 is refused with 65 naming it, and nothing is saved")
    func nonUTF8Argument() throws {
        try #require(FileManager.default.fileExists(atPath: ConcurrentWritersTests.executable), "build chime first")
        let scratch = Scratch()
        _ = try scratch.store()
        let home = scratch.folder
        let run = try Self.spawn([Array("add".utf8), Array("reminder".utf8), [0x63, 0x61, 0x66, 0xE9], Array("--db".utf8),
                                  Array(scratch.path.utf8)], environment: ["HOME=\(home)", "XDG_RUNTIME_DIR=\(home)/run"])
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains(#"argument 3 is not UTF-8 text: 'caf\xe9'"#), "\(run.errors)")
        #expect(scratch.ok("list", "reminders", "--all").output == ["No reminders."])
        let value = try Self.spawn([Array("add".utf8), Array("reminder".utf8), Array("X".utf8), Array("--notes".utf8), [0xFF, 0x41],
                                    Array("--db".utf8), Array(scratch.path.utf8)], environment: ["HOME=\(home)", "XDG_RUNTIME_DIR=\(home)/run"])
        #expect(value.status == 65 && value.errors.contains(#"argument 5 (after --notes) is not UTF-8 text: '\xffA'"#),
                "\(value.errors)")
        #expect(scratch.ok("list", "reminders", "--all").output == ["No reminders."])
    }

    /// Runs the built `chime` with arguments as raw bytes (Foundation's
    /// `Process` takes only valid strings); its status and standard error.
    static func spawn(_ arguments: [[UInt8]], environment: [String]) throws -> (status: Int32, errors: String) {
        let program = ConcurrentWritersTests.executable
        var pipe: [Int32] = [0, 0]
        try #require(Glibc.pipe(&pipe) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        let argv: [UnsafeMutablePointer<CChar>?] = ([Array(program.utf8)] + arguments).map { bytes in
            let pointer = malloc(bytes.count + 1)!.assumingMemoryBound(to: CChar.self)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, envp)
        close(pipe[1])
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var errors: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipe[0], &buffer, buffer.count)
            if count <= 0 { break }
            errors += buffer[0..<count]
        }
        close(pipe[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return ((status >> 8) & 0xFF, String(decoding: errors, as: UTF8.self))
    }
}
