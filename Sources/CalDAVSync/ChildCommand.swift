import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// A program run to its end under a time limit of Chime's own, with a
/// little input and a bounded output: the password command, and
/// `secret-tool` storing or clearing a password.
///
/// The input goes through a socket pair, not a pipe: `send` with
/// MSG_NOSIGNAL cannot raise SIGPIPE when the child exits without reading
/// it, and the password never touches a file.
struct ChildCommand {
    var words: [String]
    /// What messages call it: "password command 'pass'".
    var name: String
    /// The child's environment (nil: this process's).
    var environment: [String: String]?
    var timeLimit: Double
    /// Whether the child's standard error is kept for the message (else it
    /// goes to this process's: a password command may ask something there).
    var keepsErrors = false

    /// Output beyond this is not read: a password, or a message, is short.
    static let outputLimit = 64 << 10

    struct Outcome {
        var status: Int32
        var output: Data
        /// The first line of its standard error, when kept.
        var error: String = ""
    }

    func run(input: Data? = nil) throws(PasswordCommand.Failure) -> Outcome {
        guard let first = words.first, !first.isEmpty else { throw .init(description: "\(name) is empty") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: first.contains("/") ? first : "/usr/bin/env")
        process.arguments = first.contains("/") ? Array(words.dropFirst()) : words
        if let environment { process.environment = environment }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        if keepsErrors { process.standardError = errors }
        var ends: [Int32] = [-1, -1]
        // The child's end, owned by its handle (closed once, by it).
        var childEnd: FileHandle?
        if input != nil {
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw .init(description: "\(name) could not be given its input: \(SystemError.last("socketpair").reason)")
            }
            childEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            process.standardInput = childEnd
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        defer { if ends[0] >= 0 { close(ends[0]) } }
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw .init(description: "\(name) could not be started: \(error.localizedDescription)")
        }
        if let input {
            try? childEnd?.close()
            let sent = input.withUnsafeBytes { send(ends[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            // A child that exits without reading its input is judged by its status below.
            _ = sent
            shutdown(ends[0], Int32(SHUT_WR))
        }
        // Read while it runs: a full pipe would stop it.
        let bytes = Reader(output.fileHandleForReading)
        let messages = keepsErrors ? Reader(errors.fileHandleForReading) : nil
        guard finished.wait(timeout: .now() + timeLimit) == .success else {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw .init(description: "\(name) gave no answer within \(Int(timeLimit)) s")
        }
        // A child that left a daemon holding its output is not waited for.
        let error = String(decoding: messages?.bytes(waiting: 5) ?? Data(), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return Outcome(status: process.terminationStatus, output: bytes.bytes(waiting: 5), error: error)
    }

    /// Reads a pipe to its end (at most `outputLimit`) on a thread of its
    /// own: a Dispatch queue's block can wait for a worker thread as long as
    /// the pool is busy, and a reader that has not started reads nothing
    /// (a password command under load once "printed no password" so).
    final class Reader: @unchecked Sendable {
        private var read = Data()
        private let done = DispatchSemaphore(value: 0)

        init(_ handle: FileHandle) {
            Thread { [self] in
                read = (try? handle.read(upToCount: ChildCommand.outputLimit)) ?? Data()
                done.signal()
            }.start()
        }

        /// What was read, once the end came within `seconds`; else nothing
        /// (what the thread will still write is never looked at).
        func bytes(waiting seconds: Double) -> Data {
            done.wait(timeout: .now() + seconds) == .success ? read : Data()
        }
    }
}
