import Foundation
import Geofencing
#if canImport(Glibc)
import Glibc
#endif

/// Reads position lines from a descriptor for `chime location --stdin`,
/// passing fixes to a `LocationFeed` as they come. It waits for input with
/// poll(2), so that a batch waiting on a slow feeder still goes out on time.
struct PositionStream {
    struct Counts {
        var lines = 0
        var fixes = 0
        var skipped = 0
        var refused = 0
    }

    /// A longer line is refused without being held whole in memory.
    static let maximumLine = 1 << 20
    /// At most this many refusals are written out; the count covers all.
    static let maximumMessages = 100

    let descriptor: Int32
    let command: String
    let context: CommandContext

    func read(into feed: LocationFeed) throws(CommandFailure) -> Counts {
        var counts = Counts()
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var overlong = false
        while true {
            var wait = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&wait, 1, Int32(feed.millisecondsUntilDue ?? -1))
            if ready < 0 {
                guard errno == EINTR else { throw .data("\(command): cannot wait for standard input: \(String(cString: strerror(errno)))") }
                continue
            }
            if ready > 0 {
                let count = Glibc.read(descriptor, &chunk, chunk.count)
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw .data("\(command): cannot read standard input: \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                var start = 0
                var index = 0
                while index < count {
                    if chunk[index] == 10 {
                        if overlong {
                            overlong = false
                        } else {
                            buffer += chunk[start..<index]
                            try line(buffer, &counts, feed)
                        }
                        buffer.removeAll(keepingCapacity: true)
                        start = index + 1
                    }
                    index += 1
                }
                if !overlong { buffer += chunk[start..<count] }
                if buffer.count > Self.maximumLine {
                    counts.lines += 1
                    refuse("longer than \(Self.maximumLine) bytes", line: counts.lines, &counts)
                    buffer.removeAll(keepingCapacity: true)
                    overlong = true
                }
            }
            try feed.flushIfDue()
        }
        if !buffer.isEmpty && !overlong { try line(buffer, &counts, feed) }
        try feed.flush()
        return counts
    }

    private func line(_ bytes: [UInt8], _ counts: inout Counts, _ feed: LocationFeed) throws(CommandFailure) {
        counts.lines += 1
        let text = String(decoding: bytes, as: UTF8.self)
        let parsed: PositionLine
        do {
            parsed = try PositionLine.parse(text, receivedAt: context.now().timeIntervalSince1970)
        } catch {
            refuse(error.message, line: counts.lines, &counts)
            return
        }
        switch parsed {
        case .fix(let fix):
            counts.fixes += 1
            try feed.add(fix)
        case .skipped:
            counts.skipped += 1
        }
    }

    private func refuse(_ message: String, line: Int, _ counts: inout Counts) {
        counts.refused += 1
        if counts.refused <= Self.maximumMessages {
            context.standardError("\(command): line \(line): \(message)")
        } else if counts.refused == Self.maximumMessages + 1 {
            context.standardError("\(command): more lines refused; the count comes at the end")
        }
    }
}
