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
    func showNotice(title: String, body: String) throws
    /// Where a person's answers to shown firings go (a click on Snooze,
    /// Done, Dismiss), with the firing's key. Called on any thread: the
    /// daemon hops to its own queue.
    func onResponse(_ handler: @escaping @Sendable (_ key: String, _ response: NotificationResponse) -> Void)
    /// Takes a shown firing off the screen (done or dismissed elsewhere).
    func withdraw(key: String)
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
}

/// Writes each firing as one line: `chimed: fired 2026-12-01T09:00:00Z Stand-up [3fa2c1d0] (late)`.
public struct LogNotifier: Notifier {
    let write: @Sendable (String) -> Void

    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    // A line each, with the title's control characters escaped: a title
    // cannot end its line early and forge another (see `TerminalText`).
    public func showNotice(title: String, body: String) throws {
        write(TerminalText.escaped("chimed: notice: \(title) — \(body)"))
    }

    public func show(_ firing: Firing, late: Bool) throws {
        let due = Date(timeIntervalSince1970: TimeInterval(firing.instant)).ISO8601Format()
        write(TerminalText.escaped("chimed: fired \(due) \(firing.title) [\(firing.itemIdentifier.short)]\(late ? " (late)" : "")"))
    }
}
