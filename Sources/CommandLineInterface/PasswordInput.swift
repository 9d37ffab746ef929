import CommandLineSupport
import Foundation
import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// The password `--password-stdin` reads: the first line of standard input,
/// as `docker login --password-stdin` takes it, so that it is never in the
/// command line (ps, the shell's history). On a terminal it asks, without echo.
enum PasswordInput {
    /// Longer than any password a server takes; past it the input is not a password.
    static let limit = 4096

    static func read(from descriptor: Int32, prompt: String, command: String) throws(CommandFailure) -> String {
        var saved = termios()
        let terminal = isatty(descriptor) == 1 && tcgetattr(descriptor, &saved) == 0
        if terminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            _ = tcsetattr(descriptor, TCSAFLUSH, &quiet)
            write(text: prompt)
        }
        defer {
            if terminal {
                _ = tcsetattr(descriptor, TCSAFLUSH, &saved)
                write(text: "\n")
            }
        }
        // A byte at a time: what follows the line stays unread for whoever reads next.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = SystemError.retryingEINTR { Glibc.read(descriptor, &byte, 1) }
            if count < 0 {
                throw .data("\(command): --password-stdin could not read standard input: \(SystemError.last("read").reason)")
            }
            if count == 0 || byte == UInt8(ascii: "\n") { break }
            guard line.count < limit else { throw .data("\(command): --password-stdin: the first line of standard input is longer than \(limit) bytes") }
            line.append(byte)
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard !line.isEmpty else { throw .data("\(command): --password-stdin: standard input held no password (its first line is empty)") }
        guard let password = String(validating: line, as: UTF8.self) else {
            throw .data("\(command): --password-stdin: the password is not UTF-8 text")
        }
        return password
    }

    /// To the terminal itself, past the command's captured streams.
    private static func write(text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
    }
}
