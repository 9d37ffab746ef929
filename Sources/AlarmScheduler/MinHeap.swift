/// A binary min-heap: the planner's k-way merge of every alarm's firings,
/// and the daemon's standing plan of every item's next firing.
struct MinHeap<Element: Comparable> {
    private var elements: [Element] = []

    var isEmpty: Bool { elements.isEmpty }
    var count: Int { elements.count }
    var first: Element? { elements.first }

    mutating func push(_ element: Element) {
        elements.append(element)
        var child = elements.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { break }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let top = elements.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < elements.count && elements[left] < elements[smallest] { smallest = left }
            if right < elements.count && elements[right] < elements[smallest] { smallest = right }
            if smallest == parent { break }
            elements.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    mutating func removeAll() { elements.removeAll() }
}
