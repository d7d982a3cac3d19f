/// What a storage took out of its table while holding its lock, kept so that it is released only after
/// the lock is given back: a cached value's `deinit` may call into the same storage.
///
/// The first element is stored inline and only further ones go to an array, so the common case (a store
/// that replaces or evicts one entry) allocates nothing.
@usableFromInline
struct Leftovers<Element> {
    @usableFromInline var first: Element?
    @usableFromInline var rest: [Element] = []

    @inlinable init() {}

    @inlinable
    mutating func append(_ element: Element) {
        if case .none = first {
            first = element
        } else {
            rest.append(element)
        }
    }
}

extension Leftovers: Sequence {
    @usableFromInline
    struct Iterator: IteratorProtocol {
        @usableFromInline var first: Element?
        @usableFromInline var rest: IndexingIterator<[Element]>

        @inlinable
        init(first: Element?, rest: IndexingIterator<[Element]>) {
            self.first = first
            self.rest = rest
        }

        @inlinable
        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }

    @inlinable
    func makeIterator() -> Iterator {
        Iterator(first: first, rest: rest.makeIterator())
    }
}

extension Leftovers: Sendable where Element: Sendable {}
