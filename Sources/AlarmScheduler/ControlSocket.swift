import Dispatch
import Foundation
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
final class ControlSocket: @unchecked Sendable {
    typealias Handler = (_ request: [String: Any]) -> [String: Any]

    static let maximumLine = 64 * 1024

    let path: String
    private let listener: Int32
    private let queue: DispatchQueue
    private let handler: Handler
    private var acceptSource: DispatchSourceRead?
    private var connections: [Int32: (source: DispatchSourceRead, buffer: [UInt8])] = [:]

    init(path: String, queue: DispatchQueue, handler: @escaping Handler) throws {
        self.path = path
        self.queue = queue
        self.handler = handler
        unlink(path)
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard listener >= 0 else { throw Daemon.Failure(description: "control socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(listener)
            throw Daemon.Failure(description: "control socket: the path \(path) is too long")
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
            let reason = String(cString: strerror(errno))
            close(listener)
            throw Daemon.Failure(description: "control socket \(path): \(reason)")
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: listener, queue: queue)
        source.setEventHandler { [weak self] in self?.acceptAll() }
        source.resume()
        acceptSource = source
    }

    func stop() {
        acceptSource?.cancel()
        for (descriptor, connection) in connections {
            connection.source.cancel()
            close(descriptor)
        }
        connections = [:]
        close(listener)
        unlink(path)
    }

    private func acceptAll() {
        while true {
            let descriptor = accept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            guard Self.peerIsOwnUser(descriptor) else {
                reply(["ok": false, "error": "permission denied: not the daemon's user"], to: descriptor)
                close(descriptor)
                continue
            }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.readFrom(descriptor) }
            source.resume()
            connections[descriptor] = (source, [])
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

    private func readFrom(_ descriptor: Int32) {
        var chunk = [UInt8](repeating: 0, count: 8192)
        let count = read(descriptor, &chunk, chunk.count)
        if count <= 0 {
            if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
            drop(descriptor)
            return
        }
        guard var connection = connections[descriptor] else { return }
        connection.buffer += chunk[0..<count]
        while let newline = connection.buffer.firstIndex(of: 10) {
            let line = Array(connection.buffer[..<newline])
            connection.buffer.removeSubrange(...newline)
            reply(answer(line), to: descriptor)
        }
        if connection.buffer.count > Self.maximumLine {
            reply(["ok": false, "error": "request longer than \(Self.maximumLine) bytes"], to: descriptor)
            drop(descriptor)
            return
        }
        connections[descriptor] = connection
    }

    private func answer(_ line: [UInt8]) -> [String: Any] {
        guard line.count <= Self.maximumLine else {
            return ["ok": false, "error": "request longer than \(Self.maximumLine) bytes"]
        }
        let trimmed = line.last == 13 ? Array(line.dropLast()) : line
        guard !trimmed.isEmpty else { return ["ok": false, "error": "empty request; send one JSON object per line"] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed)), let request = object as? [String: Any] else {
            return ["ok": false, "error": "not a JSON object: send one per line, such as {\"request\":\"status\"}"]
        }
        return handler(request)
    }

    private func reply(_ object: [String: Any], to descriptor: Int32) {
        guard var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        data.append(10)
        data.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = send(descriptor, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count <= 0 { break }
                sent += count
            }
        }
    }

    private func drop(_ descriptor: Int32) {
        connections[descriptor]?.source.cancel()
        connections[descriptor] = nil
        close(descriptor)
    }
}
