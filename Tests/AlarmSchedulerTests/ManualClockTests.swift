import AlarmScheduler
import Dispatch
import Synchronization
import Testing

/// The clock daemon tests move: what `advance` and `set` run, and when.
@Suite("ManualClock")
struct ManualClockTests {
    let queue = DispatchQueue(label: "manual-clock-tests")

    @Test("advance runs the wakes due by then in the order of their moments, each on its queue with the clock reading its moment, and no later one")
    func advanceRunsWhatIsDue() {
        // 2026-12-01T09:00:00Z
        let clock = ManualClock(now: 1_796_115_600)
        let ran = Mutex<[Double]>([])
        var timers: [any ClockTimer] = []
        for at in [1_796_115_605.0, 1_796_115_601, 1_796_115_620] {
            timers.append(clock.schedule(at: at, on: queue) {
                dispatchPrecondition(condition: .onQueue(queue))
                ran.withLock { $0.append(clock.now) }
            })
        }
        clock.advance(by: 10)
        #expect(ran.withLock { $0 } == [1_796_115_601, 1_796_115_605])
        #expect(clock.now == 1_796_115_610)   // 2026-12-01T09:00:10Z
        clock.advance(to: 1_796_115_620)
        #expect(ran.withLock { $0 } == [1_796_115_601, 1_796_115_605, 1_796_115_620])
    }

    @Test("a wake armed by a wake runs in the same advance when it comes due by its end; a cancelled one never runs")
    func rearmedAndCancelled() {
        let clock = ManualClock(now: 1_796_115_600)
        let ran = Mutex<[String]>([])
        let cancelled = clock.schedule(at: 1_796_115_602, on: queue) { ran.withLock { $0.append("cancelled") } }
        var again: (any ClockTimer)?
        let first = clock.schedule(at: 1_796_115_601, on: queue) {
            ran.withLock { $0.append("first") }
            cancelled.cancel()
            again = clock.schedule(at: 1_796_115_603, on: queue) { ran.withLock { $0.append("again") } }
        }
        clock.advance(by: 5)
        #expect(ran.withLock { $0 } == ["first", "again"])
        _ = (first, again)
    }

    @Test("set tells the settings watch, back or forward, and runs what the new reading makes due; a moment past leaves advance where it is")
    func setTellsTheWatch() {
        let clock = ManualClock(now: 1_796_115_600)
        let told = Mutex<[Double]>([])
        let watch = clock.watchSettings(on: queue) { told.withLock { $0.append(clock.now) } }
        let due = Mutex(false)
        let timer = clock.schedule(at: 1_796_119_200, on: queue) { due.withLock { $0 = true } }
        clock.set(to: 1_796_112_000)   // 2026-12-01T08:00:00Z, an hour back
        clock.advance(to: 1_796_100_000)
        #expect(clock.now == 1_796_112_000)
        clock.set(to: 1_796_122_800)   // 2026-12-01T11:00:00Z
        #expect(told.withLock { $0 } == [1_796_112_000, 1_796_122_800])
        #expect(due.withLock { $0 })
        watch?.cancel()
        clock.set(to: 1_796_126_400)
        #expect(told.withLock { $0 }.count == 2)
        _ = timer
    }
}
