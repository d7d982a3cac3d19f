import Foundation

/// The first bytes of a refused answer's body, kept for ``NetworkError/unacceptableStatus(_:)``: at most
/// ``limit`` (1 MiB), or less when a smaller capacity is asked for (a whole-body limit below it). The rest
/// is not worth receiving. Every path that refuses a status keeps its body this way: a whole body, a
/// stream's head, a download's window or task, a background upload's answer, a held `401`.
struct RefusedBody: Sendable {
    /// The most bytes kept: 1 MiB.
    static let limit = 1 << 20

    /// The bytes kept so far.
    private(set) var bytes = Data()
    /// The most bytes this one keeps.
    let capacity: Int

    /// - Parameter capacity: The most bytes to keep, at most ``limit``; ``limit`` by default.
    init(capacity: Int = RefusedBody.limit) {
        self.capacity = max(0, min(capacity, Self.limit))
    }

    /// The first bytes of `data`, as a refused body keeps them.
    init(_ data: Data, capacity: Int = RefusedBody.limit) {
        self.init(capacity: capacity)
        append(data)
    }

    /// The first bytes of the file at `location`, read as a refused body keeps them; empty when it cannot
    /// be read.
    init(readingFrom location: URL) {
        self.init()
        let handle = try? FileHandle(forReadingFrom: location)
        if let data = (try? handle?.read(upToCount: capacity)) ?? nil { append(data) }
        try? handle?.close()
    }

    /// Whether nothing more is kept.
    var isFull: Bool { bytes.count >= capacity }

    /// Whether `count` more bytes fit.
    func fits(_ count: Int) -> Bool { count <= capacity - bytes.count }

    /// Keeps what fits of `data`. Returns whether the body is now full.
    @discardableResult
    mutating func append(_ data: Data) -> Bool {
        let room = capacity - bytes.count
        if room > 0 { bytes.append(data.prefix(room)) }
        return isFull
    }
}
