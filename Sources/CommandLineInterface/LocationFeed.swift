import AlarmScheduler
import CalendarStore
import DaemonControl
import Foundation
import Geofencing

/// Takes fixes for `chime location` and hands them to the running chimed in
/// batches: a batch goes when it holds `maximumFixes`, or nears the control
/// socket's line limit, or its first fix has waited `maximumDelay`, so a
/// fast stream costs one request per few hundred fixes and a slow feeder
/// (a fix a second from gpsd) is still passed on at once. Every fix is
/// sent, in order: the daemon needs them all to see a walk out and back.
///
/// With no daemon answering, the newest fix is kept in the store instead,
/// and chimed evaluates it when it starts (only the newest: a crossing and
/// its return while no daemon ran are not seen).
final class LocationFeed {
    static let maximumFixes = 500
    /// The control socket takes lines of up to 64 KiB.
    static let maximumBytes = 48 * 1024
    static let maximumDelay: Duration = .milliseconds(100)

    struct Totals {
        var sent = 0
        var taken = 0
        var ignored = 0
        var transitions = 0
        /// Whether the store got a position because no daemon answered.
        var kept = false
        /// What went wrong talking to the daemon (other than its absence).
        var failures: [String] = []
    }

    let command: String
    let context: CommandContext
    let storeOptions: ParsedArguments
    private let client: DaemonClient
    private var store: CalendarStore?
    private var body: [UInt8] = []
    private var count = 0
    private var newest: Fix?
    private var firstQueuedAt: ContinuousClock.Instant?
    private(set) var totals = Totals()
    private var toldNoDaemon = false

    init(command: String, context: CommandContext, storeOptions: ParsedArguments) {
        self.command = command
        self.context = context
        self.storeOptions = storeOptions
        client = DaemonClient(environment: context.environment)
        body.reserveCapacity(Self.maximumBytes + 256)
    }

    var isEmpty: Bool { count == 0 }

    /// Milliseconds until the batch waiting must go; nil when none waits.
    var millisecondsUntilDue: Int? {
        guard let firstQueuedAt else { return nil }
        let left = Self.maximumDelay - (ContinuousClock.now - firstQueuedAt)
        return max(0, Int(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
    }

    /// Queues a fix, and sends the batch when it is full.
    func add(_ fix: Fix) throws(CommandFailure) {
        if count > 0 { body.append(UInt8(ascii: ",")) } else { firstQueuedAt = .now }
        // Swift prints a finite Double in its shortest exact form, which is
        // valid JSON (1e-05 included); a Fix is always finite.
        var text = "{\"lat\":\(fix.position.latitude),\"lon\":\(fix.position.longitude),\"time\":\(fix.time)"
        if let accuracy = fix.accuracy { text += ",\"accuracy\":\(accuracy)" }
        text += "}"
        body += text.utf8
        count += 1
        if fix.time >= newest?.time ?? -.infinity { newest = fix }
        if count >= Self.maximumFixes || body.count >= Self.maximumBytes { try flush() }
    }

    /// Sends the batch if its time has come.
    func flushIfDue() throws(CommandFailure) {
        if millisecondsUntilDue == 0 { try flush() }
    }

    /// Sends what is queued; with no daemon, keeps the newest fix.
    func flush() throws(CommandFailure) {
        guard count > 0 else { return }
        var line = Data("{\"request\":\"location\",\"fixes\":[".utf8)
        line.append(contentsOf: body)
        line.append(contentsOf: "]}".utf8)
        let fixes = count
        let newestFix = newest
        body.removeAll(keepingCapacity: true)
        count = 0
        newest = nil
        firstQueuedAt = nil
        do {
            let reply = try client.send(line: line, answering: .location, timeout: 10)
            guard case .location(let outcome) = reply else {
                totals.failures.append("chimed refused \(fixes) fix(es): \(reply.refusal ?? "no reason given")")
                if let newestFix { try keep(newestFix) }
                return
            }
            totals.sent += fixes
            totals.taken += outcome.taken
            totals.ignored += outcome.ignored
            totals.transitions += outcome.transitions
        } catch {
            if !toldNoDaemon {
                toldNoDaemon = true
                context.standardError("\(command): \(error); the newest position is kept in the store for chimed to evaluate when it starts")
            }
            if let newestFix { try keep(newestFix) }
        }
    }

    private func keep(_ fix: Fix) throws(CommandFailure) {
        if store == nil { store = try StoreOptions.open(storeOptions, context: context, command: command) }
        guard let store else { return }
        if try StoreOptions.run(command, { () throws(StoreError) in try AlarmLedger(store: store).keepPosition(fix) }) { totals.kept = true }
    }
}
