import Foundation

/// What shows a firing to a person. The libnotify implementation comes
/// with the desktop notifications; until then `LogNotifier` writes a line.
public protocol Notifier: Sendable {
    /// Shows a firing; `late` marks one shown after its time (the machine
    /// was off or asleep), with its due time. Throws when it cannot be
    /// shown now (no notification server), so that it is tried again.
    func show(_ firing: Firing, late: Bool) throws
    /// Shows something the daemon itself has to say (holiday data missing).
    func showNotice(title: String, body: String) throws
}

/// Writes each firing as one line: `chimed: fired 2026-12-01T09:00:00Z Stand-up [3fa2c1d0] (late)`.
public struct LogNotifier: Notifier {
    let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    public func showNotice(title: String, body: String) throws {
        write("chimed: notice: \(title) — \(body)")
    }

    public func show(_ firing: Firing, late: Bool) throws {
        let due = Date(timeIntervalSince1970: TimeInterval(firing.instant)).ISO8601Format()
        write("chimed: fired \(due) \(firing.title) [\(firing.itemIdentifier.short)]\(late ? " (late)" : "")")
    }
}
