import Foundation
import Synchronization
import SystemCalls
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite(.serialized)
struct SystemErrorTests {
    @Test func aCallThatFailsWithEINTRTwiceIsCalledAgainUntilItSucceeds() {
        var calls = 0
        let result = SystemError.retryingEINTR { () -> Int32 in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 7
        }
        #expect(result == 7)
        #expect(calls == 3)
    }

    @Test func aFailureOtherThanEINTRIsReturnedAtOnceWithItsErrno() {
        var calls = 0
        let result = SystemError.retryingEINTR { () -> Int in
            calls += 1
            errno = ENOENT
            return -1
        }
        #expect(result == -1)
        #expect(calls == 1)
        #expect(errno == ENOENT)
    }

    @Test func aCallThatKeepsFailingWithEINTRIsGivenUpAfterTheBoundWithItsFailure() {
        var calls = 0
        let result = SystemError.retryingEINTR { () -> Int32 in
            calls += 1
            errno = EINTR
            return -1
        }
        #expect(result == -1)
        #expect(errno == EINTR)
        #expect(calls == SystemError.maximumEINTRTries)
        #expect(calls == 1_000)
    }

    @Test func checkingThrowsTheCallItsPathAndErrno() {
        #expect(throws: SystemError(code: ENOENT, call: "open", path: "/nonexistent/chime")) {
            try SystemError.checking("open", path: "/nonexistent/chime") { open("/nonexistent/chime", O_RDONLY) }
        }
    }

    @Test func theReasonIsTheSystemsOwnWordsAndTheDescriptionNamesTheCall() {
        let error = SystemError(code: ENOENT, call: "open", path: "/x")
        #expect(error.reason == "No such file or directory")
        #expect(error.description == "open /x: No such file or directory")
        #expect(SystemError(code: EACCES, call: "socket").description == "socket: Permission denied")
    }

    /// A read blocked on an empty pipe, interrupted by a signal whose
    /// handler does not ask for SA_RESTART, fails with EINTR; retried, it
    /// reads what the pipe is given afterwards.
    @Test func aReadInterruptedByASignalIsRetriedAndReadsWhatComesAfter() throws {
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = { _ in }
        handler.sa_flags = 0
        sigemptyset(&handler.sa_mask)
        var previous = sigaction()
        #expect(sigaction(SIGUSR1, &handler, &previous) == 0)
        defer { sigaction(SIGUSR1, &previous, nil) }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        // Its own thread, with SIGUSR1 unblocked there: the test runner's threads may block it.
        let readEnd = ends[0]
        let started = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let outcome = Mutex<(reader: pthread_t, calls: Int, count: Int, byte: UInt8)>((0, 0, 0, 0))
        Thread {
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGUSR1)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            outcome.withLock { $0.reader = pthread_self() }
            started.signal()
            var calls = 0
            var byte: UInt8 = 0
            let count = SystemError.retryingEINTR { () -> Int in
                calls += 1
                return read(readEnd, &byte, 1)
            }
            outcome.withLock { $0 = ($0.reader, calls, count, byte) }
            finished.signal()
        }.start()
        started.wait()
        usleep(100_000)
        pthread_kill(outcome.withLock { $0.reader }, SIGUSR1)
        usleep(100_000)
        var byte: UInt8 = 42
        #expect(write(ends[1], &byte, 1) == 1)
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let result = outcome.withLock { $0 }
        #expect(result.count == 1)
        #expect(result.byte == 42)
        #expect(result.calls >= 2, "the signal interrupted the read")
    }
}
