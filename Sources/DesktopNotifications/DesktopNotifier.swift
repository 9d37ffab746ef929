import AlarmScheduler
import CalendarModel
import Foundation
import Synchronization

/// Shows firings as desktop notifications through libnotify, with Snooze,
/// Done (reminders) and Dismiss buttons, and tells the daemon what the
/// person answered.
///
/// Every libnotify call runs on one GLib thread per process (see
/// `GLibThread`) and is bounded by `Options.watchdog`: `show` throws when
/// there is no bus, no server, or no answer in time, so that the daemon
/// keeps the firing undelivered and tries again. Showing a firing whose
/// `rootKey` is still on screen replaces that notification instead of
/// stacking a second one. `present` says which server notification shows a
/// firing, and takes one an earlier process showed back under the same id.
///
/// One process talks to one session bus (libnotify keeps a single
/// connection): the first notifier to show decides which.
public final class DesktopNotifier: Notifier, @unchecked Sendable {
    /// How firings look and how long calls may take.
    public struct Options: Sendable {
        /// The application name the server shows.
        public var appName = "Chime"
        /// The urgency of firings. Critical ones stay until acted on.
        public var urgency: Urgency = .critical
        /// What Snooze asks for.
        public var snoozeSeconds: Int64 = 600
        /// An icon name from the theme (`chime`, installed under
        /// `share/icons/hicolor/scalable/apps/`) or an absolute path.
        public var icon = "chime"
        /// The `desktop-entry` hint: the basename of the installed `chime.desktop`.
        public var desktopEntry = "chime"
        /// The `category` hint of firings (the specification's form for
        /// vendor categories is `x-vendor.class`).
        public var category = "x-chime.alarm"
        /// The `category` hint of the daemon's own notices.
        public var noticeCategory = "x-chime.notice"
        /// The `sound-name` hint, from the freedesktop sound naming spec.
        public var soundName = "alarm-clock-elapsed"
        /// The longest any call to libnotify may take before `show` gives up.
        public var watchdog: Double = 5
        /// The session bus; nil finds it from `environment`
        /// (`DBUS_SESSION_BUS_ADDRESS`, then `$XDG_RUNTIME_DIR/bus`).
        public var busAddress: String?
        /// Where the bus is looked up when `busAddress` is nil.
        public var environment: [String: String]
        /// The language of the notifications' own words (buttons, days,
        /// "missed"); by default the messages locale's in `environment`.
        public var language: NotificationLanguage
        /// The zone the body's times are read in, asked at each `show` (the
        /// machine's zone may change while the daemon runs).
        public var timeZone: @Sendable () -> TimeZoneRules
        /// Where the body's "now" comes from (a late firing's day is left out
        /// when it is today): the daemon's clock, so that body and firing agree.
        public var clock: any DaemonClock = WallClock()

        public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                    timeZone: @escaping @Sendable () -> TimeZoneRules = { TimeZoneRules.current() }) {
            self.environment = environment
            self.language = NotificationLanguage(environment: environment)
            self.timeZone = timeZone
        }
    }

    /// The specification's three urgency levels.
    public enum Urgency: String, Sendable, CaseIterable {
        case low, normal, critical
    }

    public let options: Options
    let core: NotificationTable
    private let thread = GLibThread.shared

    public init(options: Options = Options()) {
        self.options = options
        core = NotificationTable(options: options)
    }

    /// The session bus address this notifier uses now, or why there is none.
    public func busAddress() throws(NotificationError) -> String {
        if let address = options.busAddress { return address }
        return try SessionBus.address(environment: options.environment,
                                      fileExists: { FileManager.default.fileExists(atPath: $0) }).get()
    }

    public func show(_ firing: Firing, late: Bool) throws {
        _ = try present(firing, late: late, replacing: nil)
    }

    /// Shows `firing`; with `replacing` (a notification an earlier process
    /// showed, on the server there now), in that notification's place and
    /// without sound, so that its buttons answer this process. Another
    /// server's id is not ours to replace: then it is shown anew.
    public func present(_ firing: Firing, late: Bool, replacing: ShownNotificationID?) throws -> ShownNotificationID? {
        let address = try busAddress()
        let content = NotificationContent(
            rootKey: firing.rootKey, key: firing.key,
            summary: FiringText.summary(for: firing, language: options.language),
            body: FiringText.body(for: firing, late: late, zone: options.timeZone(), now: options.clock.second, language: options.language),
            urgency: options.urgency, category: options.category, sound: replacing == nil,
            actions: Self.actions(for: firing.kind, readOnly: firing.isReadOnly, snoozeSeconds: options.snoozeSeconds,
                                  language: options.language))
        let core = self.core, appName = options.appName
        return try thread.call(watchdog: options.watchdog) { () throws(NotificationError) -> ShownNotificationID? in
            try SessionBus.connect(address: address, appName: appName)
            let server = SessionBus.serverName()
            let id = try core.present(content, replacing: replacing.flatMap { $0.server == server ? $0.id : nil })
            guard let server, id > 0 else { return nil }
            return ShownNotificationID(id: id, server: server)
        }
    }

    /// Closes a notification an earlier process showed, when the server that
    /// gave its id is still the one there. Does not wait.
    public func close(_ notification: ShownNotificationID) {
        guard let address = try? busAddress() else { return }
        let appName = options.appName
        thread.post {
            guard (try? SessionBus.connect(address: address, appName: appName)) != nil,
                  SessionBus.serverName() == notification.server else { return }
            NotificationTable.close(id: notification.id)
        }
    }

    /// A notice of the daemon's, in the notifier's language.
    public func showNotice(_ notice: DaemonNotice) throws {
        try showNotice(title: options.language.title(of: notice), body: options.language.body(of: notice))
    }

    /// Shows a notice as it is said: a summary, and a body escaped for markup.
    public func showNotice(title: String, body: String) throws {
        let address = try busAddress()
        let content = NotificationContent(
            rootKey: nil, key: nil, summary: title.replacingNUL().trimmingSpaces().isEmpty ? "Chime" : title.replacingNUL(),
            body: FiringText.escapeMarkup(body), urgency: .normal, category: options.noticeCategory, sound: false, actions: [])
        let core = self.core, appName = options.appName
        try thread.call(watchdog: options.watchdog) { () throws(NotificationError) in
            try SessionBus.connect(address: address, appName: appName)
            _ = try core.present(content, replacing: nil)
        }
    }

    public func onResponse(_ handler: @escaping @Sendable (_ key: String, _ response: NotificationResponse) -> Void) {
        core.setHandler(handler)
    }

    /// Closes the notification showing `key` (or continuing it: a key is
    /// matched against the shown firing's key and its root key). Does not
    /// wait: a blocked server must not block the daemon.
    public func withdraw(key: String) {
        let core = self.core
        thread.post { core.withdraw(key: key) }
    }

    /// The buttons of a firing: Snooze, Done for reminders that can be
    /// completed (not those of a read-only calendar), Dismiss, and the
    /// default action (a click on the notification).
    static func actions(for kind: ItemKind, readOnly: Bool = false, snoozeSeconds: Int64,
                        language: NotificationLanguage = .english) -> [NotificationAction] {
        var actions = [NotificationAction(id: "default", label: language.open, response: .open),
                       NotificationAction(id: "snooze", label: FiringText.snoozeLabel(seconds: snoozeSeconds, language: language),
                                          response: .snooze(seconds: snoozeSeconds))]
        if kind == .reminder && !readOnly { actions.append(NotificationAction(id: "done", label: language.done, response: .done)) }
        actions.append(NotificationAction(id: "dismiss", label: language.dismiss, response: .dismiss))
        return actions
    }
}

/// One button: the action id sent over D-Bus, its label, and what it means.
struct NotificationAction: Sendable, Hashable {
    var id: String
    var label: String
    var response: NotificationResponse
}

/// Everything one notification says, worked out before the GLib thread is asked.
struct NotificationContent: Sendable {
    /// Nil for a notice, which is never replaced nor answered.
    var rootKey: String?
    var key: String?
    var summary: String
    var body: String
    var urgency: DesktopNotifier.Urgency
    var category: String
    var sound: Bool
    var actions: [NotificationAction]
}
