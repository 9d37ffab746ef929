@testable import CommandLineInterface
import Foundation
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
}
