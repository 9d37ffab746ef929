import AlarmScheduler
import CLibnotify
import Foundation
import Synchronization

/// The notifications a `DesktopNotifier` has on screen, by root key, and
/// the libnotify calls that show, replace and close them. Everything but
/// `setHandler` runs on the GLib thread, which is what keeps `entries`
/// consistent without a lock (and `GLibBound` checks).
final class NotificationTable: @unchecked Sendable {
    /// One notification on screen (as far as the server last told us).
    final class Entry {
        let rootKey: String
        /// The key of the firing shown now: what answers are reported with.
        var key: String
        let notification: UnsafeMutablePointer<NotifyNotification>
        var actions: [String: NotificationResponse] = [:]
        /// An answer was given or it was withdrawn: the close that follows is no news.
        var settled = false
        weak var table: NotificationTable?

        init(rootKey: String, key: String, notification: UnsafeMutablePointer<NotifyNotification>, table: NotificationTable) {
            self.rootKey = rootKey
            self.key = key
            self.notification = notification
            self.table = table
        }
    }

    let options: DesktopNotifier.Options
    private var entries = GLibBound<[String: Entry]>([:])
    private let handler = Mutex<(@Sendable (String, NotificationResponse) -> Void)?>(nil)
    /// Answers are handed on from here, in order, so that a handler that
    /// calls back into the notifier never waits on the GLib thread it was
    /// called from.
    private let responses = DispatchQueue(label: "chime.notifications.responses")

    init(options: DesktopNotifier.Options) {
        self.options = options
    }

    /// Every table of the process, for `serverVanished` (GLib thread only).
    nonisolated(unsafe) private static var tables = GLibBound<[Weak]>([])
    private struct Weak { weak var table: NotificationTable? }

    /// The notification server left the bus: nothing of ours is on screen
    /// any more. Nobody answered, so nothing is reported.
    static func serverVanished() {
        tables.value.removeAll { $0.table == nil }
        for case let table? in tables.value.map(\.table) {
            for entry in table.entries.value.values {
                entry.settled = true
                chime_object_unref(entry.notification)
            }
            table.entries.value.removeAll()
        }
    }

    func setHandler(_ handler: @escaping @Sendable (String, NotificationResponse) -> Void) {
        self.handler.withLock { $0 = handler }
    }

    /// Shows `content`: replaces the notification of the same root key while
    /// it is on screen, else makes a new one, in place of the server's
    /// notification `replacing` when that is given (one an earlier process
    /// showed). Returns the id the server gave it (0 for a notice).
    @discardableResult
    func present(_ content: NotificationContent, replacing: UInt32? = nil) throws(NotificationError) -> UInt32 {
        let icon = options.icon.isEmpty ? nil : options.icon
        guard let rootKey = content.rootKey, let key = content.key else {
            // A notice: shown once, never answered, so not kept.
            let notification = notify_notification_new(content.summary, content.body, icon)!
            defer { chime_object_unref(notification) }
            configure(notification, content)
            try send(notification)
            return 0
        }
        if let entry = entries.value[rootKey] {
            notify_notification_update(entry.notification, content.summary, content.body, icon)
            notify_notification_clear_actions(entry.notification)
            entry.key = key
            entry.settled = false
            configure(entry.notification, content)
            addActions(content.actions, to: entry)
            try send(entry.notification)
            return chime_notification_id(entry.notification)
        }
        let notification = notify_notification_new(content.summary, content.body, icon)!
        if let replacing, replacing > 0 { chime_notification_set_id(notification, replacing) }
        let entry = Entry(rootKey: rootKey, key: key, notification: notification, table: self)
        configure(notification, content)
        addActions(content.actions, to: entry)
        _ = chime_notification_connect_closed(notification, { notification, data in
            guard let data else { return }
            let entry = Unmanaged<Entry>.fromOpaque(data).takeUnretainedValue()
            entry.table?.closed(entry)
        }, Unmanaged.passRetained(entry).toOpaque(), { data, _ in
            if let data { Unmanaged<Entry>.fromOpaque(data).release() }
        })
        do {
            try send(notification)
        } catch {
            chime_object_unref(notification)
            throw error
        }
        if entries.value.isEmpty, !Self.tables.value.contains(where: { $0.table === self }) { Self.tables.value.append(Weak(table: self)) }
        entries.value[rootKey] = entry
        return chime_notification_id(notification)
    }

    /// Closes the server's notification `id`, one this process did not show
    /// (an earlier daemon did).
    static func close(id: UInt32) {
        GLibThread.preconditionCurrent()
        guard let notification = notify_notification_new("Chime", nil, nil) else { return }
        defer { chime_object_unref(notification) }
        chime_notification_set_id(notification, id)
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(notification, &error) == 0 {
            _ = SessionBus.consume(error)
        }
    }

    /// Closes the notification whose shown key or root key is `key`.
    func withdraw(key: String) {
        guard let entry = entries.value[key] ?? entries.value.values.first(where: { $0.key == key }) else { return }
        entry.settled = true
        entries.value[entry.rootKey] = nil
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(entry.notification, &error) == 0 {
            _ = SessionBus.consume(error)
        }
        chime_object_unref(entry.notification)
    }

    /// The server closed it: expired, closed by the person, or after an
    /// answer (then already reported).
    func closed(_ entry: Entry) {
        guard entries.value[entry.rootKey] === entry else { return }
        entries.value[entry.rootKey] = nil
        if !entry.settled { report(entry.key, .closed) }
        entry.settled = true
        // libnotify holds its own reference while it emits "closed".
        chime_object_unref(entry.notification)
    }

    func answered(_ entry: Entry, action: String) {
        guard let response = entry.actions[action] else { return }
        entry.settled = true
        report(entry.key, response)
    }

    private func report(_ key: String, _ response: NotificationResponse) {
        guard let handler = handler.withLock({ $0 }) else { return }
        responses.async { handler(key, response) }
    }

    private func configure(_ notification: UnsafeMutablePointer<NotifyNotification>, _ content: NotificationContent) {
        notify_notification_set_app_name(notification, options.appName)
        let urgency: NotifyUrgency = switch content.urgency {
        case .low: NOTIFY_URGENCY_LOW
        case .normal: NOTIFY_URGENCY_NORMAL
        case .critical: NOTIFY_URGENCY_CRITICAL
        }
        notify_notification_set_urgency(notification, urgency)
        if !content.category.isEmpty { notify_notification_set_category(notification, content.category) }
        if !options.desktopEntry.isEmpty {
            notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(options.desktopEntry))
        }
        notify_notification_set_hint(notification, "sound-name",
                                     content.sound && !options.soundName.isEmpty ? g_variant_new_string(options.soundName) : nil)
    }

    private func addActions(_ actions: [NotificationAction], to entry: Entry) {
        entry.actions = Dictionary(actions.map { ($0.id, $0.response) }, uniquingKeysWith: { first, _ in first })
        for action in actions {
            // Each action holds the entry until libnotify drops the action
            // (cleared on replace, or the notification finalized).
            notify_notification_add_action(entry.notification, action.id, action.label, { _, action, data in
                guard let data, let action else { return }
                let entry = Unmanaged<Entry>.fromOpaque(data).takeUnretainedValue()
                entry.table?.answered(entry, action: String(cString: action))
            }, Unmanaged.passRetained(entry).toOpaque(), { data in
                if let data { Unmanaged<Entry>.fromOpaque(data).release() }
            })
        }
    }

    private func send(_ notification: UnsafeMutablePointer<NotifyNotification>) throws(NotificationError) {
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(notification, &error) != 0 else {
            throw .serverUnavailable(message: SessionBus.consume(error))
        }
    }
}
