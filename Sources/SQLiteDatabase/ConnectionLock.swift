import Glibc
import Synchronization

/// A recursive mutex that knows whether the calling thread holds it.
///
/// `Database` holds it around every use of its connection, for as long as a
/// transaction or a row iteration lasts, so that another thread's statements
/// never land inside this thread's transaction; the same thread may re-enter
/// (a query inside a transaction inside a migration). `Statement` checks that
/// its caller holds it.
final class ConnectionLock: @unchecked Sendable {
    // pthread mutexes must not move: keep it in memory of its own.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The holding thread's `pthread_self()`, 0 when free. Written only by the
    /// holder; any other thread reads either 0 or a value that is not its own.
    private let owner = Atomic<UInt>(0)
    /// Re-entry depth; touched only by the holder.
    private var depth = 0

    init() {
        mutex = .allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        let status = pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    var isHeldByCurrentThread: Bool {
        owner.load(ordering: .relaxed) == UInt(pthread_self())
    }

    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        depth += 1
        if depth == 1 { owner.store(UInt(pthread_self()), ordering: .relaxed) }
        defer {
            depth -= 1
            if depth == 0 { owner.store(0, ordering: .relaxed) }
            pthread_mutex_unlock(mutex)
        }
        return try body()
    }
}
