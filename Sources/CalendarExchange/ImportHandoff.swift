import Dispatch
import Synchronization

/// The way from an import's reading thread to the thread that holds its
/// store (see `ImportWriter.concurrently`): pieces to write, calls to make
/// on the store, and the end of the reading, taken in the order they were
/// posted. At most `capacity` pieces wait, so that the reading runs at
/// most that far ahead of the writing and the import's memory stays
/// bounded: a piece posted past it waits for room. A piece written comes
/// back to the reading side, which lets it go as it posts the next: its
/// memory was allocated there, and freeing it was a tenth of what the
/// store's thread did for a 10,000-event import.
final class ImportHandoff<Piece: Sendable>: Sendable {
    enum Message: Sendable {
        case piece(Piece)
        /// Run on the store's thread; the poster waits for it (see `call`).
        case call(@Sendable () -> Void)
        /// The reading has ended: the store's thread stops serving.
        case done
    }

    private let messages = Mutex<[Message]>([])
    /// Whether the store's thread waits for a message (see `storeIsIdle`).
    private let waiting = Atomic<Bool>(false)
    /// Pieces written, for the reading side to let go.
    private let written = Mutex<[Piece]>([])
    private let posted = DispatchSemaphore(value: 0)
    private let room: DispatchSemaphore

    init(capacity: Int) {
        room = DispatchSemaphore(value: max(1, capacity))
    }

    /// Reading side: hands a piece over, waiting while `capacity` wait already.
    func post(piece: Piece) {
        room.wait()
        letWrittenGo()
        post(.piece(piece))
    }

    /// Reading side: the reading is over.
    func postDone() {
        post(.done)
        letWrittenGo()
    }

    /// Reading side: lets the pieces written since go, here.
    private func letWrittenGo() {
        // Taken out under the lock, let go after it: the store's thread need not wait for the freeing.
        _ = written.withLock { pieces in
            defer { pieces = [] }
            return pieces
        }
    }

    /// Reading side: whether the store's thread has nothing to do and
    /// waits for the next message. A hint, not a promise: it may be about
    /// to wait, or just woken.
    var storeIsIdle: Bool {
        waiting.load(ordering: .relaxed)
    }

    /// Reading side: runs `body` on the store's thread and waits for it.
    func call<T>(_ body: () -> T) -> T {
        withoutActuallyEscaping(body) { body in
            // Both live until `finished` is signalled, while this thread waits.
            let work = HandedOverWork<T, Never>(body)
            let finished = DispatchSemaphore(value: 0)
            post(.call {
                work.run()
                finished.signal()
            })
            finished.wait()
            return work.take().get()
        }
    }

    private func post(_ message: Message) {
        messages.withLock { $0.append(message) }
        posted.signal()
    }

    /// Store side: hands each piece to `write` and runs each call, in the
    /// order posted, until the reading is over.
    func serve(_ write: (Piece) -> Void) {
        while true {
            waiting.store(true, ordering: .relaxed)
            posted.wait()
            waiting.store(false, ordering: .relaxed)
            let message = messages.withLock { $0.removeFirst() }
            switch message {
            case .piece(let piece):
                room.signal()
                write(piece)
                written.withLock { $0.append(piece) }
            case .call(let body):
                body()
            case .done:
                return
            }
        }
    }
}

/// Work handed to another thread and its outcome, touched by one thread
/// at a time: one runs it, the other takes the outcome once told it has
/// run (a call the reading makes on the store's thread, the reading of
/// `ImportWriter.concurrently`). The work is let go as soon as it has
/// run, so that no reference to it outlives `withoutActuallyEscaping`.
final class HandedOverWork<T, Failure: Error>: @unchecked Sendable {
    private var body: (() throws(Failure) -> T)?
    private var outcome: Result<T, Failure>?

    init(_ body: @escaping () throws(Failure) -> T) {
        self.body = body
    }

    func run() {
        guard let body else { return }
        outcome = Result { () throws(Failure) -> T in try body() }
        self.body = nil
    }

    func take() -> Result<T, Failure> {
        defer { outcome = nil }
        return outcome!
    }
}
