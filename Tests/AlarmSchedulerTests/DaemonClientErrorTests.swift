import AlarmScheduler
import DaemonControl
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a caller of `DaemonClient` matches: one code per way the exchange fails.
@Suite("The daemon client's error codes")
struct DaemonClientErrorTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chime-client-\(UUID().uuidString)").path

    /// A socket where chimed's would be, whose one connection `serve` handles.
    private func listen(_ serve: @escaping @Sendable (Int32) -> Void) throws -> (client: DaemonClient, listener: Int32) {
        let listener = try listenWhereTheDaemonWould(runtime: folder)
        Thread {
            let peer = accept(listener, nil, nil)
            guard peer >= 0 else { return }
            serve(peer)
            close(peer)
        }.start()
        return (DaemonClient(environment: ["XDG_RUNTIME_DIR": folder]), listener)
    }

    private func code(_ body: () throws(DaemonClientError) -> Void) -> DaemonClientError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    /// Reads up to the request's newline, so that the client's write is taken.
    private static func readRequest(_ peer: Int32) {
        var byte: UInt8 = 0
        while recv(peer, &byte, 1, 0) == 1 && byte != 10 {}
    }

    @Test("with no socket at all, the client says no daemon is running, with connect's errno beneath")
    func notRunning() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": folder])
        do {
            _ = try client.send(.status, timeout: 1)
            Issue.record("a reply without a daemon")
        } catch {
            #expect(error.code == .notRunning)
            #expect(error.systemError?.code == ENOENT)
            #expect(error.systemError?.call == "connect")
            #expect(error.description.hasPrefix("no daemon is running"))
        }
    }

    @Test("a daemon that takes the request and never answers is timed out")
    func timedOut() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (client, listener) = try listen { peer in
            Self.readRequest(peer)
            usleep(2_000_000)
        }
        defer { close(listener) }
        #expect(code { () throws(DaemonClientError) in _ = try client.send(.status, timeout: 1) } == .timedOut)
    }

    @Test("a daemon that closes the connection without an answer refused it")
    func refused() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (client, listener) = try listen { peer in Self.readRequest(peer) }
        defer { close(listener) }
        #expect(code { () throws(DaemonClientError) in _ = try client.send(.status, timeout: 30) } == .refused)
    }

    @Test("an answer that is not a JSON object is a bad reply")
    func badReply() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (client, listener) = try listen { peer in
            Self.readRequest(peer)
            _ = "[1, 2]\n".withCString { send(peer, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
        }
        defer { close(listener) }
        #expect(code { () throws(DaemonClientError) in _ = try client.send(.status, timeout: 30) } == .badReply)
    }

    @Test("a socket path longer than a Unix socket takes is a bad request, not an absent daemon")
    func badRequest() {
        let client = DaemonClient(environment: ["XDG_RUNTIME_DIR": folder + "/" + String(repeating: "x", count: 120)])
        #expect(code { () throws(DaemonClientError) in _ = try client.send(.status, timeout: 1) } == .badRequest)
    }
}
