import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// The process's standard descriptors, written as they are: FileHandle
/// traps when one is closed (`chimed 2>&-`), and there is nowhere left to
/// say that a write to standard error failed.
public enum StandardStream {
    /// Writes all of `text` to `descriptor`, retrying after a signal; false
    /// when it could not (closed, full, a reader gone).
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = SystemError.retryingEINTR { Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset) }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    public static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

    /// Points each of descriptors 0, 1 and 2 that is closed at /dev/null.
    public static func reopenClosedOnNull() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where !isOpen(descriptor) {
            reopenOnNull(descriptor)
        }
    }

    /// Points a closed descriptor at /dev/null, so that the next file the
    /// process opens does not become its standard output or error. Without
    /// close-on-exec, as a standard descriptor is: a program chime runs (a
    /// password command) gets it too.
    private static func reopenOnNull(_ descriptor: Int32) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { return }
        if null == descriptor {
            _ = fcntl(descriptor, F_SETFD, 0)
        } else {
            _ = dup2(null, descriptor)
            close(null)
        }
    }
}
