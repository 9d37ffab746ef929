#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1, for the servers the tests and benchmarks start
/// there (Radicale, Xandikos): one the system has free, and whether one
/// accepts connections yet.
public enum LoopbackPort {
    /// A port the system has free on 127.0.0.1 now (bound to port 0, read
    /// back, let go): another process can take it before the server binds
    /// it, so a caller tries a few.
    public static func free() throws(SystemError) -> Int {
        let descriptor = try SystemError.checking("socket") { socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0) }
        defer { close(descriptor) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try SystemError.checking("bind") {
            withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        }
        try SystemError.checking("getsockname") {
            withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connection to `port` on 127.0.0.1 is accepted now.
    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopback(port: port)
        let connected = SystemError.retryingEINTR {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        return connected == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        return address
    }
}
