import CalendarModel
import CalendarStore
import Foundation
import Testing

/// A store in a fresh temporary folder, removed when the fixture goes.
public final class StoreFixture: Sendable {
    private let temporary: TemporaryFolder
    public var folder: String { temporary.path }
    public let path: String
    public let zone: TimeZoneRules

    public convenience init(zone: String = "Asia/Shanghai", prefix: String = "chime-store") throws {
        self.init(zone: try TimeZoneRules.named(zone), prefix: prefix)
    }

    public init(zone: TimeZoneRules, prefix: String = "chime-store") {
        // Not created here: the store makes its own folders, as on a first run.
        temporary = TemporaryFolder(prefix, create: false)
        path = temporary.path + "/data/chime.db"
        self.zone = zone
    }

    /// A runtime folder beside the store, for a daemon's socket and lock.
    public var runtime: String { folder + "/run" }

    /// Makes `runtime`, 0700 as `XDG_RUNTIME_DIR` must be.
    public func makeRuntime() throws {
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// A UTC store and its runtime folder, made, as a daemon test starts from.
    public static func daemonFolder(_ prefix: String) throws -> StoreFixture {
        let fixture = StoreFixture(zone: .utc, prefix: prefix)
        try fixture.makeRuntime()
        return fixture
    }

    public func open(now: @escaping @Sendable () -> Date = { Date() }) throws -> CalendarStore {
        try CalendarStore(path: path, machineTimeZone: zone, now: now)
    }

    public static func time(_ text: String) throws -> LocalDateTime { try localTime(text) }

    public static func date(_ rfc3339: String) throws -> Date { try rfc3339Date(rfc3339) }

    public static func zoned(_ text: String, _ zone: String = "Asia/Shanghai") throws -> ItemTime { .zoned(try time(text), zone: zone) }
}
