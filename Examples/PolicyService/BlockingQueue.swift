import Foundation

/// A first-in, first-out queue between threads, with room for at most `capacity` elements.
///
/// ``put(_:)`` waits while the queue is full, so a fast producer slows to the pace of its
/// consumers instead of piling up memory; ``take()`` waits while it is empty.
final class BlockingQueue<Element: Sendable>: @unchecked Sendable {
    // Every stored property below is read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var elements: [Element] = []
    private var closed = false
    private let capacity: Int

    /// Creates an empty queue holding at most `capacity` elements.
    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Appends `element`, waiting for room.
    func put(_ element: Element) {
        condition.lock()
        defer { condition.unlock() }
        while elements.count >= capacity, !closed { condition.wait() }
        elements.append(element)
        condition.broadcast()
    }

    /// The first element, waiting for one; nil once the queue is closed and empty.
    func take() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while elements.isEmpty, !closed { condition.wait() }
        guard !elements.isEmpty else { return nil }
        condition.broadcast()
        return elements.removeFirst()
    }

    /// Says no more elements will come: consumers drain what is left, then get nil.
    func close() {
        condition.lock()
        defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }
}
