import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1 for tests: answers GET requests
/// from a table of paths, 404 for anything else, one connection at a time.
/// It stops when `stop()` is called or the server is released.
final class LoopbackHTTPServer: Sendable {
    let port: UInt16
    private let socket: Int32
    private let files: Mutex<[String: [UInt8]]>
    private let log = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)
    private let stopped = Mutex(false)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(files: [String: [UInt8]]) throws {
        self.files = Mutex(files)
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw Failure(description: "bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        socket = descriptor
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// The base URL, `http://127.0.0.1:PORT`.
    var base: String { "http://127.0.0.1:\(port)" }

    /// The paths asked for so far, in order.
    var requests: [String] { log.withLock { $0 } }

    func setFile(_ path: String, _ body: [UInt8]?) {
        files.withLock { $0[path] = body }
    }

    /// Stops serving; once only, as the descriptor number may belong to
    /// another socket after it is closed.
    func stop() {
        guard stopped.withLock({ let first = !$0; $0 = true; return first }) else { return }
        // shutdown wakes the accept() the serving thread sleeps in.
        shutdown(socket, Int32(SHUT_RDWR))
        done.wait()
        close(socket)
    }

    private func serve() {
        defer { done.signal() }
        while true {
            let connection = accept(socket, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return
            }
            answer(connection)
            close(connection)
        }
    }

    private func answer(_ connection: Int32) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read the request head; the body of a GET is empty.
        while request.count < 65_536 {
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 { break }
            request += buffer[0..<count]
            if request.count >= 4, request.suffix(4) == [13, 10, 13, 10] { break }
            if let text = String(bytes: request, encoding: .utf8), text.contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let parts = line.split(separator: " ")
        let path = parts.count >= 2 ? String(parts[1]) : "/"
        log.withLock { $0.append(path) }
        let body = parts.first == "GET" ? files.withLock { $0[path] } : nil
        let status = body == nil ? "404 Not Found" : "200 OK"
        let payload = body ?? Array("not found\n".utf8)
        let head = "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
        let response = Array(head.utf8) + payload
        var sent = 0
        while sent < response.count {
            let count = response[sent...].withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            sent += count
        }
    }
}
