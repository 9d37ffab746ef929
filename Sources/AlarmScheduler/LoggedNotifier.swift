import Foundation

/// Shows through another notifier and, once it has, writes the log's line
/// too: the desktop gets the notification, standard output (the journal
/// under systemd) a record of it, and scripts a line to wait for.
public struct LoggedNotifier: Notifier {
    let notifier: any Notifier
    let log: LogNotifier

    public init(_ notifier: any Notifier, log: LogNotifier) {
        self.notifier = notifier
        self.log = log
    }

    public func show(_ firing: Firing, late: Bool) throws {
        try notifier.show(firing, late: late)
        try log.show(firing, late: late)
    }

    public func showNotice(_ notice: DaemonNotice) throws {
        try notifier.showNotice(notice)
        try log.showNotice(notice)
    }

    public func onResponse(_ handler: @escaping @Sendable (_ key: String, _ response: NotificationResponse) -> Void) {
        notifier.onResponse(handler)
    }

    public func withdraw(key: String) {
        notifier.withdraw(key: key)
    }

    public func present(_ firing: Firing, late: Bool, replacing: ShownNotificationID?) throws -> ShownNotificationID? {
        let shown = try notifier.present(firing, late: late, replacing: replacing)
        // Shown again after a restart is no new firing: no second line.
        if replacing == nil { try log.show(firing, late: late) }
        return shown
    }

    public func close(_ notification: ShownNotificationID) {
        notifier.close(notification)
    }
}
