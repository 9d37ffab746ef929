import Foundation
import Synchronization

/// Runs a program to its end with no input; returns its exit status and
/// everything it wrote to standard output and standard error.
public func runProcess(_ executable: String, _ arguments: [String],
                       environment: [String: String]? = nil) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let out = Pipe(), err = Pipe()
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return (process.terminationStatus, printed, errors)
}

/// The lines a child process writes to a pipe, each with when it arrived,
/// read by a thread of its own with blocking reads.
///
/// Not `FileHandle.readabilityHandler`: that is a Dispatch source, and
/// FileHandle closes its descriptor right after cancelling it, before
/// Dispatch has taken it out of epoll. Process closes only the descriptors
/// open when it looked (/proc/self/fd), so a child started by another test
/// at that moment can inherit the pipe; its registration then outlives the
/// source, and the pipe's next event reached freed memory in
/// `_dispatch_event_loop_drain` (two CI runs crashed so, with the CalDAV
/// servers running beside the daemon tests).
public final class ChildOutput: Sendable {
    private let received = Mutex<[(line: String, at: Date)]>([])
    /// The pipe to give the child as its standard output or error.
    public let pipe: Pipe

    public init() {
        pipe = Pipe()
        // Close-on-exec at once, so that another test's child does not keep the pipe open.
        for descriptor in [pipe.fileHandleForReading.fileDescriptor, pipe.fileHandleForWriting.fileDescriptor] {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        let reading = pipe.fileHandleForReading
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            func deliver(_ bytes: ArraySlice<UInt8>) {
                let line = String(decoding: bytes, as: UTF8.self)
                self.received.withLock { $0.append((line, Date())) }
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(reading.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending += buffer[..<count]
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    if end > 0 { deliver(pending[..<end]) }
                    pending.removeSubrange(...end)
                }
            }
            if !pending.isEmpty { deliver(pending[...]) }
            // The read end stays open until here: the thread holds the handle.
            _ = reading
        }
        thread.start()
    }

    /// The lines so far, with their arrival times.
    public var timedLines: [(line: String, at: Date)] { received.withLock { $0 } }
    /// The lines so far.
    public var lines: [String] { received.withLock { $0.map(\.line) } }
}
