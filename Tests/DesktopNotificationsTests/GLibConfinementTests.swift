@testable import DesktopNotifications
import Testing

/// What the GLib thread's own state is checked with: `GLibThread.isCurrent`
/// and `GLibBound`.
@Suite("State confined to the GLib thread")
struct GLibConfinementTests {
    @Test("the GLib thread knows itself, and no other thread counts as it")
    func isCurrent() throws {
        #expect(!GLibThread.shared.isCurrent)
        #expect(try GLibThread.shared.call(watchdog: 10) { GLibThread.shared.isCurrent })
    }

    @Test("a GLib-bound value is read and changed on the GLib thread")
    func onTheThread() throws {
        let value = try GLibThread.shared.call(watchdog: 10) { () -> Int in
            var bound = GLibBound(1)
            bound.value += 1
            return bound.value
        }
        #expect(value == 2)
    }

    @Test("reading a GLib-bound value on another thread stops the process")
    func offTheThread() async {
        await #expect(processExitsWith: .failure) {
            let bound = GLibBound(1)
            _ = bound.value
        }
    }
}
