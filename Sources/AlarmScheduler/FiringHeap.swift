/// A binary min-heap of firings, each tagged with the source it came from:
/// the planner's k-way merge of every alarm's firings.
struct FiringHeap {
    private var items: [(firing: Firing, source: Int)] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func push(_ firing: Firing, source: Int) {
        items.append((firing, source))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].firing < items[parent].firing else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (Firing, Int)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && items[left].firing < items[smallest].firing { smallest = left }
            if right < items.count && items[right].firing < items[smallest].firing { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return (top.firing, top.source)
    }
}
