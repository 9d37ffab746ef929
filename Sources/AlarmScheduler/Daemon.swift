import CalendarModel
import CalendarStore
import Dispatch
import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// What stopped the daemon from starting or from keeping its store:
/// `code` for a caller to match, `description` for people.
public typealias DaemonError = CodedError<DaemonFailure>

/// What `DaemonError` says went wrong.
public enum DaemonFailure: Sendable, Equatable {
    /// Another daemon holds the store or the runtime folder: `chimed` exits 69 (unavailable).
    case alreadyRunning
    /// The runtime folder cannot be made, or is not a private folder of this user's.
    case runtimeFolder
    /// A lock file cannot be opened, or keeps being replaced.
    case lock
    /// The control socket cannot be made.
    case controlSocket
    /// The store cannot be opened, or keeps being replaced while it is.
    case store
}

/// `chimed`: knows the next moment any alarm must ring, sleeps on one
/// timer of its clock until then, and shows each firing once.
///
/// Everything runs on one serial queue. What wakes it: the timer (armed on
/// `Options.clock`; in chimed the wall clock, CLOCK_REALTIME, so suspend
/// and clock changes do not make it late), a change to the store's folder
/// (inotify: `chime` and any other writer), SIGTERM and SIGINT (a clean
/// stop). Nothing else: an idle daemon with nothing due makes no wakeups.
///
/// On every wake it settles the span since the last one: firings that came
/// due while it was running, within `onTimeGrace`, are shown as due; others
/// (the daemon was down, the machine asleep) follow the catch-up policy
/// (`CatchUp`): the latest per alarm within `lateness` shown late, the rest
/// recorded as missed. Every firing goes into the delivery log before the
/// settled mark moves, so a crash between the two shows nothing twice.
public final class Daemon: @unchecked Sendable {
    public struct Options: Sendable {
        public var storePath: String
        /// Where the lock (and later the control socket) live: `$XDG_RUNTIME_DIR/chime`.
        public var runtimeFolder: String
        public var lateness: Int64 = CatchUp.defaultWindow
        /// Where the machine's zone is set (`localtime`); watched to re-plan when it changes.
        public var zoneFolder = "/etc"
        public var onTimeGrace: Int64 = 60
        /// The machine's zone, read again when `zoneFolder` says it changed.
        public var machineZone: @Sendable () -> TimeZoneRules = { TimeZoneRules.current() }
        /// Whether SIGTERM and SIGINT stop the process (a daemon in a test's process leaves them alone).
        public var handlesSignals = true
        /// How often at most the newest position alone is written to the
        /// store (a changed state is written with it at once); a position
        /// left unwritten is written when the interval is over.
        public var positionInterval = 10.0
        /// What the daemon reads the time from and sleeps on: the wall
        /// clock, or a test's `ManualClock`. Firings, retries, dwells and
        /// calendar notices all go by it.
        public var clock: any DaemonClock = WallClock()
        /// How long a control-socket reply may wait for its client to read it, in seconds.
        public var replyTimeout: Double = 10
        /// What refreshes subscribed calendars when they come due; nil: they are not refreshed.
        public var subscriptions: (any SubscriptionRefreshing)?
        /// What fetches holiday data that workday rules need and the store lacks; nil: it is not fetched.
        public var holidays: (any HolidayRefreshing)?
        /// Seconds before a fetch of holiday data that failed is tried again.
        public var holidayRetry: Double = 3600
        /// What syncs the CalDAV accounts (Daemon+Sync.swift); nil: they are not synced.
        public var sync: (any CalendarSyncing)?
        /// Seconds between syncs when nothing asks for one sooner.
        public var syncInterval: Double = 900
        /// Seconds from a local change to the sync that sends it: changes
        /// within that time go up together.
        public var syncDelay: Double = 5

        public init(storePath: String, runtimeFolder: String) {
            self.storePath = storePath
            self.runtimeFolder = runtimeFolder
        }
    }

    let options: Options
    let notifier: any Notifier
    let log: @Sendable (String) -> Void
    let queue = DispatchQueue(label: "chimed")
    /// Signals are taken here, not on `queue`: a stop must not wait behind a long plan.
    private let signalQueue = DispatchQueue(label: "chimed.signals")
    /// Nil while the store's file is gone (Daemon+Store.swift): every entry point checks.
    var store: CalendarStore!
    /// The delivery log and the rest of this machine's memory, in the store's file.
    var ledger: AlarmLedger!
    var timer: (any ClockTimer)?
    private var signals: [DispatchSourceSignal] = []
    private var control: ControlSocket?
    private var clockWatch: (any ClockTimer)?
    private var zoneWatch: DispatchSourceRead?
    private var lockDescriptor: Int32 = -1
    /// The store's own lock (Daemon+Store.swift).
    var storeLock: Int32 = -1
    /// The file the open store was opened at; a different one at its path is a replaced store.
    var storeFile: FileIdentity?
    /// Its WAL and shared-memory files as the daemon opened them.
    var storeCompanions: [(path: String, file: FileIdentity)] = []
    var storeWatch = StoreWatch()
    var reopenTimer: DispatchSourceTimer?
    var reopenDelay: Double = 0
    /// Keys of firings a run that stopped left being shown: shown again, marked so.
    var interrupted: Set<FiringKey> = []
    var armedFor: Int64?
    /// When this process began watching: anything due before it came due unwatched.
    var startedAt: Double = 0
    /// When it began watching the store it has open (a store replaced is watched from when it was opened).
    var watchedSince: Double = 0
    /// The day holiday data was last looked at (Daemon+Holidays.swift).
    var lastNoticeCheck: CivilDate?
    /// Whether a fetch of missing holiday data runs, and the timer for the next try after one failed.
    var fetchingHolidays = false
    /// The years (`"cn 2027"`) asked for on the day named, so that a day asks for each once.
    var holidaysAsked: (day: CivilDate, years: Set<String>)?
    var holidayRetryTimer: (source: any ClockTimer, at: Double)?

    // The standing plan (Daemon+Planning.swift).
    var plan = StandingPlan()
    /// Changes a rebuilt plan took in that the next wake must act on.
    var changesOwed = StandingPlan.Changes.none
    /// Everything due through this instant is settled: shown, recorded, or
    /// waiting in `undelivered` for a notification server.
    var settled: Int64 = 0
    /// What the store says is settled; held back before `undelivered`.
    var settledInStore: Int64?
    /// Firings to show that could not be shown yet, oldest first: kept out
    /// of the log, so that a crash leaves them to the catch-up.
    var undelivered: [Firing] = []
    var retryTimer: (any ClockTimer)?
    /// Armed while an arrive alarm's dwell is pending.
    var dwellTimer: (source: any ClockTimer, end: Double)?
    private var lookAgainPending = false
    var retryDelay: Double = 0
    /// Firings on screen, by key: what a person's answer refers to.
    var onScreen: [String: Firing] = [:]
    /// Location alarms (Daemon+Location.swift).
    var location = LocationWatch()
    /// Subscribed calendars (Daemon+Subscriptions.swift): the timer for the next due, and whether a refresh runs.
    var subscriptionTimer: (source: any ClockTimer, at: Double)?
    var refreshing = false
    var subscriptionsRefreshedAt: Double?
    /// CalDAV sync (Daemon+Sync.swift): the timer for the next, whether one
    /// runs, how many began, and the store's change counter when the last ended.
    var syncTimer: (source: any ClockTimer, at: Double)?
    var syncing = false
    var syncCount = 0
    var syncedAtCounter: Int64?
    /// Whether the last sync found accounts to sync (true until one has run).
    var syncHasAccounts = true
    /// Calendars the person was told a sync kept whole though the server
    /// lists them empty: told once a run of the daemon, not every interval.
    var keptEmptyNoticed: Set<String> = []
    let syncQueue = DispatchQueue(label: "chimed.sync")
    let subscriptionQueue = DispatchQueue(label: "chimed.subscriptions")
    let holidayQueue = DispatchQueue(label: "chimed.holidays")

    var clock: any DaemonClock { options.clock }

    public init(options: Options, notifier: any Notifier, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.notifier = notifier
        self.log = log
    }

    /// Takes the lock, opens the store, settles what came due while it was
    /// down, and arms the timer. Call from any thread; then run Dispatch's
    /// main loop (`dispatchMain()`).
    public func start() throws {
        startedAt = clock.now
        watchedSince = startedAt
        try takeLock()
        do {
            try openStore()
            let now = Int64(startedAt.rounded(.down))
            if let known = try ledger.settledThrough() {
                settled = known
            } else {
                settled = now
                try ledger.setSettledThrough(now)
            }
            settledInStore = settled
            try takeInterrupted()
        } catch let failure as DaemonError {
            throw failure
        } catch {
            throw DaemonError(.store, "cannot open the store: \(error)")
        }
        watchStore()
        clockWatch = clock.watchSettings(on: queue) { [weak self] in
            self?.log("chimed: the clock was set; re-planning")
            self?.replan()
            // The interval's timer is on the wall clock: set back, it would wait that much longer.
            self?.syncAfterClockSet()
        }
        if clockWatch == nil { log("chimed: no timerfd; a clock set back is noticed at the next firing") }
        watchZone()
        control = try ControlSocket(path: options.runtimeFolder + "/chimed.sock", queue: queue,
                                    writeTimeout: options.replyTimeout) { [unowned self] request in
            self.answer(request)
        }
        for signal in [SIGTERM, SIGINT] where options.handlesSignals {
            Glibc.signal(signal, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signal, queue: signalQueue)
            source.setEventHandler { [weak self] in self?.stop(signal: signal) }
            source.resume()
            signals.append(source)
        }
        notifier.onResponse { [weak self] key, response in
            guard let daemon = self else { return }
            daemon.queue.async { daemon.respond(to: response, key: key) }
        }
        queue.sync {
            do { try rebuildPlan() } catch { log("chimed: \(error)") }
            do { try takeBackShown() } catch { log("chimed: cannot take back the notifications on screen: \(error)") }
            do { try startLocation() } catch { log("chimed: location alarms: \(error)") }
            showInterruptedCrossings()
            wake()
            armSubscriptions()
            requestSync(after: 0)
        }
        log("chimed: started on \(options.storePath)")
    }

    /// One instance per user: an exclusive lock on a file in the runtime folder.
    private func takeLock() throws {
        let folder = options.runtimeFolder
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            let failure = SystemError.last("mkdir", path: folder)
            throw DaemonError(.runtimeFolder, "cannot create \(folder): \(failure.reason)", systemError: failure)
        }
        // It holds the lock (and will hold the control socket): it must be a
        // folder of this user's that nobody else can enter, not a link.
        var info = stat()
        guard lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 else {
            throw DaemonError(.runtimeFolder, "\(folder) is not a private folder of this user's (want a directory, owner uid \(getuid()), mode 0700)")
        }
        // The control socket lives here: one daemon per runtime folder too.
        lockDescriptor = try Self.lockFile(folder + "/chimed.lock", holder: "in \(folder)")
    }

    /// A writer wrote to the store. Its commit becomes visible to readers a
    /// moment after its last write to the WAL (when the shared index, which
    /// inotify does not see, is updated), so a wake right away may still
    /// read the old state: more looks shortly after settle it. A writer
    /// held up between the two (a loaded machine) can take longer than one
    /// short look, and nothing else would tell: the looks back off, 50 ms,
    /// then 250 ms and 1 s more. A burst of writes shares them.
    func storeWritten() {
        dispatchPrecondition(condition: .onQueue(queue))
        wake()
        // A subscription added or changed (chime subscribe) may be due sooner.
        armSubscriptions()
        syncAfterStoreWrite()
        guard !lookAgainPending else { return }
        lookAgainPending = true
        lookAgain(after: Self.lookAgainDelays[...])
    }

    /// The waits, in milliseconds, between a write's first look and each later one.
    static let lookAgainDelays = [50, 250, 1000]

    private func lookAgain(after delays: ArraySlice<Int>) {
        guard let delay = delays.first else {
            lookAgainPending = false
            return
        }
        queue.asyncAfter(deadline: .now() + .milliseconds(delay)) { [weak self] in
            guard let self else { return }
            if let store = self.store, (try? store.changeCounter()) != self.plan.plannedAtCounter { self.wake() }
            // The counter read at once may have been the old one too.
            self.syncAfterStoreWrite()
            self.lookAgain(after: delays.dropFirst())
        }
    }

    /// Re-plans from scratch: the clock or the zone changed.
    private func replan() {
        guard store != nil else { return }
        armedFor = nil
        do { try rebuildPlan() } catch { log("chimed: \(error)") }
        wake()
    }

    /// Re-plans when the machine's zone changes (`ln -sf` shows as DELETE and
    /// CREATE of /etc/localtime, a rename as MOVED_TO). Foundation keeps its
    /// zone until told, and the store reads floating times in it: both are
    /// told first. The store stays open: it caches nothing by zone.
    private func watchZone() {
        zoneWatch = watchFolder(options.zoneFolder, mask: UInt32(IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE),
                                names: ["localtime", "timezone"]) { [weak self] in
            guard let self else { return }
            NSTimeZone.resetSystemTimeZone()
            tzset()
            // Gone, the store is opened in the new zone when it comes back.
            guard self.store != nil else { return }
            self.store.machineTimeZone = self.options.machineZone()
            self.log("chimed: the time zone is now \(self.store.machineTimeZone.identifier); re-planning")
            self.replan()
        }
    }

    /// Calls `changed` on the queue when inotify reports `mask` for one of
    /// `names` in `folder`; nil when the folder cannot be watched.
    private func watchFolder(_ folder: String, mask: UInt32, names: Set<String>, changed: @escaping () -> Void) -> DispatchSourceRead? {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        guard inotify_add_watch(descriptor, folder, mask) >= 0 else {
            close(descriptor)
            return nil
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 8192)
            var relevant = false
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                relevant = relevant || Self.names(in: buffer[0..<count]).contains { names.contains($0) }
            }
            if relevant { changed() }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        return source
    }

    /// The file names in a buffer of `inotify_event`s.
    static func names(in bytes: ArraySlice<UInt8>) -> [String] {
        events(in: bytes).map(\.name)
    }

    /// The events in a buffer of `inotify_event`s (a header of four 32-bit
    /// fields: the watch, the mask, a cookie and the length of the
    /// NUL-padded name after it).
    static func events(in bytes: ArraySlice<UInt8>) -> [(watch: Int32, mask: UInt32, name: String)] {
        func field(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        var events: [(watch: Int32, mask: UInt32, name: String)] = []
        var index = bytes.startIndex
        while index + 16 <= bytes.endIndex {
            let length = Int(field(index + 12))
            let start = index + 16
            let end = min(start + length, bytes.endIndex)
            events.append((Int32(bitPattern: field(index)), field(index + 4),
                           String(decoding: bytes[start..<end].prefix { $0 != 0 }, as: UTF8.self)))
            index = end
        }
        return events
    }

    /// On `signalQueue`. The clean stop runs on the daemon's queue; when
    /// that is busy planning for longer than `stopWait`, the process exits
    /// without it, as after a crash: every firing is in the delivery log
    /// before the settled mark moves, so the next start shows nothing twice
    /// and settles what came due.
    private func stop(signal: Int32) {
        log("chimed: stopping on signal \(signal)")
        let stopped = DispatchSemaphore(value: 0)
        queue.async {
            self.finish()
            stopped.signal()
        }
        if stopped.wait(timeout: .now() + Self.stopWait) == .timedOut {
            log("chimed: busy planning; stopping without settling (the next start settles what came due)")
        }
        exit(0)
    }

    /// How long a signal waits for the clean stop.
    static let stopWait: DispatchTimeInterval = .seconds(2)

    /// Settles what is due, closes the socket and the watches and releases
    /// the lock: the daemon does nothing more. Call from any thread but the daemon's queue.
    public func shutdown() {
        // queue.sync from the queue itself would deadlock.
        dispatchPrecondition(condition: .notOnQueue(queue))
        queue.sync { finish() }
    }

    func finish() {
        dispatchPrecondition(condition: .onQueue(queue))
        control?.stop()
        control = nil
        if store != nil {
            // Whatever was due has been settled on the way here; mark the span done.
            wake()
            do { try saveLocation(force: true) } catch { log("chimed: cannot save the location state: \(error)") }
            if undelivered.isEmpty { try? ledger.setSettledThrough(max(settled, clock.second)) }
        }
        for source in [storeWatch.source, zoneWatch, reopenTimer] as [(any DispatchSourceProtocol)?] { source?.cancel() }
        for timer in [timer, retryTimer, dwellTimer?.source, location.positionTimer, clockWatch] { timer?.cancel() }
        storeWatch.source = nil
        reopenTimer = nil
        timer = nil
        retryTimer = nil
        dwellTimer = nil
        clockWatch = nil
        for descriptor in [lockDescriptor, storeLock] where descriptor >= 0 { close(descriptor) }
        lockDescriptor = -1
        storeLock = -1
    }
}
