/// A small, fast, seedable generator (SplitMix64), so that randomised tests
/// and benchmarks repeat exactly from their seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A value in `range`, with the same sequence on every platform (the
    /// standard library's `random(in:using:)` makes no such promise).
    public mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    public mutating func int64(_ range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// True with the given probability.
    public mutating func chance(_ probability: Double) -> Bool {
        Double(next() >> 11) / Double(UInt64(1) << 53) < probability
    }

    public mutating func element<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }

    /// `count` distinct values drawn from `pool`, in random order.
    public mutating func distinct(_ count: Int, from pool: [Int]) -> [Int] {
        var remaining = pool
        var result: [Int] = []
        while result.count < count && !remaining.isEmpty {
            result.append(remaining.remove(at: int(0...(remaining.count - 1))))
        }
        return result
    }

    public mutating func distinct(_ count: Int, from range: ClosedRange<Int>) -> [Int] { distinct(count, from: Array(range)) }
}
