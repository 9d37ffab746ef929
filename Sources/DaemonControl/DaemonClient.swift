import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// No daemon answered, or not as one should: `code` for a caller to
/// match, `description` for people.
public typealias DaemonClientError = CodedError<DaemonClientFailure>

/// What `DaemonClientError` says went wrong.
public enum DaemonClientFailure: Sendable, Equatable {
    /// Nothing listens at the socket: no daemon is running.
    case notRunning
    /// The daemon took no connection, or did not answer (or finish its answer) in time.
    case timedOut
    /// The daemon would not take the request, or closed the connection before its answer was whole.
    case refused
    /// The answer is not one JSON object, or is longer than a client takes.
    case badReply
    /// The request cannot be sent: it is not JSON, or the socket's path is too long.
    case badRequest
    /// The client's own socket could not be made.
    case noSocket
}

/// Talks to a running `chimed` over its control socket: one JSON request
/// line (`ControlRequest`), one JSON reply line (`ControlReply`).
public struct DaemonClient {
    public let socketPath: String

    public init(environment: [String: String]) {
        socketPath = Self.runtimeFolder(environment) + "/chimed.sock"
    }

    /// Where the daemon keeps its lock and socket: `$XDG_RUNTIME_DIR/chime`;
    /// without one, a private folder of this user's in /tmp.
    public static func runtimeFolder(_ environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { return runtime + "/chime" }
        return "/tmp/chime-\(getuid())"
    }

    /// Sends `request` and returns the reply; throws when no daemon answers
    /// within `timeout` seconds.
    public func send(_ request: ControlRequest, timeout: Int = 5) throws(DaemonClientError) -> ControlReply {
        try send(line: request.line, answering: request.name, timeout: timeout)
    }

    /// The longest reply taken.
    static let maximumReply = 64 * 1024 * 1024

    /// Sends one request already written as a JSON object (no newline), for
    /// a caller that builds large requests faster than an encoder, and reads
    /// the reply to a request named `name`.
    public func send(line request: Data, answering name: ControlRequest.Name, timeout: Int = 5) throws(DaemonClientError) -> ControlReply {
        let line = try exchange(line: request, timeout: timeout)
        guard let reply = try? ControlReply(decoding: line, answering: name) else {
            throw DaemonClientError(.badReply, "the daemon at \(socketPath) did not answer with a JSON object")
        }
        return reply
    }

    /// Sends one request line (no newline) and returns the reply line,
    /// unread (without its newline).
    /// `timeout` bounds the whole exchange, however the daemon trickles its
    /// reply: connecting, writing the request and reading the reply.
    public func exchange(line request: Data, timeout: Int = 5) throws(DaemonClientError) -> Data {
        let deadline = Date().addingTimeInterval(TimeInterval(timeout))
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else {
            let failure = SystemError.last("socket")
            throw DaemonClientError(.noSocket, "socket: \(failure.reason)", systemError: failure)
        }
        defer { close(descriptor) }
        // Connecting waits while the daemon's backlog is full: bounded by the send timeout.
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw DaemonClientError(.badRequest, "the path \(socketPath) is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let failure = SystemError.last("connect", path: socketPath)
            if failure.code == EAGAIN || failure.code == EINPROGRESS {
                throw DaemonClientError(.timedOut, "the daemon at \(socketPath) did not answer within \(timeout) s (it takes no connections)",
                                        systemError: failure)
            }
            throw DaemonClientError(.notRunning, "no daemon is running (nothing answers at \(socketPath): \(failure.reason))", systemError: failure)
        }
        let silent = DaemonClientError(.timedOut, "the daemon at \(socketPath) did not answer within \(timeout) s")
        var line = request
        line.append(10)
        var sent = 0
        while sent < line.count {
            guard Self.wait(descriptor, for: Int16(POLLOUT), until: deadline) else { throw silent }
            let count = line.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if count > 0 {
                sent += count
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                continue
            } else {
                let failure = SystemError.last("send", path: socketPath)
                throw DaemonClientError(.refused, "cannot write to \(socketPath): \(failure.reason)", systemError: failure)
            }
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var end: Int?
        while end == nil {
            guard Self.wait(descriptor, for: Int16(POLLIN), until: deadline) else {
                throw reply.isEmpty ? silent : DaemonClientError(.timedOut, "the daemon at \(socketPath) did not finish its reply within \(timeout) s "
                                                                       + "(\(reply.count) bytes came)")
            }
            let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if count < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            guard count > 0 else {
                throw DaemonClientError(.refused, reply.isEmpty ? "the daemon at \(socketPath) closed the connection without an answer"
                                                         : "the daemon at \(socketPath) closed the connection after \(reply.count) bytes of its reply")
            }
            if let newline = buffer[0..<count].firstIndex(of: 10) { end = reply.count + newline }
            reply += buffer[0..<count]
            guard reply.count <= Self.maximumReply else {
                throw DaemonClientError(.badReply, "the daemon at \(socketPath) sent a reply longer than \(Self.maximumReply) bytes")
            }
        }
        guard let end else { throw silent }
        return Data(reply[..<end])
    }

    /// Waits until `descriptor` is ready for `events`; false at `deadline`.
    private static func wait(_ descriptor: Int32, for events: Int16, until deadline: Date) -> Bool {
        while true {
            let milliseconds = Int32(max(0, min(deadline.timeIntervalSinceNow * 1000, Double(Int32.max))).rounded(.up))
            guard milliseconds > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return true }
        }
    }
}
