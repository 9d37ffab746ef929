import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Talks to a running `chimed` over its control socket: one JSON request
/// line, one JSON reply line.
public struct DaemonClient {
    public let socketPath: String

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init(environment: [String: String]) {
        socketPath = Daemon.runtimeFolder(environment) + "/chimed.sock"
    }

    /// Sends `request` and returns the reply; throws when no daemon answers
    /// within `timeout` seconds.
    public func send(_ request: [String: Any], timeout: Int = 5) throws(Failure) -> [String: Any] {
        guard let line = try? JSONSerialization.data(withJSONObject: request) else { throw Failure(description: "the request is not JSON") }
        return try send(line: line, timeout: timeout)
    }

    /// Sends one request already written as a JSON object (no newline), for
    /// a caller that builds large requests faster than JSONSerialization.
    public func send(line request: Data, timeout: Int = 5) throws(Failure) -> [String: Any] {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(description: "the path \(socketPath) is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            throw Failure(description: "no daemon is running (nothing answers at \(socketPath): \(String(cString: strerror(errno))))")
        }
        var line = request
        line.append(10)
        let sent = line.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == line.count else { throw Failure(description: "cannot write to \(socketPath): \(String(cString: strerror(errno)))") }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while !reply.contains(10), reply.count < 16 * 1024 * 1024 {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            reply += buffer[0..<count]
        }
        guard let end = reply.firstIndex(of: 10),
              let object = try? JSONSerialization.jsonObject(with: Data(reply[..<end])) as? [String: Any] else {
            throw Failure(description: "the daemon at \(socketPath) did not answer")
        }
        return object
    }
}
