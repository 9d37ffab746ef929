import CalendarModel
import Foundation

/// What shows a firing to a person. The libnotify implementation comes
/// with the desktop notifications; until then `LogNotifier` writes a line.
public protocol Notifier: Sendable {
    /// Shows a firing; `late` marks one shown after its time (the machine
    /// was off or asleep), with its due time. Throws when it cannot be
    /// shown now (no notification server), so that it is tried again.
    func show(_ firing: Firing, late: Bool) throws
    /// Shows something the daemon itself has to say (holiday data missing).
    func showNotice(_ notice: DaemonNotice) throws
    /// Where a person's answers to shown firings go (a click on Snooze,
    /// Done, Dismiss), with the firing's key. Called on any thread: the
    /// daemon hops to its own queue.
    func onResponse(_ handler: @escaping @Sendable (_ key: String, _ response: NotificationResponse) -> Void)
    /// Takes a shown firing off the screen (done or dismissed elsewhere).
    func withdraw(key: String)
    /// Shows a firing as `show` does, and says which notification shows it,
    /// so that a daemon started later can take it back; nil when nothing on
    /// screen can be (the log). With `replacing`, the notification an earlier
    /// process showed is shown again in place (quietly), its buttons now
    /// answering this one.
    func present(_ firing: Firing, late: Bool, replacing: ShownNotificationID?) throws -> ShownNotificationID?
    /// Closes a notification an earlier process showed (its firing is done,
    /// removed, or no longer exists).
    func close(_ notification: ShownNotificationID)
}

/// A notification on a server: the id the server gave it, and which server
/// (its unique bus name), since another server's ids are not ours.
public struct ShownNotificationID: Hashable, Sendable {
    public var id: UInt32
    public var server: String

    public init(id: UInt32, server: String) {
        self.id = id
        self.server = server
    }
}

/// A person's answer to a shown firing.
public enum NotificationResponse: Hashable, Sendable {
    /// Ring again after this many seconds.
    case snooze(seconds: Int64)
    /// Reminders: the occurrence is done (completed).
    case done
    /// Seen; nothing more.
    case dismiss
    /// The notification itself was clicked (the default action).
    case open
    /// Closed without an answer (expired, or closed by the server or the person).
    case closed
}

extension Notifier {
    /// A notifier with no way to answer (the log) ignores the handler.
    public func onResponse(_ handler: @escaping @Sendable (_ key: String, _ response: NotificationResponse) -> Void) {}
    public func withdraw(key: String) {}
    public func present(_ firing: Firing, late: Bool, replacing: ShownNotificationID?) throws -> ShownNotificationID? {
        try show(firing, late: late)
        return nil
    }
    public func close(_ notification: ShownNotificationID) {}
}

/// Writes each firing as one line: `chimed: fired 2026-12-01T09:00:00Z Stand-up [3fa2c1d0] (late)`,
/// with ` (interrupted)` after one shown again because the last run stopped while showing it.
public struct LogNotifier: Notifier {
    let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Nothing: these lines are the firings; the daemon writes its own
    /// notices to its log (standard error), as chimed(8) says.
    public func showNotice(_ notice: DaemonNotice) throws {}

    public func show(_ firing: Firing, late: Bool) throws {
        let due = RFC3339.utc(firing.instant)
        write(TerminalText.escaped("chimed: fired \(due) \(firing.title) [\(firing.itemIdentifier.short)]\(late ? " (late)" : "")\(firing.interrupted ? " (interrupted)" : "")"))
    }
}
