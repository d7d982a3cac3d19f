import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response whose body arrives as a sequence of chunks, read as they come: server-sent events,
/// NDJSON, a long body processed piece by piece. Made by ``NetworkProvider/stream(_:)``.
///
/// ```swift
/// let stream = try await provider.stream(api.liveScores())
/// for try await line in stream.lines() { print(line) }
/// ```
///
/// Read it once. The transfer stops when the reading task is cancelled, or when the stream and its
/// iterator are released before the end. A failure mid-body (a lost connection, an idle timeout) is thrown
/// from the iteration as a ``NetworkError``.
public struct ResponseStream: AsyncSequence, Sendable {
    /// A chunk of the body, in arrival order.
    public typealias Element = Data

    /// The response head: status and headers.
    public let response: HTTPURLResponse
    let body: StreamBody

    /// Reads the chunks.
    public func makeAsyncIterator() -> Iterator {
        Iterator(body: body)
    }

    /// The body split into lines, for NDJSON and line-based protocols. See ``ResponseLines``.
    /// - Parameter maximumLength: The longest line accepted, in bytes; a longer one throws
    ///   ``ResponseStreamError/lineTooLong(limit:)`` instead of growing without bound. 1 MiB by default.
    /// - Returns: The lines.
    public func lines(maximumLength: Int = 1 << 20) -> ResponseLines {
        ResponseLines(chunks: self, maximumLength: maximumLength)
    }

    /// The body parsed as server-sent events (`text/event-stream`). See ``ServerSentEvents``.
    /// - Parameter maximumLength: The longest line and the largest event data accepted, in bytes; more
    ///   throws ``ResponseStreamError/lineTooLong(limit:)``. 1 MiB by default.
    /// - Returns: The events.
    public func events(maximumLength: Int = 1 << 20) -> ServerSentEvents {
        ServerSentEvents(lines: lines(maximumLength: maximumLength))
    }

    /// Reads the chunks of a ``ResponseStream``.
    public struct Iterator: AsyncIteratorProtocol {
        let body: StreamBody

        /// The next chunk, or `nil` after the last.
        /// - Throws: A ``NetworkError`` when the transfer fails, `CancellationError` when the reading
        ///   task is cancelled, ``ResponseStreamError/concurrentReads`` when another task is reading.
        public mutating func next() async throws -> Data? {
            do {
                return try await body.channel.next()
            } catch let error as ResponseStreamError {
                throw error
            } catch {
                throw NetworkProvider.map(error)
            }
        }
    }
}

/// Why a stream could not be read.
///
/// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
/// (Docs/Versioning.md, "How public errors grow").
public enum ResponseStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line (or an event's data) was longer than the limit given to ``ResponseStream/lines(maximumLength:)``
    /// or ``ResponseStream/events(maximumLength:)``.
    case lineTooLong(limit: Int)
    /// Two tasks read the same stream at once; a stream has one reader.
    case concurrentReads
    /// The reader fell further behind the server than the stream holds for it (the provider's
    /// ``NetworkProvider/Configuration/streamBufferLimit``, in bytes): the transfer was stopped, and this
    /// follows the chunks that were held.
    case readerFellBehind(limit: Int)

    /// One line a person can act on.
    public var description: String {
        switch self {
        case .lineTooLong(let limit): "A line of the stream is longer than \(limit) bytes."
        case .concurrentReads: "Two tasks read the same stream at once; read a stream from one task."
        case .readerFellBehind(let limit):
            "The stream's reader fell more than \(limit) bytes behind the server; the transfer was stopped."
        }
    }
}

/// Keeps a stream's transfer alive while its stream or an iterator exists; stops it when the last is
/// released before the end.
final class StreamBody: Sendable {
    let channel: ChunkChannel

    init(channel: ChunkChannel) {
        self.channel = channel
    }

    deinit {
        channel.stop(with: CancellationError())
    }
}
