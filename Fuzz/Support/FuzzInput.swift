import CLibFuzzer

/// What every fuzz target shares: libFuzzer's driver, the input as bytes and
/// text, and the one way a property failure stops the run (libFuzzer keeps
/// the input that crashed, and the message says which property broke).
public enum FuzzInput {
    /// One input's check, as libFuzzer calls it.
    public typealias Check = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    /// C's argv, as main receives it.
    public typealias Arguments = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?

    /// Runs libFuzzer with the program's arguments (corpus folders, -runs=,
    /// -max_total_time=, ...) on `check`; the target's main returns this.
    public static func run(_ argc: Int32, _ argv: Arguments, _ check: Check) -> Int32 {
        var count = argc
        var arguments = argv
        return LLVMFuzzerRunDriver(&count, &arguments, check)
    }

    /// libFuzzer's buffer as bytes; an empty input gives an empty array.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// The same bytes as text, with invalid UTF-8 repaired as every reader
    /// of outside text sees it.
    public static func text(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
        String(decoding: bytes(data, size), as: UTF8.self)
    }

    /// Stops the run when a property does not hold: a crash is what
    /// libFuzzer records, with the input that caused it.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz property failed: \(message())") }
    }
}

extension FuzzInput {
    /// The most physical lines `bytes` can hold as a reader counts them from
    /// 1, where CR LF, a lone LF and a lone CR each end a line (the lenient
    /// readers take any of them): a fault's line must lie in 1...lineCount.
    public static func lineCount(_ bytes: [UInt8]) -> Int {
        var count = 1
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") {
                if index == 0 || bytes[index - 1] != UInt8(ascii: "\r") { count += 1 }
            } else if byte == UInt8(ascii: "\r") {
                count += 1
            }
        }
        return count
    }
}
