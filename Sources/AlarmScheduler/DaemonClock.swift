import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon reads the time and what wakes it at a moment: the wall
/// clock in `chimed` (`WallClock`), a clock the test moves in tests
/// (`ManualClock`), so that a test of an alarm an hour away takes no hour
/// and a test of one a second away does not sleep and poll for it.
///
/// Only the moments alarms, retries, dwells and position writes go by run
/// on it. Waits that are about the file system or the socket (a writer's
/// commit becoming visible, a reply's timeout) stay on Dispatch's own time:
/// they are no part of what a person set.
public protocol DaemonClock: AnyObject, Sendable {
    /// Unix seconds.
    var now: Double { get }
    /// Runs `handler` on `queue` once the clock reads `instant` (Unix
    /// seconds) or later, until cancelled.
    func schedule(at instant: Double, on queue: DispatchQueue, _ handler: @escaping () -> Void) -> any ClockTimer
    /// Calls `changed` on `queue` each time the clock is set (not as it runs
    /// on), while the returned watch is kept; nil when that cannot be told.
    func watchSettings(on queue: DispatchQueue, _ changed: @escaping () -> Void) -> (any ClockTimer)?
}

/// A wake armed on a `DaemonClock`.
public protocol ClockTimer: AnyObject {
    func cancel()
}

extension DaemonClock {
    /// The whole second the clock is in, as the planner counts.
    public var second: Int64 { Int64(now.rounded(.down)) }
    /// The first whole second not before now: a time a person asks for
    /// "from now" (a snooze) counts from it, so it never comes sooner.
    public var secondUp: Int64 { Int64(now.rounded(.up)) }

    /// Runs `handler` on `queue` `seconds` from now.
    func schedule(in seconds: Double, on queue: DispatchQueue, _ handler: @escaping () -> Void) -> any ClockTimer {
        schedule(at: now + max(0, seconds), on: queue, handler)
    }
}

/// The machine's wall clock: timers on CLOCK_REALTIME (Dispatch's
/// `.wallDeadline`, so a suspend or a clock set forward does not make them
/// late), its settings told by `ClockWatch`.
public final class WallClock: DaemonClock {
    public init() {}

    public var now: Double { Date().timeIntervalSince1970 }

    public func schedule(at instant: Double, on queue: DispatchQueue, _ handler: @escaping () -> Void) -> any ClockTimer {
        let source = DispatchSource.makeTimerSource(queue: queue)
        let seconds = instant.rounded(.down)
        source.schedule(wallDeadline: DispatchWallTime(timespec: timespec(tv_sec: Int(seconds), tv_nsec: Int((instant - seconds) * 1e9))))
        source.setEventHandler(handler: handler)
        source.resume()
        return Timer(source)
    }

    public func watchSettings(on queue: DispatchQueue, _ changed: @escaping () -> Void) -> (any ClockTimer)? {
        ClockWatch(queue: queue, changed: changed)
    }

    final class Timer: ClockTimer {
        let source: any DispatchSourceTimer
        init(_ source: any DispatchSourceTimer) { self.source = source }
        func cancel() { source.cancel() }
    }
}

/// A clock that stands still until the test moves it, as swift-nio's
/// `EmbeddedEventLoop.advanceTime(by:)`: `advance` runs, in the order of
/// their moments, the wakes that come due, each on its queue with the clock
/// reading its moment, and returns once they have run. Call it from the
/// test's thread, never from the daemon's queue.
public final class ManualClock: DaemonClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double
    /// The wakes armed and the watches of its settings.
    private var entries: [Entry] = []
    /// The queues it has run work for: `advance` lets what is under way on
    /// them finish before it looks at what is due (a wake the file system
    /// set off may be arming a timer).
    private var queues: [DispatchQueue] = []

    /// A clock reading `now`, Unix seconds.
    public init(now: Double) {
        current = now
    }

    public var now: Double { lock.withLock { current } }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: Double) {
        advance(to: now + seconds)
    }

    /// Moves the clock on to `instant` (a moment past leaves it where it
    /// is), running every wake due by then.
    public func advance(to instant: Double) {
        for queue in lock.withLock({ queues }) { queue.sync {} }
        while let timer = lock.withLock({ () -> Entry? in
            let due = entries.filter { $0.instant.map { $0 <= instant } ?? false }
            guard let next = due.min(by: { $0.instant! < $1.instant! }) else {
                current = max(current, instant)
                return nil
            }
            entries.removeAll { $0 === next }
            current = max(current, next.instant!)
            return next
        }) {
            timer.runUnlessCancelled()
        }
    }

    /// Sets the clock to `instant`, forward or back, as a person or NTP
    /// does: those watching for settings are told, then what is due by the
    /// new reading runs.
    public func set(to instant: Double) {
        let watches = lock.withLock { () -> [Entry] in
            current = instant
            return entries.filter { $0.instant == nil }
        }
        for watch in watches { watch.runUnlessCancelled() }
        advance(to: instant)
    }

    public func schedule(at instant: Double, on queue: DispatchQueue, _ handler: @escaping () -> Void) -> any ClockTimer {
        register(Entry(clock: self, instant: instant, queue: queue, run: handler))
    }

    public func watchSettings(on queue: DispatchQueue, _ changed: @escaping () -> Void) -> (any ClockTimer)? {
        register(Entry(clock: self, instant: nil, queue: queue, run: changed))
    }

    private func register(_ entry: Entry) -> Entry {
        lock.withLock {
            entries.append(entry)
            if !queues.contains(where: { $0 === entry.queue }) { queues.append(entry.queue) }
        }
        return entry
    }

    /// A wake armed for `instant`, or (nil) a watch of the clock's settings.
    final class Entry: ClockTimer {
        weak var clock: ManualClock?
        let instant: Double?
        let queue: DispatchQueue
        let run: () -> Void
        var cancelled = false

        init(clock: ManualClock, instant: Double?, queue: DispatchQueue, run: @escaping () -> Void) {
            self.clock = clock
            self.instant = instant
            self.queue = queue
            self.run = run
        }

        /// On its queue, and not once cancelled (as a Dispatch source): it may be while it waited for the queue.
        func runUnlessCancelled() {
            queue.sync { if clock?.lock.withLock({ !cancelled }) ?? false { run() } }
        }

        func cancel() {
            guard let clock else { return }
            clock.lock.withLock {
                cancelled = true
                clock.entries.removeAll { $0 === self }
            }
        }
    }
}
