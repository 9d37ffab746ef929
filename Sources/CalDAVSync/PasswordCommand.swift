import Foundation

/// The command that prints an account's password (`secret-tool lookup …`,
/// `pass show …`), run each time one is needed so that the password is
/// never stored. It runs as the words given, with no shell unless the
/// person names one; the first line of its standard output is the password.
public struct PasswordCommand: Equatable, Sendable {
    public var words: [String]
    /// Seconds the command may take (a keyring may ask to be unlocked).
    public var timeLimit: Double

    public init(_ words: [String], timeLimit: Double = 60) {
        self.words = words
        self.timeLimit = timeLimit
    }

    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var description: String

        public init(description: String) { self.description = description }
    }

    /// The password, or why there is none (never the output itself).
    public func password() throws(Failure) -> String {
        guard let first = words.first, !first.isEmpty else { throw Failure(description: "the password command is empty") }
        let name = "password command '\(first)'"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: first.contains("/") ? first : "/usr/bin/env")
        process.arguments = first.contains("/") ? Array(words.dropFirst()) : words
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do {
            try process.run()
        } catch {
            throw Failure(description: "\(name) could not be started: \(error.localizedDescription)")
        }
        // Read while it runs: a full pipe would stop it. A password is one short line.
        let reading = DispatchQueue(label: "chime.password-command")
        nonisolated(unsafe) var bytes = Data()
        let read = DispatchSemaphore(value: 0)
        reading.async {
            bytes = (try? output.fileHandleForReading.read(upToCount: 64 << 10)) ?? Data()
            read.signal()
        }
        guard finished.wait(timeout: .now() + timeLimit) == .success else {
            process.terminate()
            _ = finished.wait(timeout: .now() + 5)
            throw Failure(description: "\(name) gave no answer within \(Int(timeLimit)) s")
        }
        _ = read.wait(timeout: .now() + 5)
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(name) exited with status \(process.terminationStatus)")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        guard !password.isEmpty else { throw Failure(description: "\(name) printed no password") }
        return password
    }
}
