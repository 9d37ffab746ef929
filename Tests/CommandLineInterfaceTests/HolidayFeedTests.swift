import CalendarExchange
@testable import CommandLineInterface
import Foundation
import HTTPDownload
import TestSupport
import Testing

@Suite("Fetching holiday-cn files from a web address or a folder")
struct HolidayFeedTests {
    let file2021 = Array(#"{"year": 2021, "papers": [], "days": [{"name": "元旦", "date": "2021-01-01", "isOffDay": true}]}"#.utf8)

    @Test("a base address gets /YEAR.json added, a pattern has {year} replaced; a missing year is nil, not an error")
    func web() throws {
        let server = try LoopbackHTTPServer(files: ["/2021.json": file2021, "/mirror/cn-2021.json": file2021])
        let base = try #require(try HolidayFeed(server.base + "/").fetch(year: 2021))
        #expect(base.bytes == file2021)
        #expect(base.origin == server.base + "/2021.json")
        let pattern = try #require(try HolidayFeed(server.base + "/mirror/cn-{year}.json").fetch(year: 2021))
        #expect(pattern.bytes == file2021)
        #expect(try HolidayFeed(server.base).fetch(year: 2030) == nil)
        #expect(server.requests == ["/2021.json", "/mirror/cn-2021.json", "/2030.json"])
    }

    @Test("a server that is not there is an error naming the address")
    func unreachable() throws {
        let server = try LoopbackHTTPServer(files: [:])
        let base = server.base
        server.stop()
        #expect {
            try HolidayFeed(base).fetch(year: 2021, timeout: 5)
        } throws: { error in
            "\(error)".contains(base + "/2021.json")
        }
    }

    @Test("a folder gives YEAR.json from it, and nil for a year it lacks")
    func folder() throws {
        let folder = TemporaryFolder("chime-holidays")
        try Data(file2021).write(to: URL(fileURLWithPath: folder.appending("2021.json")))
        #expect(try HolidayFeed(folder.path).fetch(year: 2021)?.bytes == file2021)
        #expect(try HolidayFeed(folder.path).fetch(year: 2022) == nil)
    }

    private func code(_ body: () throws(HolidayFeedError) -> Void) -> HolidayFeedError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a --from that is not a source, a missing folder and a file each have their code and exit status")
    func sourceCodes() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chime-holidays-\(UUID().uuidString).json").path
        try Data(file2021).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let cases: [(text: String, code: HolidayFeedError.Code, status: Int32)] = [
            ("ftp://example.org/holidays", .notASource, ExitStatus.dataError),
            (file + ".d", .noSuchFolder, ExitStatus.notFound),
            (file, .notAFolder, ExitStatus.dataError),
        ]
        for (text, expected, status) in cases {
            do {
                _ = try HolidayFeed(text)
                Issue.record("'\(text)' was taken as a source")
            } catch {
                #expect(error.code == expected, "'\(text)'")
                #expect(error.status == status, "'\(text)'")
            }
        }
    }

    @Test("a server that is not there fails the download with libcurl's could-not-connect code")
    func unreachableCode() throws {
        let server = try LoopbackHTTPServer(files: [:])
        let base = server.base
        server.stop()
        // CURLE_COULDNT_CONNECT.
        #expect(code { () throws(HolidayFeedError) in _ = try HolidayFeed(base).fetch(year: 2021, timeout: 5) } == .download(.transfer(7)))
    }

    @Test("an answer longer than the largest body taken is refused as too large")
    func tooLarge() throws {
        let server = try LoopbackHTTPServer(files: ["/2021.json": [UInt8](repeating: 32, count: LibCurl.maximumBody + 1)])
        #expect(code { () throws(HolidayFeedError) in _ = try HolidayFeed(server.base).fetch(year: 2021, timeout: 30) } == .download(.tooLarge))
    }
}
