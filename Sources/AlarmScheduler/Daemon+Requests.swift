import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the daemon answers: requests on the control socket, and a person's
/// answers to the notifications it showed.
extension Daemon {
    /// A control-socket request, on the daemon's queue.
    func answer(_ parsed: Result<ControlRequest, ControlRequest.Refusal>) -> ControlReply {
        dispatchPrecondition(condition: .onQueue(queue))
        let gone = ControlReply.refused("the store \(options.storePath) is gone; the daemon waits for it to come back")
        let request: ControlRequest
        switch parsed {
        case .success(let read): request = read
        case .failure(let refusal):
            if let name = refusal.name, name != "status", store == nil { return gone }
            return .refused(refusal.description)
        }
        if request.name != .status, store == nil { return gone }
        switch request {
        case .status:
            // The newest fix taken: the store gets it with the states, or alone at most every positionInterval.
            let position = location.latest.map {
                DaemonStatus.Position(lat: $0.position.latitude, lon: $0.position.longitude, accuracy: $0.accuracy, time: $0.time)
            }
            return .status(DaemonStatus(pid: Int(getpid()), store: options.storePath, started: RFC3339.utc(Int64(startedAt.rounded(.down))),
                                        planned: plan.count, waiting: undelivered.count, armedFor: armedFor.map(RFC3339.utc),
                                        position: position))
        case .changed:
            // `chime` says so after each change, and the store's folder
            // watch has usually woken the daemon for it already: plan once.
            if (try? store.changeCounter()) != plan.plannedAtCounter { wake() }
            syncAfterCommand()
            return .done
        case .next(let count):
            do {
                let firings = try FiringPlanner(store: store).firings(after: clock.second, count: min(max(count, 0), 1000))
                let zone = options.machineZone()
                return .next(firings.map { NextFiring($0, zone: zone) })
            } catch {
                return .refused("\(error)")
            }
        case .location(let fixes):
            return answerLocation(fixes)
        case .snooze(let key, let seconds):
            guard (1...7 * 86_400).contains(seconds) else { return .refused("\"seconds\" must be 1 to 604800") }
            do {
                let snooze = try ledger.snooze(key, for: Int64(seconds), from: clock.secondUp)
                wake()
                return .snoozed(key: snooze.key.description, at: RFC3339.utc(snooze.fireAt))
            } catch {
                return .refused("\(error)")
            }
        case .dismiss(let key):
            do {
                let dropped = try ledger.dismiss(key)
                wake()
                return .dismissed(dropped: dropped)
            } catch {
                return .refused("\(error)")
            }
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
                let snooze = try ledger.snooze(key, for: seconds, from: clock.secondUp)
                log("chimed: snoozed '\(snooze.title)' until \(RFC3339.utc(snooze.fireAt))")
                forgetShown(key)
                notifier.withdraw(key: key)
                wake()
            case .done:
                if let firing, firing.kind == .reminder {
                    // A notification shown before its calendar became read-only
                    // still has Done: answered as Dismiss, not refused.
                    if try store.takesChanges(item: firing.itemIdentifier) {
                        try ledger.complete(firing.itemIdentifier, in: store)
                        log("chimed: completed '\(firing.title)'")
                    } else {
                        log("chimed: '\(firing.title)' is in a read-only calendar: dismissed, not completed")
                    }
                    try ledger.dismiss(key)
                }
                forgetShown(key)
                notifier.withdraw(key: key)
                wake()
            case .dismiss:
                try ledger.dismiss(key)
                forgetShown(key)
                notifier.withdraw(key: key)
                // The other devices hear of it through the item (RFC 9074 ACKNOWLEDGED); the ledger stays this machine's.
                if let firing { try store.acknowledgeAlarms(of: firing.itemIdentifier, at: Date(timeIntervalSince1970: clock.now.rounded(.down))) }
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
