#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: which call, on which path, and the errno it
/// left, read at once (the next call may change errno). Callers match
/// `code` (`ENOENT`, `EACCES`); messages quote `reason`, the system's own
/// words for it ("No such file or directory").
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var call: String
    public var path: String?

    public init(code: Int32, call: String, path: String? = nil) {
        self.code = code
        self.call = call
        self.path = path
    }

    /// The failure the last system call left in errno.
    public static func last(_ call: String, path: String? = nil) -> SystemError {
        SystemError(code: errno, call: call, path: path)
    }

    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(call)\(path.map { " " + $0 } ?? ""): \(reason)" }

    /// Calls `body`, again while it fails with EINTR: a signal that arrived
    /// while the call waited is no failure of the call. `body` returns what
    /// the system call does: -1 with errno set on failure. At most
    /// `maximumEINTRTries` calls: a storm of signals ends in the EINTR
    /// failure rather than a spin for ever.
    public static func retryingEINTR<T: SignedInteger>(_ body: () -> T) -> T {
        var result = body()
        var tries = 1
        while result == -1, errno == EINTR, tries < maximumEINTRTries {
            result = body()
            tries += 1
        }
        return result
    }

    /// How many times `retryingEINTR` calls at most.
    public static let maximumEINTRTries = 1_000

    /// `retryingEINTR`, throwing the failure (named `call`, on `path`)
    /// instead of returning -1.
    @discardableResult
    public static func checking<T: SignedInteger>(_ call: String, path: String? = nil, _ body: () -> T) throws(SystemError) -> T {
        let result = retryingEINTR(body)
        guard result != -1 else { throw last(call, path: path) }
        return result
    }
}
