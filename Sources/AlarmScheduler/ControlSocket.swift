import DaemonControl
import Dispatch
import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's control socket: a Unix stream socket, mode 0600, in the
/// private runtime folder. One JSON object per line each way, so a script
/// can talk to it with nothing but a socket tool:
///
///     $ echo '{"request":"status"}' | socat - UNIX-CONNECT:$XDG_RUNTIME_DIR/chime/chimed.sock
///     {"ok":true,"pid":4711,...}
///
/// Only the daemon's own user may talk to it (SO_PEERCRED). A malformed,
/// oversized or unknown request gets an error reply and the connection goes
/// on; a line longer than `maximumLine` closes the connection after the reply.
///
/// Replies are written as the client reads them: what the socket does not
/// take at once waits in the connection's buffer, drained by a write source
/// on the daemon's queue, so a large reply arrives whole and a slow client
/// holds up nobody else. Meanwhile no more of its requests are read (a client
/// that sends many and reads none cannot grow the buffer), and a reply that
/// waits longer than `writeTimeout` seconds closes the connection.
final class ControlSocket: @unchecked Sendable {
    /// A request read, or why the line is not one (the handler words the answer).
    typealias Handler = (_ request: Result<ControlRequest, ControlRequest.Refusal>) -> ControlReply

    static let maximumLine = 64 * 1024
    /// How long a reply may wait for its client to read it.
    let writeTimeout: Double
    /// Requests are answered while less than this waits to be written.
    static let outputLimit = 256 * 1024

    /// One client: what it sent that is not a whole line yet, and what it
    /// has not read of the replies.
    private final class Connection {
        let descriptor: Int32
        let reader: DispatchSourceRead
        var readerSuspended = false
        var input: [UInt8] = []
        var output: [UInt8] = []
        var written = 0
        var writer: DispatchSourceWrite?
        var deadline: DispatchSourceTimer?
        var closeWhenWritten = false
        var dropped = false
        /// The sources still to be cancelled: the descriptor is closed after the last.
        var sources = 1

        init(descriptor: Int32, reader: DispatchSourceRead) {
            self.descriptor = descriptor
            self.reader = reader
        }

        var waiting: Int { output.count - written }

        func release() {
            sources -= 1
            if sources == 0 { close(descriptor) }
        }
    }

    let path: String
    private let listener: Int32
    private let queue: DispatchQueue
    private let handler: Handler
    private var acceptSource: DispatchSourceRead?
    private var connections: [Int32: Connection] = [:]

    init(path: String, queue: DispatchQueue, writeTimeout: Double = 10, handler: @escaping Handler) throws {
        self.path = path
        self.writeTimeout = writeTimeout
        self.queue = queue
        self.handler = handler
        // Its runtime folder's lock was removed under a running daemon:
        // the socket still answers, and is not taken from it.
        if Self.answers(path) {
            throw DaemonError(.alreadyRunning, "already running: a daemon answers at \(path)")
        }
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else {
            let failure = SystemError.last("socket")
            throw DaemonError(.controlSocket, "control socket: \(failure.reason)", systemError: failure)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(listener)
            throw DaemonError(.controlSocket, "control socket: the path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        // The folder is private already; the socket is 0600 as well.
        let mask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(mask)
        guard bound == 0, listen(listener, 16) == 0 else {
            let failure = SystemError.last(bound == 0 ? "listen" : "bind", path: path)
            close(listener)
            throw DaemonError(.controlSocket, "control socket \(path): \(failure.reason)", systemError: failure)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: listener, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        // Closed only once Dispatch has let go of it: a number closed before
        // then can be reused by another source while epoll still holds the
        // old registration, and its event then reaches freed memory.
        let descriptor = listener
        source.setCancelHandler { close(descriptor) }
        source.resume()
        acceptSource = source
    }

    /// Whether something listens at `path` (a stale socket file refuses).
    static func answers(_ path: String) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // EAGAIN: it listens, its backlog full.
        return connected == 0 || errno == EAGAIN
    }

    func stop() {
        dispatchPrecondition(condition: .onQueue(queue))
        acceptSource?.cancel()
        acceptSource = nil
        for connection in Array(connections.values) { drop(connection) }
        unlink(path)
    }

    private func acceptAll() {
        dispatchPrecondition(condition: .onQueue(queue))
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            guard Self.peerIsOwnUser(descriptor) else {
                // A short reply to a fresh socket: one try, no waiting.
                let data = ControlReply.refused("permission denied: not the daemon's user").line
                _ = data.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(descriptor)
                continue
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            let connection = Connection(descriptor: descriptor, reader: source)
            source.setEventHandler { [weak self, unowned connection] in self?.readFrom(connection) }
            source.setCancelHandler { connection.release() }
            source.resume()
            connections[descriptor] = connection
        }
    }

    /// `struct ucred`, which Glibc's module does not export (it needs _GNU_SOURCE).
    private struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    static func peerIsOwnUser(_ descriptor: Int32) -> Bool {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return false }
        return credentials.uid == getuid()
    }

    private func readFrom(_ connection: Connection) {
        dispatchPrecondition(condition: .onQueue(queue))
        var chunk = [UInt8](repeating: 0, count: 8192)
        let count = read(connection.descriptor, &chunk, chunk.count)
        if count <= 0 {
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            drop(connection)
            return
        }
        connection.input += chunk[0..<count]
        answerLines(connection)
    }

    /// Answers the whole lines received, while the replies waiting stay
    /// under `outputLimit`; reading waits while lines or replies do.
    private func answerLines(_ connection: Connection) {
        while connection.waiting < Self.outputLimit, !connection.dropped, !connection.closeWhenWritten,
              let newline = connection.input.firstIndex(of: 10) {
            let line = Array(connection.input[..<newline])
            connection.input.removeSubrange(...newline)
            reply(answer(line), to: connection)
        }
        guard !connection.dropped else { return }
        if !connection.closeWhenWritten && connection.input.count > Self.maximumLine && !connection.input.contains(10) {
            connection.closeWhenWritten = true
            reply(.refused("request longer than \(Self.maximumLine) bytes"), to: connection)
            guard !connection.dropped else { return }
        }
        if connection.closeWhenWritten && connection.waiting == 0 { return drop(connection) }
        let busy = connection.closeWhenWritten || connection.waiting > 0 || connection.input.contains(10)
        if busy && !connection.readerSuspended {
            connection.reader.suspend()
            connection.readerSuspended = true
        } else if !busy && connection.readerSuspended {
            connection.reader.resume()
            connection.readerSuspended = false
        }
    }

    private func answer(_ line: [UInt8]) -> ControlReply {
        guard line.count <= Self.maximumLine else {
            return .refused("request longer than \(Self.maximumLine) bytes")
        }
        let trimmed = line.last == 13 ? Array(line.dropLast()) : line
        guard !trimmed.isEmpty else { return .refused("empty request; send one JSON object per line") }
        return handler(Result { () throws(ControlRequest.Refusal) in try ControlRequest.parse(Data(trimmed)) })
    }

    private func reply(_ reply: ControlReply, to connection: Connection) {
        let data = reply.line
        if connection.waiting == 0 {
            connection.output = []
            connection.written = 0
        }
        connection.output += data
        write(connection)
    }

    /// Writes what the socket takes now; the rest waits for the write
    /// source, within `writeTimeout`.
    private func write(_ connection: Connection) {
        dispatchPrecondition(condition: .onQueue(queue))
        while connection.waiting > 0 {
            let count = connection.output.withUnsafeBytes { buffer in
                send(connection.descriptor, buffer.baseAddress! + connection.written, buffer.count - connection.written, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                connection.written += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                return waitToWrite(connection)
            } else {
                // The client is gone.
                return drop(connection)
            }
        }
        connection.output = []
        connection.written = 0
        connection.writer?.cancel()
        connection.writer = nil
        connection.deadline?.cancel()
        connection.deadline = nil
    }

    private func waitToWrite(_ connection: Connection) {
        if connection.writer == nil {
            let writer = DispatchSource.makeWriteSource(fileDescriptor: connection.descriptor, queue: queue)
            writer.setEventHandler { [weak self, unowned connection] in
                guard let self else { return }
                self.write(connection)
                // Written out: the requests that waited are answered now.
                if !connection.dropped && connection.waiting == 0 { self.answerLines(connection) }
            }
            connection.sources += 1
            writer.setCancelHandler { connection.release() }
            writer.resume()
            connection.writer = writer
        }
        if connection.deadline == nil {
            let deadline = DispatchSource.makeTimerSource(queue: queue)
            deadline.schedule(deadline: .now() + writeTimeout)
            deadline.setEventHandler { [weak self, unowned connection] in self?.drop(connection) }
            deadline.resume()
            connection.deadline = deadline
        }
    }

    private func drop(_ connection: Connection) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !connection.dropped else { return }
        connection.dropped = true
        connections[connection.descriptor] = nil
        connection.deadline?.cancel()
        connection.deadline = nil
        connection.writer?.cancel()
        connection.writer = nil
        // A suspended source must be resumed to be cancelled (and released).
        if connection.readerSuspended {
            connection.reader.resume()
            connection.readerSuspended = false
        }
        connection.reader.cancel()
    }
}
