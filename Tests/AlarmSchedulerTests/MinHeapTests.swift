@testable import AlarmScheduler
import SeededRandom
import Testing

/// The heap under the planner's merge and the standing plan: what it pops is
/// held against a sorted array, the oracle no heap logic can fool.
@Suite("The min-heap")
struct MinHeapTests {
    /// Pops everything, smallest first.
    func drained<T>(_ heap: inout MinHeap<T>) -> [T] {
        var popped: [T] = []
        while let next = heap.pop() { popped.append(next) }
        return popped
    }

    @Test("an empty heap is empty, has no first element and pops nil, again and again")
    func empty() {
        var heap = MinHeap<Int>()
        #expect(heap.isEmpty)
        #expect(heap.count == 0)
        #expect(heap.first == nil)
        #expect(heap.pop() == nil)
        #expect(heap.pop() == nil)
        #expect(heap.isEmpty)
    }

    @Test("one element is first, pops once, and leaves the heap empty")
    func single() {
        var heap = MinHeap<Int>()
        heap.push(7)
        #expect(!heap.isEmpty)
        #expect(heap.count == 1)
        #expect(heap.first == 7)
        #expect(heap.pop() == 7)
        #expect(heap.pop() == nil)
        #expect(heap.isEmpty)
    }

    @Test("seeded random input pops in the order of the sorted array, for sizes 0 to 300",
          arguments: [UInt64(1), 18, 0x5EED])
    func sortedOracle(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for size in 0...300 {
            let values = (0..<size).map { _ in random.int(-1_000...1_000) }
            var heap = MinHeap<Int>()
            for value in values { heap.push(value) }
            #expect(heap.count == size)
            #expect(heap.first == values.min())
            #expect(drained(&heap) == values.sorted(), "seed \(seed), size \(size)")
        }
    }

    @Test("duplicates all come out, each as often as it went in")
    func duplicates() {
        var heap = MinHeap<Int>()
        for value in [3, 1, 3, 3, 2, 1, 2, 3, 1, 1] { heap.push(value) }
        #expect(heap.count == 10)
        #expect(drained(&heap) == [1, 1, 1, 1, 2, 2, 3, 3, 3, 3])
    }

    @Test("many equal elements: every one pops, and the heap ends empty")
    func allEqual() {
        var heap = MinHeap<Int>()
        for _ in 0..<100 { heap.push(42) }
        #expect(drained(&heap) == Array(repeating: 42, count: 100))
        #expect(heap.isEmpty)
    }

    @Test("already sorted and reverse-sorted input both pop in ascending order")
    func presorted() {
        var ascending = MinHeap<Int>(), descending = MinHeap<Int>()
        for value in 0..<200 { ascending.push(value) }
        for value in (0..<200).reversed() { descending.push(value) }
        #expect(drained(&ascending) == Array(0..<200))
        #expect(drained(&descending) == Array(0..<200))
    }

    @Test("interleaved pushes and pops always pop the smallest element held, as a sorted array would",
          arguments: [UInt64(7), 2026])
    func interleaved(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var heap = MinHeap<Int64>()
        var oracle: [Int64] = []
        for step in 0..<5_000 {
            if random.chance(0.55) {
                let value = random.int64(0...500)
                heap.push(value)
                oracle.append(value)
                oracle.sort()
            } else {
                #expect(heap.pop() == (oracle.isEmpty ? nil : oracle.removeFirst()), "seed \(seed), step \(step)")
            }
            #expect(heap.count == oracle.count)
            #expect(heap.first == oracle.first)
        }
        #expect(drained(&heap) == oracle)
    }

    @Test("a value smaller than all held becomes first at once; a larger one leaves first alone")
    func firstFollowsPushes() {
        var heap = MinHeap<Int>()
        heap.push(10)
        heap.push(20)
        #expect(heap.first == 10)
        heap.push(5)
        #expect(heap.first == 5)
        heap.push(30)
        #expect(heap.first == 5)
        #expect(heap.pop() == 5)
        #expect(heap.first == 10)
    }

    @Test("removeAll empties the heap, which then takes new elements as a fresh one")
    func removeAll() {
        var heap = MinHeap<Int>()
        for value in [5, 3, 9] { heap.push(value) }
        heap.removeAll()
        #expect(heap.isEmpty)
        #expect(heap.count == 0)
        #expect(heap.first == nil)
        #expect(heap.pop() == nil)
        heap.push(4)
        heap.push(2)
        #expect(drained(&heap) == [2, 4])
    }

    /// Orders by `priority` alone, so equal priorities with different tags
    /// show that the heap never loses or invents an element among equals.
    struct Tagged: Comparable {
        let priority: Int
        let tag: Int
        static func < (a: Tagged, b: Tagged) -> Bool { a.priority < b.priority }
        static func == (a: Tagged, b: Tagged) -> Bool { a.priority == b.priority && a.tag == b.tag }
    }

    @Test("elements equal in order but distinct in value all come out, in priority order, none lost or doubled")
    func equalPriorities() {
        var random = SplitMix64(seed: 99)
        let values = (0..<500).map { Tagged(priority: random.int(0...9), tag: $0) }
        var heap = MinHeap<Tagged>()
        for value in values { heap.push(value) }
        let popped = drained(&heap)
        #expect(popped.map(\.priority) == values.map(\.priority).sorted())
        #expect(popped.map(\.tag).sorted() == Array(0..<500))
    }

    @Test("a copy is independent: popping one leaves the other whole")
    func valueSemantics() {
        var heap = MinHeap<Int>()
        for value in [4, 1, 3] { heap.push(value) }
        var copy = heap
        #expect(copy.pop() == 1)
        #expect(copy.count == 2)
        #expect(heap.count == 3)
        #expect(drained(&heap) == [1, 3, 4])
    }
}
