import CalendarModel
import CalendarStore
import Dispatch
import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Which file a path names: a store replaced under its path (a restore, a
/// sync tool writing a new file and renaming it over the old one) is
/// another file at the same path.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// The regular file at `path`; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// The inotify watch on the store's folder; while the folder is gone, on
/// the nearest folder above it that exists, to see it come back.
struct StoreWatch {
    var descriptor: Int32 = -1
    var source: DispatchSourceRead?
    var watch: Int32 = -1
    var watchesFolder = false
}

/// The store under the daemon: its lock, and what happens when the file is
/// replaced, removed, or its folder made again while the daemon runs.
///
/// One daemon per store: an exclusive `flock` on `chime.db.lock` beside the
/// database (not on the database itself, whose POSIX locks are SQLite's),
/// holding the daemon's pid. Taken again if someone removes it while the
/// daemon runs; if another daemon got it meanwhile, this one stops.
///
/// The daemon keeps the store open, so a file renamed over it or removed
/// leaves the daemon reading the old one for ever unless it looks: the
/// folder watch (inotify) and every wake compare the device and inode at
/// the path with the file opened. A different file is opened in its place
/// (the old connection closed first, so that SQLite does not mix the two
/// files' WAL and shared memory), its own settled mark read (one no daemon
/// ran on is caught up over the missed window) and everything planned
/// again; with no file, the daemon rings nothing and waits for it.
extension Daemon {
    var storeFolder: String {
        let folder = (options.storePath as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    var storeLockPath: String { options.storePath + ".lock" }

    /// Takes an exclusive `flock` on `path` (created 0600) and writes this
    /// process's pid into it. `holder` says where the other daemon runs, for
    /// the message when it holds the lock.
    static func lockFile(_ path: String, holder: String) throws -> Int32 {
        // A file removed and made again between the open and the lock is opened again: a few tries.
        for _ in 0..<3 {
            let descriptor = SystemError.retryingEINTR { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
            guard descriptor >= 0 else {
                let failure = SystemError.last("open", path: path)
                throw DaemonError(.lock, "cannot open \(path): \(failure.reason)", systemError: failure)
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                var pid = [UInt8](repeating: 0, count: 32)
                let count = pread(descriptor, &pid, 31, 0)
                close(descriptor)
                let text = count > 0 ? String(decoding: pid[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
                throw DaemonError(.alreadyRunning, "already running \(holder) (pid \(text.isEmpty ? "?" : text), lock \(path))")
            }
            guard let locked = FileIdentity(descriptor: descriptor), locked == FileIdentity(path: path) else {
                close(descriptor)
                continue
            }
            fchmod(descriptor, 0o600)
            ftruncate(descriptor, 0)
            let text = "\(getpid())\n"
            _ = text.withCString { pwrite(descriptor, $0, strlen($0), 0) }
            return descriptor
        }
        throw DaemonError(.lock, "cannot lock \(path): it keeps being replaced")
    }

    /// Holds the store's lock: takes it, or takes it again when the file at
    /// its path is no longer the one locked (removed, or its folder made again).
    func ensureStoreLock() throws {
        if storeLock >= 0, let held = FileIdentity(descriptor: storeLock), held == FileIdentity(path: storeLockPath) { return }
        let descriptor = try Self.lockFile(storeLockPath, holder: "on the store \(options.storePath)")
        if storeLock >= 0 {
            close(storeLock)
            log("chimed: the store's lock \(storeLockPath) was removed; took it again")
        }
        storeLock = descriptor
    }

    /// Opens the store at its path (closing the one open first) and takes its lock.
    func openStore() throws {
        // The old connection goes first: open beside a new file under the
        // same name, SQLite would share the -wal and -shm files between them.
        store = nil
        ledger = nil
        for _ in 0..<3 {
            let before = FileIdentity(path: options.storePath)
            // On the daemon's clock: a reminder completed by Done is completed when its clock says.
            let clock = options.clock
            let opened = try CalendarStore(path: options.storePath, machineTimeZone: options.machineZone(),
                                           now: { Date(timeIntervalSince1970: clock.now) })
            // Replaced while it was being opened: which file it opened is unknown.
            guard let after = FileIdentity(path: options.storePath), after == before else { continue }
            try ensureStoreLock()
            opened.limitPageCache(kilobytes: 2048)
            ledger = try AlarmLedger(store: opened)
            store = opened
            storeFile = after
            storeCompanions = ["-wal", "-shm"].compactMap { suffix in
                FileIdentity(path: options.storePath + suffix).map { (options.storePath + suffix, $0) }
            }
            return
        }
        throw DaemonError(.store, "the store \(options.storePath) keeps being replaced while it is opened")
    }

    // MARK: The folder watch

    private static let folderMask = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                                           | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let ancestorMask = UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Re-plans when anything writes to the store's folder (the database,
    /// its WAL): that is how `chime` and other writers tell it. The
    /// database and its WAL only: readers write their marks to the -shm
    /// file, and the daemon's own reads must not wake it again. The file
    /// renamed, removed or created, the lock removed, and the folder itself
    /// removed or moved are noticed too.
    func watchStore() {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else {
            log("chimed: cannot watch \(storeFolder); changes are seen at the next firing")
            return
        }
        storeWatch.descriptor = descriptor
        let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        source.setEventHandler { [weak self] in self?.storeFolderChanged() }
        source.setCancelHandler { close(descriptor) }
        source.resume()
        storeWatch.source = source
        rewatchStoreFolder()
    }

    /// Watches the store's folder, or the nearest folder above it that exists.
    private func rewatchStoreFolder() {
        if storeWatch.watch >= 0 { inotify_rm_watch(storeWatch.descriptor, storeWatch.watch) }
        storeWatch.watch = -1
        var folder = storeFolder
        // Bounded by the path's depth.
        for _ in 0..<256 {
            let isStoreFolder = folder == storeFolder
            let watch = inotify_add_watch(storeWatch.descriptor, folder, isStoreFolder ? Self.folderMask : Self.ancestorMask)
            if watch >= 0 {
                storeWatch.watch = watch
                storeWatch.watchesFolder = isStoreFolder
                return
            }
            let parent = (folder as NSString).deletingLastPathComponent
            guard !parent.isEmpty, parent != folder else { break }
            folder = parent
        }
        log("chimed: cannot watch \(storeFolder) or a folder above it; changes are seen at the next firing")
    }

    private func storeFolderChanged() {
        let base = (options.storePath as NSString).lastPathComponent
        let relevant: Set<String> = [base, base + "-wal", base + "-journal"]
        let lockName = base + ".lock"
        var buffer = [UInt8](repeating: 0, count: 8192)
        var written = false, folderMoved = false, lockRemoved = false
        while true {
            let count = read(storeWatch.descriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            for event in Self.events(in: buffer[0..<count]) {
                // Events were lost: look at everything.
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { written = true }
                guard event.watch == storeWatch.watch else { continue }
                if !storeWatch.watchesFolder || event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                    folderMoved = true
                } else if event.name == lockName {
                    lockRemoved = lockRemoved || event.mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0
                } else if relevant.contains(event.name) {
                    written = true
                }
            }
        }
        if folderMoved { rewatchStoreFolder() }
        if written || folderMoved { checkStore() }
        if lockRemoved, store != nil {
            // A moment later: when the whole folder is being removed, a lock
            // made again at once would leave it not empty (rm -r would fail).
            queue.asyncAfter(deadline: .now() + 0.5) { [weak self] in self?.lockAgain() }
        }
        if written, store != nil { storeWritten() }
    }

    /// The lock was removed: taken again, unless the store went with it
    /// (then it is taken with the store when that comes back).
    private func lockAgain() {
        checkStore()
        guard store != nil else { return }
        do {
            try ensureStoreLock()
        } catch let failure as DaemonError where failure.code == .alreadyRunning {
            stopForAnotherDaemon(failure)
        } catch {
            log("chimed: \(error)")
        }
    }

    // MARK: Replaced, removed, back

    /// Compares the file at the store's path with the one open: gone, the
    /// daemon lets go of it and waits; another file, it is opened shortly
    /// (a writer making a new store gets a moment to finish its first
    /// transaction).
    func checkStore() {
        dispatchPrecondition(condition: .onQueue(queue))
        let current = FileIdentity(path: options.storePath)
        if store != nil, current == storeFile { return }
        if store != nil {
            log(current == nil ? "chimed: the store \(options.storePath) is gone; waiting for it to come back"
                               : "chimed: the store \(options.storePath) was replaced; opening the new file")
            let companions = storeCompanions
            storeLost()
            // SQLite does not remove the WAL and shared memory of a file
            // renamed over or removed while open; opened with the next file
            // under the name, they would be read as its own (its pages
            // overlaid with the old file's). Those are the ones the daemon
            // opened: any made since belong to someone else.
            for companion in companions where FileIdentity(path: companion.path) == companion.file { unlink(companion.path) }
            if current == nil && storeLock >= 0 {
                // Nothing to guard while there is no store; and an open file
                // in a folder being removed keeps the folder from going
                // (inotify would not say it went).
                close(storeLock)
                storeLock = -1
            }
        }
        if current != nil, reopenTimer == nil { scheduleReopen(after: 0.1) }
    }

    /// Lets go of the store and of everything planned from it: nothing
    /// rings from a file that is gone.
    func storeLost() {
        dispatchPrecondition(condition: .onQueue(queue))
        store = nil
        ledger = nil
        storeCompanions = []
        storeFile = nil
        plan = StandingPlan()
        undelivered = []
        interrupted = []
        location = LocationWatch()
        for source in [timer, retryTimer, dwellTimer?.source] { source?.cancel() }
        timer = nil
        retryTimer = nil
        dwellTimer = nil
        armedFor = nil
        retryDelay = 0
    }

    private func scheduleReopen(after seconds: Double) {
        reopenTimer?.cancel()
        let source = DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: .now() + seconds)
        source.setEventHandler { [weak self] in self?.reopenStore() }
        source.resume()
        reopenTimer = source
    }

    /// Opens the file now at the store's path and plans it from its own
    /// settled mark; a failure is tried again, from 1 s up to every minute.
    private func reopenStore() {
        reopenTimer?.cancel()
        reopenTimer = nil
        // Gone again: the folder watch calls back when it returns.
        guard store == nil, FileIdentity(path: options.storePath) != nil else { return }
        do {
            try openStore()
            if let known = try ledger.settledThrough() {
                settled = known
            } else {
                // No daemon ran on it: what came due within the missed window still rings.
                settled = clock.second - options.lateness
                try ledger.setSettledThrough(settled)
            }
            settledInStore = settled
            try takeInterrupted()
            try rebuildPlan()
            do { try startLocation() } catch { log("chimed: location alarms: \(error)") }
            showInterruptedCrossings()
        } catch let failure as DaemonError where failure.code == .alreadyRunning {
            return stopForAnotherDaemon(failure)
        } catch {
            storeLost()
            reopenDelay = min(max(reopenDelay * 2, 1), 60)
            log("chimed: cannot open the store \(options.storePath): \(error); trying again in \(Int(reopenDelay)) s")
            scheduleReopen(after: reopenDelay)
            return
        }
        reopenDelay = 0
        watchedSince = clock.now
        log("chimed: opened \(options.storePath)")
        wake()
        // Another file: its feeds and accounts are its own.
        armSubscriptions()
        requestSync(after: options.syncDelay)
    }

    /// Another daemon took the store's lock (it was removed while this one
    /// ran): it rings the alarms now, and this one stops.
    private func stopForAnotherDaemon(_ error: any Error) {
        log("chimed: \(error); stopping: another daemon has the store")
        storeLost()
        finish()
        if options.handlesSignals { exit(69) }
    }

    // MARK: Interrupted firings

    /// Firings the last run left being shown (it stopped after writing
    /// them down, before marking them shown) may never have reached the
    /// screen, and a lost alarm is worse than a repeated one: they are shown
    /// again, marked as interrupted. Timed and snoozed ones come due again in
    /// the first wake (the settled mark goes back before them, and the log
    /// does not count them as known), so the catch-up policy applies to them;
    /// location crossings are rebuilt from their alarm
    /// (`showInterruptedCrossings`).
    func takeInterrupted() throws {
        let left = try ledger.deliveries(outcomes: [.showing], limit: CatchUp.limit)
        interrupted = Set(left.map(\.key))
        guard !left.isEmpty else { return }
        if let first = left.filter({ !$0.key.isCrossing }).map(\.due).min() { settled = min(settled, first - 1) }
        log("chimed: \(left.count) firing(s) were being shown when the last run stopped; showing them again")
    }
}
