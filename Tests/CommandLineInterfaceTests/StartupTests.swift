import CalendarModel
import CCurl
@testable import CommandLineInterface
import Foundation
import HTTPDownload
import TestSupport
import Testing

/// What the built `chime` process loads: the libraries only one command
/// needs are loaded by that command alone.
@Suite("chime's start-up: what each command loads")
struct StartupTests {
    /// The `chime` built beside these tests.
    static let executable = PackagePaths.builtExecutable("chime")

    /// Runs `chime ARGUMENTS` with the dynamic loader naming every file it
    /// loads (`LD_DEBUG=files`, on standard error with the command's own
    /// messages): the exit status and the names of the files loaded.
    static func run(_ arguments: [String], store: String) throws -> (status: Int32, loaded: [String], errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let folder = (store as NSString).deletingLastPathComponent
        process.environment = ["CHIME_DB": store, "XDG_RUNTIME_DIR": folder, "HOME": folder, "PATH": "/usr/bin:/bin",
                               "LD_DEBUG": "files"]
        let errorPath = folder + "/stderr-\(UUID().uuidString)"
        // A file that could not be made fails two lines on, when it is opened.
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errorPath) }
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // A generous bound, only to tell a hang from an answer.
        waitUntil(seconds: 60, every: 0.01) { !process.isRunning }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let errors = try String(contentsOfFile: errorPath, encoding: .utf8)
        // "     1234:\tfile=libcurl.so.4 [0];  needed by /usr/lib/…/libFoundationNetworking.so [0]"
        let loaded = errors.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "[" })
        }
        return (process.terminationStatus, loaded, errors)
    }

    @Test("commands that do not fetch load neither libcurl, TLS nor FoundationNetworking",
          arguments: [["workday"], ["next", "--count", "1"], ["status"], ["add", "reminder", "Tea", "--due", "2030-01-01 09:00"],
                      ["list", "reminders"], ["holidays", "status"]])
    func noNetworkLibraries(arguments: [String]) throws {
        let folder = TemporaryFolder("chime-startup"), store = folder.appending("chime.db")
        let run = try Self.run(arguments, store: store)
        // `chime workday` answers 1 on a day off.
        #expect(run.status == 0 || (arguments == ["workday"] && run.status == 1), "\(run.errors.suffix(2000))")
        // The loader did name its files: the test sees what was loaded.
        #expect(run.loaded.contains { $0.contains("libsqlite3") }, "LD_DEBUG=files named: \(run.loaded)")
        let network = run.loaded.filter { name in
            ["libcurl", "FoundationNetworking", "libssl", "libcrypto", "libgnutls", "libnghttp2", "libssh2", "libldap", "libgssapi"]
                .contains { name.contains($0) }
        }
        #expect(network.isEmpty, "chime \(arguments.joined(separator: " ")) loaded \(network)")
    }

    @Test("chime holidays update opens libcurl when it fetches, and imports what it fetched")
    func updateOpensLibcurl() throws {
        let folder = TemporaryFolder("chime-startup"), store = folder.appending("chime.db")
        // The process reads its own clock: each year near it gets a day off named after
        // the year, on a weekday of June.
        let thisYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        var files: [String: [UInt8]] = [:]
        var days: [Int: CivilDate] = [:]
        for year in (thisYear - 1)...(thisYear + 2) {
            let day = (15...21).lazy.compactMap { CivilDate(year: year, month: 6, day: $0) }
                .first { ![.saturday, .sunday].contains($0.weekday) }!
            days[year] = day
            files["/\(year).json"] = Array(#"{"year": \#(year), "papers": [], "days": [{"name": "test\#(year)", "date": "\#(day)", "isOffDay": true}]}"#.utf8)
        }
        let server = try LoopbackHTTPServer(files: files)
        let run = try Self.run(["holidays", "update", "--from", server.base], store: store)
        #expect(run.status == 0, "\(run.errors.suffix(2000))")
        #expect(run.loaded.contains { $0.contains(LibCurl.soname) }, "LD_DEBUG=files named: \(run.loaded)")
        let fetched = try #require(days.keys.filter { server.requests.contains("/\($0).json") }.max(), "requests: \(server.requests)")
        let workday = try Self.run(["workday", "\(days[fetched]!)"], store: store)
        #expect(workday.status == 1, "\(days[fetched]!) is a day off once imported: \(workday.errors.suffix(500))")
    }

    @Test("the libcurl option numbers CCurl spells out are the library's own")
    func optionNumbers() throws {
        let curl = try LibCurl.shared.get()
        let options: [(String, Int32)] = [
            ("WRITEDATA", CHIME_CURLOPT_WRITEDATA), ("URL", CHIME_CURLOPT_URL), ("ERRORBUFFER", CHIME_CURLOPT_ERRORBUFFER),
            ("USERAGENT", CHIME_CURLOPT_USERAGENT), ("LOW_SPEED_LIMIT", CHIME_CURLOPT_LOW_SPEED_LIMIT),
            ("LOW_SPEED_TIME", CHIME_CURLOPT_LOW_SPEED_TIME), ("FOLLOWLOCATION", CHIME_CURLOPT_FOLLOWLOCATION),
            ("MAXREDIRS", CHIME_CURLOPT_MAXREDIRS), ("NOSIGNAL", CHIME_CURLOPT_NOSIGNAL),
            ("ACCEPT_ENCODING", CHIME_CURLOPT_ACCEPT_ENCODING), ("TIMEOUT_MS", CHIME_CURLOPT_TIMEOUT_MS),
            ("CONNECTTIMEOUT_MS", CHIME_CURLOPT_CONNECTTIMEOUT_MS), ("PROTOCOLS", CHIME_CURLOPT_PROTOCOLS),
            ("REDIR_PROTOCOLS", CHIME_CURLOPT_REDIR_PROTOCOLS), ("WRITEFUNCTION", CHIME_CURLOPT_WRITEFUNCTION),
        ]
        for (name, number) in options {
            let own = try #require(curl.optionNumber(name), "this libcurl has no curl_easy_option_by_name (before 7.73)")
            #expect(own == number, "CURLOPT_\(name)")
        }
    }
}
