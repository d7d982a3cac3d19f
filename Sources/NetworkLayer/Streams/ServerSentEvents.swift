import Foundation

/// One server-sent event (the `text/event-stream` format of the HTML standard).
public struct ServerSentEvent: Sendable, Equatable {
    /// The event's type: its `event:` field, `"message"` when it has none.
    public var event: String
    /// The event's data: its `data:` lines joined with `\n`.
    public var data: String
    /// The last event ID the stream set (`id:`), which a reconnecting client sends as `Last-Event-ID`.
    public var id: String?
    /// The reconnection time the stream asked for (`retry:`), if any.
    public var retry: Duration?

    /// Creates an event.
    /// - Parameters:
    ///   - event: The type; `"message"` by default.
    ///   - data: The data.
    ///   - id: The last event ID; `nil` by default.
    ///   - retry: The reconnection time; `nil` by default.
    public init(event: String = "message", data: String, id: String? = nil, retry: Duration? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

/// The events of a ``ResponseStream`` read as server-sent events, parsed as the HTML standard says:
/// comments (`:`) and unknown fields are skipped, `data:` lines are joined with `\n`, an event without
/// data is not dispatched, an ID containing NUL is ignored, `retry:` counts only when it is all digits,
/// a byte-order mark at the start is dropped, and an event cut off by the end of the stream is discarded.
/// Lines are parsed on their bytes, so a combining mark after the colon is part of the value.
///
/// ```swift
/// for try await event in try await provider.stream(api.updates()).events() where event.event == "score" {
///     print(event.data)
/// }
/// ```
public struct ServerSentEvents: AsyncSequence, Sendable {
    /// One event.
    public typealias Element = ServerSentEvent

    let lines: ResponseLines

    /// Reads the events.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lines: lines.makeAsyncIterator(), parser: EventParser(maximumLength: lines.maximumLength))
    }

    /// Reads the events of a ``ServerSentEvents``.
    public struct Iterator: AsyncIteratorProtocol {
        var lines: ResponseLines.Iterator
        var parser: EventParser

        /// The next event, or `nil` at the end of the stream.
        /// - Throws: What the stream throws, or ``ResponseStreamError/lineTooLong(limit:)``.
        public mutating func next() async throws -> ServerSentEvent? {
            while let line = try await lines.next() {
                if let event = try parser.consume(line) { return event }
            }
            return nil
        }
    }
}

/// The event-stream interpretation of lines, one line at a time.
struct EventParser: Sendable {
    let maximumLength: Int
    private var data = ""
    private var hasData = false
    private var eventType = ""
    private var lastEventID: String?
    private var retry: Duration?
    private var isFirstLine = true

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Takes one line; returns the event a blank line completes. Parsed on UTF-8 bytes, as the HTML
    /// standard parses code points: a combining mark after the colon or its space is part of the value,
    /// never joined to them as one `Character`.
    mutating func consume(_ rawLine: String) throws(ResponseStreamError) -> ServerSentEvent? {
        var line = Substring(rawLine).utf8[...]
        if isFirstLine {
            isFirstLine = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) { line = line.dropFirst(3) }  // U+FEFF
        }
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let field: Substring.UTF8View.SubSequence
        var value: Substring.UTF8View.SubSequence
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[line.index(after: colon)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            (field, value) = (line, line[line.endIndex...])
        }
        let text = String(decoding: value, as: UTF8.self)
        // Field names are compared byte for byte (a String would compare canonical equivalents).
        let name: String? = ["event", "data", "id", "retry"].first { field.elementsEqual($0.utf8) }
        switch name {
        case "event":
            eventType = text
        case "data":
            if hasData { data += "\n" }
            data += text
            hasData = true
            guard data.utf8.count <= maximumLength else { throw .lineTooLong(limit: maximumLength) }
        case "id":
            if !value.contains(0) { lastEventID = text }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int64(text)
            {
                retry = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data = ""
            hasData = false
            eventType = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: data, id: lastEventID, retry: retry)
    }
}
