import CTimerFD
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Tells when the wall clock is set (by hand, by NTP stepping it): a
/// CLOCK_REALTIME timerfd armed far ahead with TFD_TIMER_CANCEL_ON_SET,
/// whose read fails with ECANCELED when the clock jumps. Costs no wakeups
/// while the clock runs on. `WallClock`'s watch of its settings.
final class ClockWatch: ClockTimer {
    private let descriptor: Int32
    private let source: DispatchSourceRead

    /// `changed` runs on `queue` after each setting of the clock.
    init?(queue: DispatchQueue, changed: @escaping () -> Void) {
        descriptor = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        // Armed before the source exists: a source given up unresumed is a
        // Dispatch error, and its descriptor must outlive it.
        guard Self.arm(descriptor) else {
            close(descriptor)
            return nil
        }
        source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
        let descriptor = descriptor
        source.setEventHandler {
            var expirations: UInt64 = 0
            let count = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
            if count < 0 && errno == ECANCELED {
                _ = Self.arm(descriptor)
                changed()
            }
        }
        source.setCancelHandler { close(descriptor) }
        source.resume()
    }

    deinit { source.cancel() }

    func cancel() { source.cancel() }

    /// Armed a century ahead: it only ever reports a setting of the clock.
    private static func arm(_ descriptor: Int32) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var setting = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0),
                                 it_value: timespec(tv_sec: now.tv_sec + 100 * 365 * 86_400, tv_nsec: 0))
        return timerfd_settime(descriptor, chime_timerfd_cancel_on_set(), &setting, nil) == 0
    }
}
