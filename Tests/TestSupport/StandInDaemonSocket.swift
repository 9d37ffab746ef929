import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A listening socket where chimed's control socket would be
/// (`RUNTIME/chime/chimed.sock`, the folder private), for tests that play a
/// daemon answering badly; returns the listener, which the caller closes.
public func listenWhereTheDaemonWould(runtime: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
    try FileManager.default.createDirectory(atPath: runtime + "/chime", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    let path = runtime + "/chime/chimed.sock"
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in for (index, byte) in Array(path.utf8).enumerated() { buffer[index] = byte } }
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    try #require(bound == 0 && listen(listener, 4) == 0, sourceLocation: sourceLocation)
    return listener
}
