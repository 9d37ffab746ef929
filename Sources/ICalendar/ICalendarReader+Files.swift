import Glibc
import SystemCalls

extension ICalendarReader {
    /// Reads the file at `path` (at most `limits.fileSize` bytes of it).
    public func read(path: String) throws(ICalendarReadError) -> Reading {
        try read(Self.readFile(path: path, limit: limits.fileSize))
    }

    /// Reads what `fileDescriptor` gives until its end (standard input for
    /// `chime import -`); an endless stream stops at `limits.fileSize`.
    /// The descriptor is left open.
    public func read(fileDescriptor: Int32) throws(ICalendarReadError) -> Reading {
        try read(Self.readBounded(fileDescriptor: fileDescriptor, limit: limits.fileSize))
    }

    /// The bytes of the file at `path`, refused with `.tooLarge` when it
    /// holds more than `limit`: a regular file by its size before reading,
    /// anything else (a FIFO, a device) after `limit + 1` bytes.
    public static func readFile(path: String, limit: Int) throws(ICalendarReadError) -> [UInt8] {
        let descriptor = SystemError.retryingEINTR { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw unreadable("cannot open \(path)") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable("cannot stat \(path)") }
        let isRegular = status.st_mode & S_IFMT == S_IFREG
        if isRegular, Int(status.st_size) > limit {
            throw ICalendarReadError(kind: .tooLarge, line: 0, reason: "\(path) holds \(status.st_size) bytes, more than \(limit)")
        }
        do {
            return try readBounded(fileDescriptor: descriptor, limit: limit, expected: isRegular ? Int(status.st_size) : 0)
        } catch {
            throw ICalendarReadError(kind: error.kind, line: 0, reason: "\(path): \(error.reason)")
        }
    }

    /// Everything `fileDescriptor` gives until its end, but never more than
    /// `limit` bytes held: past that it throws `.tooLarge` after reading
    /// `limit + 1`, so an endless pipe ends in an error, not in memory.
    public static func readBounded(fileDescriptor: Int32, limit: Int) throws(ICalendarReadError) -> [UInt8] {
        try readBounded(fileDescriptor: fileDescriptor, limit: limit, expected: 0)
    }

    static func readBounded(fileDescriptor: Int32, limit: Int, expected: Int) throws(ICalendarReadError) -> [UInt8] {
        var bytes: [UInt8] = []
        // One more than the limit, to tell a file of exactly `limit` bytes from a longer one.
        bytes.reserveCapacity(min(expected, limit) + 1)
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 1 << 16)
        defer { chunk.deallocate() }
        // Bounded: each turn reads at least one byte towards `limit + 1`, or ends.
        while true {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let got = SystemError.retryingEINTR { Glibc.read(fileDescriptor, chunk.baseAddress, wanted) }
            guard got >= 0 else { throw unreadable("cannot read") }
            if got == 0 { return bytes }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[0..<got]))
            guard bytes.count <= limit else {
                throw ICalendarReadError(kind: .tooLarge, line: 0, reason: "the input is larger than \(limit) bytes")
            }
        }
    }

    static func unreadable(_ what: String) -> ICalendarReadError {
        let failure = SystemError.last(what)
        return ICalendarReadError(kind: .unreadable(errno: failure.code), line: 0, reason: "\(what): \(failure.reason)")
    }
}
