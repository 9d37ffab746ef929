import CalendarModel
import CalendarStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon answers: requests on the control socket, and a person's
/// answers to the notifications it showed.
extension Daemon {
    /// A control-socket request, on the daemon's queue.
    func answer(_ request: [String: Any]) -> [String: Any] {
        dispatchPrecondition(condition: .onQueue(queue))
        guard let name = request["request"] as? String else {
            return ["ok": false, "error": "missing \"request\" (status, changed, next, snooze, dismiss or location)"]
        }
        if name != "status", store == nil {
            return ["ok": false, "error": "the store \(options.storePath) is gone; the daemon waits for it to come back"]
        }
        switch name {
        case "status":
            var reply: [String: Any] = ["ok": true, "pid": Int(getpid()), "store": options.storePath,
                                        "started": Date(timeIntervalSince1970: startedAt).ISO8601Format(),
                                        "planned": plan.count, "waiting": undelivered.count]
            reply["armedFor"] = armedFor.map { Date(timeIntervalSince1970: TimeInterval($0)).ISO8601Format() } ?? NSNull()
            // The newest fix taken: the store gets it with the states, or alone at most every positionInterval.
            if let latest = location.latest {
                reply["position"] = ["lat": latest.position.latitude, "lon": latest.position.longitude,
                                     "accuracy": latest.accuracy ?? NSNull(), "time": latest.time] as [String: Any]
            }
            return reply
        case "changed":
            // `chime` says so after each change, and the store's folder
            // watch has usually woken the daemon for it already: plan once.
            if (try? store.changeCounter()) != plan.plannedAtCounter { wake() }
            return ["ok": true]
        case "next":
            let count = min(max(request["count"] as? Int ?? 10, 0), 1000)
            do {
                let now = clock.second
                let firings = try FiringPlanner(store: store).firings(after: now, count: count)
                return ["ok": true, "firings": firings.map { firing -> [String: Any] in
                    ["at": Date(timeIntervalSince1970: TimeInterval(firing.instant)).ISO8601Format(), "title": firing.title,
                     "item": firing.itemIdentifier.rawValue, "key": firing.key, "why": firing.explanation ?? NSNull()]
                }]
            } catch {
                return ["ok": false, "error": "\(error)"]
            }
        case "location":
            return answerLocation(request)
        case "snooze":
            guard let key = request["key"] as? String else { return ["ok": false, "error": "snooze needs \"key\", a firing's key"] }
            let seconds = request["seconds"] as? Int ?? 600
            guard (1...7 * 86_400).contains(seconds) else { return ["ok": false, "error": "\"seconds\" must be 1 to 604800"] }
            do {
                let snooze = try ledger.snooze(key, for: Int64(seconds), from: clock.date)
                wake()
                return ["ok": true, "key": snooze.key.description, "at": Date(timeIntervalSince1970: TimeInterval(snooze.fireAt)).ISO8601Format()]
            } catch {
                return ["ok": false, "error": "\(error)"]
            }
        case "dismiss":
            guard let key = request["key"] as? String else { return ["ok": false, "error": "dismiss needs \"key\", a firing's key"] }
            do {
                let dropped = try ledger.dismiss(key)
                wake()
                return ["ok": true, "dropped": dropped]
            } catch {
                return ["ok": false, "error": "\(error)"]
            }
        default:
            return ["ok": false, "error": "unknown request '\(name)' (known: status, changed, next, snooze, dismiss, location)"]
        }
    }


    /// A person answered a shown firing (on the daemon's queue). Once the
    /// answer is handled the notification is closed: servers leave an
    /// answered one on screen (dunst does, and a critical one never expires).
    /// One whose answer failed stays, to be answered again.
    func respond(to response: NotificationResponse, key: String) {
        dispatchPrecondition(condition: .onQueue(queue))
        let firing = onScreen[key]
        guard store != nil else { return }
        do {
            switch response {
            case .snooze(let seconds):
                let snooze = try ledger.snooze(key, for: seconds, from: clock.date)
                log("chimed: snoozed '\(snooze.title)' until \(Date(timeIntervalSince1970: TimeInterval(snooze.fireAt)).ISO8601Format())")
                forgetShown(key)
                notifier.withdraw(key: key)
                wake()
            case .done:
                if let firing, firing.kind == .reminder {
                    try ledger.complete(firing.itemIdentifier, in: store)
                    try ledger.dismiss(key)
                    log("chimed: completed '\(firing.title)'")
                }
                forgetShown(key)
                notifier.withdraw(key: key)
                wake()
            case .dismiss:
                try ledger.dismiss(key)
                forgetShown(key)
                notifier.withdraw(key: key)
            case .open:
                forgetShown(key)
                notifier.withdraw(key: key)
            case .closed:
                forgetShown(key)
            }
        } catch {
            log("chimed: cannot answer '\(firing?.title ?? key)': \(error)")
        }
    }
}
