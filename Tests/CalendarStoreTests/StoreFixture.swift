import CalendarModel
import CalendarStore
import Foundation
import Testing

/// A store in a fresh temporary folder, removed when the fixture goes.
final class StoreFixture {
    let folder: String
    let path: String
    let zone: TimeZoneRules

    init(zone: String = "Asia/Shanghai") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-store-\(UUID().uuidString)").path
        path = folder + "/data/chime.db"
        self.zone = try TimeZoneRules.named(zone)
    }

    func open(now: @escaping @Sendable () -> Date = { Date() }) throws -> CalendarStore {
        try CalendarStore(path: path, machineTimeZone: zone, now: now)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    static func time(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(parsing: text)) }

    static func date(_ rfc3339: String) throws -> Date {
        Date(timeIntervalSince1970: try #require(RFC3339.instant(rfc3339)))
    }

    static func zoned(_ text: String, _ zone: String = "Asia/Shanghai") throws -> ItemTime { .zoned(try time(text), zone: zone) }
}
