import Foundation

/// The lines of a ``ResponseStream``, as UTF-8 text without their terminators. A line ends at `\n`,
/// `\r\n` or a lone `\r` (as server-sent events define it), even when a terminator is split between two
/// chunks; a last line without a terminator is still returned. Invalid UTF-8 becomes U+FFFD.
public struct ResponseLines: AsyncSequence, Sendable {
    /// One line.
    public typealias Element = String

    let chunks: ResponseStream
    let maximumLength: Int

    /// Reads the lines.
    public func makeAsyncIterator() -> Iterator {
        Iterator(chunks: chunks.makeAsyncIterator(), splitter: LineSplitter(maximumLength: maximumLength))
    }

    /// Reads the lines of a ``ResponseLines``.
    public struct Iterator: AsyncIteratorProtocol {
        var chunks: ResponseStream.Iterator
        var splitter: LineSplitter

        /// The next line, or `nil` after the last.
        /// - Throws: What the stream throws, or ``ResponseStreamError/lineTooLong(limit:)``.
        public mutating func next() async throws -> String? {
            while true {
                if let line = try splitter.nextLine() { return line }
                guard let chunk = try await chunks.next() else { return splitter.finish() }
                splitter.append(chunk)
            }
        }
    }
}

/// Splits bytes into lines at `\n`, `\r\n` or a lone `\r`, with a length limit, in time linear in the
/// input: each byte is looked at once, however the line is split into chunks.
struct LineSplitter: Sendable {
    let maximumLength: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the current line's terminator goes on: the bytes before it have none.
    private var scanned = 0
    /// How many bytes the search for terminators has looked at (for tests of its cost).
    private(set) var examinedBytes = 0
    private var skipsLineFeed = false

    init(maximumLength: Int) {
        self.maximumLength = max(0, maximumLength)
    }

    mutating func append(_ chunk: Data) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        buffer.append(contentsOf: chunk)
    }

    /// The next complete line in the buffer, if any.
    mutating func nextLine() throws(ResponseStreamError) -> String? {
        if skipsLineFeed, start < buffer.count {
            skipsLineFeed = false
            if buffer[start] == 0x0A { start += 1 }
        }
        var index = max(start, scanned)
        while index < buffer.count {
            let byte = buffer[index]
            examinedBytes &+= 1
            if byte == 0x0A || byte == 0x0D {
                guard index - start <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
                let line = String(decoding: buffer[start..<index], as: UTF8.self)
                start = index + 1
                scanned = start
                skipsLineFeed = byte == 0x0D
                compact()
                return line
            }
            index += 1
        }
        scanned = buffer.count
        guard buffer.count - start <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
        return nil
    }

    /// The last line, unterminated, at the end of the body; `nil` when there is none.
    mutating func finish() -> String? {
        defer {
            buffer.removeAll()
            start = 0
            scanned = 0
        }
        return start < buffer.count ? String(decoding: buffer[start...], as: UTF8.self) : nil
    }

    /// Drops consumed bytes once they are most of the buffer, so a long stream does not keep them.
    private mutating func compact() {
        if start > 4096, start * 2 > buffer.count {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
    }
}
