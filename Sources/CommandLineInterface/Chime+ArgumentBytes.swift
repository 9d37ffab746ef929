import CalendarModel
import CommandLineSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Chime {
    /// Runs `chime` with the process's own arguments, read as the bytes
    /// the kernel passed: `CommandLine.arguments` would have turned bytes
    /// that are not UTF-8 into U+FFFD silently, and a title saved that way
    /// is not the one typed.
    public static func main() -> Int32 {
        // A descriptor the shell closed (`chime add … >&-`) would be taken
        // by the next file opened, and fdopen(1) would give stdio nothing to
        // write through. With no standard output the command is refused
        // before it does anything (its answer, an added item's identifier
        // say, would be lost); a closed standard input or error is pointed
        // at /dev/null.
        guard StandardStream.isOpen(STDOUT_FILENO) else {
            StandardStream.write("chime: standard output is closed; nothing was done\n", to: STDERR_FILENO)
            return ExitStatus.storeFailure
        }
        StandardStream.reopenClosedOnNull()
        let bytes = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
            guard let argument = CommandLine.unsafeArgv[index] else { return [] }
            return UnsafeBufferPointer(start: argument, count: strlen(argument)).map { UInt8(bitPattern: $0) }
        }
        let status = run(argumentBytes: bytes)
        if let reason = CommandContext.flushProcessOutput() {
            // The command has done its work by now (an item added stays
            // added): say so, so that a script does not simply run it again.
            StandardStream.write(status == ExitStatus.success
                ? "chime: the command was done, but its output could not be written: \(reason)\n"
                : "chime: cannot write standard output: \(reason)\n", to: STDERR_FILENO)
            return status == ExitStatus.success ? ExitStatus.storeFailure : status
        }
        return status
    }

    /// Runs `chime` with arguments given as bytes (without the program
    /// name). An argument that is not UTF-8 is refused with 65, named by
    /// its position (and the option before it), its bytes shown.
    public static func run(argumentBytes: [[UInt8]], context: CommandContext = .process) -> Int32 {
        var arguments: [String] = []
        for (index, bytes) in argumentBytes.enumerated() {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let option = arguments.last.flatMap { $0.hasPrefix("-") && !$0.contains("=") ? " (after \($0))" : nil } ?? ""
                context.standardError(TerminalText.escaped(
                    "chime: argument \(index + 1)\(option) is not UTF-8 text: '\(shown(bytes))'; nothing was done"))
                return ExitStatus.dataError
            }
            arguments.append(text)
        }
        return run(arguments, context: context)
    }

    /// The bytes as text where they are UTF-8, `\xHH` where they are not.
    static func shown(_ bytes: [UInt8]) -> String {
        var text = ""
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
            if length > 0, index + length <= bytes.count,
               let character = String(validating: bytes[index..<(index + length)], as: UTF8.self) {
                text += character
                index += length
            } else {
                let hex = String(lead, radix: 16)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                index += 1
            }
        }
        return text
    }
}
