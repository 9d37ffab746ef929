import CLibnotify
import Foundation
import Synchronization

/// The one thread of the process that touches GLib and libnotify.
///
/// libnotify delivers action and closed callbacks through GDBus signals,
/// which are dispatched in the main context that was the thread default
/// when its proxy was made, and only while someone runs that context.
/// libnotify keeps that proxy (and the session bus connection) per process,
/// so there is one such thread per process, shared by every
/// `DesktopNotifier`: a private `GMainContext` and `GMainLoop`, pushed as the
/// thread's default, and every call sent there.
///
/// A call to a notification server that is stopped (not gone) blocks for
/// GDBus's 25 s timeout, and one whose socket never answers blocks for good;
/// `call` gives up after its watchdog, and from then on the thread counts as
/// stuck: calls fail at once instead of queueing behind it, until the
/// blocked call returns.
final class GLibThread: @unchecked Sendable {
    static let shared = GLibThread()

    // Written once in init; read from any thread.
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private let thread: Thread
    /// When the call that outlived its watchdog started waiting; nil when none did.
    private let stuckSince = Mutex<Date?>(nil)
    /// The thread's pthread, set by the thread itself as it starts (0 until then):
    /// comparing it with pthread_self() is what `isCurrent` costs.
    private let identity = ThreadIdentity()

    private init() {
        context = g_main_context_new()
        loop = g_main_loop_new(context, 0)
        let context = self.context, loop = self.loop
        let pointers = UncheckedPointers(context: context, loop: loop)
        let identity = self.identity
        thread = Thread {
            identity.pthread.store(UInt(pthread_self()), ordering: .releasing)
            g_main_context_push_thread_default(pointers.context)
            g_main_loop_run(pointers.loop)
            g_main_context_pop_thread_default(pointers.context)
        }
        thread.name = "chime-glib"
        thread.start()
    }

    var isCurrent: Bool { UInt(pthread_self()) == identity.pthread.load(ordering: .acquiring) }

    /// Stops the process when called off the GLib thread (see `GLibBound`).
    static func preconditionCurrent(file: StaticString = #fileID, line: UInt = #line) {
        precondition(shared.isCurrent, "touched off the GLib thread", file: file, line: line)
    }

    /// Runs `work` on the GLib thread, soon; does not wait. Used where no
    /// answer is needed (withdrawing a notification).
    func post(_ work: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        g_main_context_invoke_full(context, chime_priority_default(), { data in
            Unmanaged<WorkBox>.fromOpaque(data!).takeUnretainedValue().work()
            return chime_source_remove()
        }, box, { data in
            Unmanaged<WorkBox>.fromOpaque(data!).release()
        })
    }

    /// Runs `work` on the GLib thread and waits at most `watchdog` seconds
    /// for its answer. Throws `.timedOut` when it takes longer (and the
    /// thread is stuck until it returns), `.stuck` at once while an earlier
    /// call is still blocked.
    func call<T: Sendable>(watchdog: Double, _ work: @escaping @Sendable () throws(NotificationError) -> T) throws(NotificationError) -> T {
        if isCurrent { return try work() }
        if let since = stuckSince.withLock({ $0 }) {
            throw .stuck(seconds: Date().timeIntervalSince(since))
        }
        let pending = Pending<T>()
        let started = Date()
        post { [self] in
            let result = Result { () throws(NotificationError) -> T in try work() }
            if !pending.finish(result) {
                // The caller gave up on this one: the thread is free again.
                self.stuckSince.withLock { $0 = nil }
            }
        }
        if pending.semaphore.wait(timeout: .now() + watchdog) == .timedOut, pending.abandon() {
            stuckSince.withLock { if $0 == nil { $0 = started } }
            throw .timedOut(seconds: watchdog)
        }
        return try pending.result()
    }
}

/// The context and loop, handed to the thread's block (raw pointers are
/// not Sendable; these two are only used there and by GLib's own locking).
private struct UncheckedPointers: @unchecked Sendable {
    let context: OpaquePointer
    let loop: OpaquePointer
}

private final class ThreadIdentity: Sendable {
    let pthread = Atomic<UInt>(0)
}

private final class WorkBox {
    let work: @Sendable () -> Void
    init(_ work: @escaping @Sendable () -> Void) { self.work = work }
}

/// One call's answer, handed from the GLib thread to the waiting caller.
private final class Pending<T: Sendable>: Sendable {
    let semaphore = DispatchSemaphore(value: 0)
    private let state = Mutex<(result: Result<T, NotificationError>?, abandoned: Bool)>((nil, false))

    /// Stores the answer; false when the caller had already given up.
    func finish(_ result: Result<T, NotificationError>) -> Bool {
        let waited = state.withLock { state -> Bool in
            guard !state.abandoned else { return false }
            state.result = result
            return true
        }
        if waited { semaphore.signal() }
        return waited
    }

    /// Gives up waiting; false when the answer arrived meanwhile (then it is used).
    func abandon() -> Bool {
        state.withLock { state in
            guard state.result == nil else { return false }
            state.abandoned = true
            return true
        }
    }

    func result() throws(NotificationError) -> T {
        guard let result = state.withLock({ $0.result }) else { throw .timedOut(seconds: 0) }
        return try result.get()
    }
}
