import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request body and its content type.
public struct RequestBody: Sendable {
    /// The `Content-Type` header sent with the body.
    public let contentType: String
    private let encode: @Sendable () throws -> Data

    /// Creates a body from a closure run when the request is built.
    /// - Parameters:
    ///   - contentType: The `Content-Type` value.
    ///   - makeData: Produces the bytes; a thrown error fails the request with
    ///     ``NetworkError/invalidRequest(_:)``.
    public init(contentType: String, makeData: @escaping @Sendable () throws -> Data) {
        self.contentType = contentType
        self.encode = makeData
    }

    /// The body's bytes.
    /// - Throws: What the encoding throws.
    public func makeData() throws -> Data {
        try encode()
    }

    /// `value` encoded as JSON.
    /// - Parameters:
    ///   - value: The value to send.
    ///   - encoder: A plain `JSONEncoder()` by default.
    /// - Returns: An `application/json` body.
    public static func json<Value: Encodable & Sendable>(
        _ value: Value, encoder: JSONEncoder = JSONEncoder()
    ) -> RequestBody {
        RequestBody(contentType: "application/json") { try encoder.encode(value) }
    }

    /// Raw bytes.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - contentType: `application/octet-stream` by default.
    /// - Returns: The body.
    public static func data(_ data: Data, contentType: String = "application/octet-stream") -> RequestBody {
        RequestBody(contentType: contentType) { data }
    }

    /// Fields encoded as `application/x-www-form-urlencoded` (UTF-8, spaces as `%20`).
    /// - Parameter fields: The fields, in order.
    /// - Returns: The body.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        RequestBody(contentType: "application/x-www-form-urlencoded; charset=utf-8") {
            Data(QueryEncoding.encode(fields).utf8)
        }
    }

    /// A `multipart/form-data` body.
    /// - Parameter form: The parts.
    /// - Returns: The body.
    public static func multipart(_ form: MultipartFormData) -> RequestBody {
        RequestBody(contentType: form.contentType) { try form.encoded() }
    }
}

/// The parts of a `multipart/form-data` body (RFC 7578).
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Wonka", name: "title")
/// form.append(posterPNG, name: "poster", fileName: "poster.png", contentType: "image/png")
/// let body = RequestBody.multipart(form)
/// ```
///
/// A part can also be a file on disk (``append(contentsOf:name:fileName:contentType:)``): sent with
/// ``NetworkProvider/upload(_:multipart:progress:)`` the form is streamed from disk, never built in
/// memory.
public struct MultipartFormData: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// The form field's name.
        public var name: String
        /// The file name, for file parts.
        public var fileName: String?
        /// The part's content type, if any.
        public var contentType: String?
        /// The part's bytes; empty for a file part.
        public var data: Data
        /// The file whose contents are the part's bytes, read when the form is encoded or written; `nil`
        /// for a part held in memory.
        public var fileURL: URL?
    }

    /// The boundary between parts. A random UUID-based string by default.
    public let boundary: String
    /// The parts, in order.
    public private(set) var parts: [Part] = []

    /// Creates an empty form.
    /// - Parameter boundary: The boundary; a random one by default.
    public init(boundary: String = "Boundary-\(UUID().uuidString)") {
        self.boundary = boundary
    }

    /// Adds a text field.
    /// - Parameters:
    ///   - value: The field's text, sent as UTF-8.
    ///   - name: The field's name.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, fileName: nil, contentType: nil, data: Data(value.utf8)))
    }

    /// Adds a file or binary field.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - name: The field's name.
    ///   - fileName: The file name; `nil` by default.
    ///   - contentType: The part's content type; `application/octet-stream` by default.
    public mutating func append(
        _ data: Data, name: String, fileName: String? = nil, contentType: String = "application/octet-stream"
    ) {
        parts.append(Part(name: name, fileName: fileName, contentType: contentType, data: data))
    }

    /// Adds a file part whose bytes are read from disk when the form is sent, not now.
    /// - Parameters:
    ///   - fileURL: The file; it must be a regular file when the form is encoded or written.
    ///   - name: The field's name.
    ///   - fileName: The file name sent; the file's own name by default.
    ///   - contentType: The part's content type; `application/octet-stream` by default.
    public mutating func append(
        contentsOf fileURL: URL, name: String, fileName: String? = nil,
        contentType: String = "application/octet-stream"
    ) {
        parts.append(
            Part(
                name: name, fileName: fileName ?? fileURL.lastPathComponent, contentType: contentType,
                data: Data(),
                fileURL: fileURL))
    }

    /// The `Content-Type` of the form: `multipart/form-data` with its boundary.
    public var contentType: String {
        "multipart/form-data; boundary=\(boundary)"
    }

    /// The encoded body, in memory (file parts are read into it).
    /// - Throws: ``NetworkError/file(_:)`` when a file part cannot be read.
    public func encoded() throws -> Data {
        var body = Data()
        try encode { body.append($0) }
        return body
    }

    /// Writes the encoded body to `url`, copying file parts in pieces, so a form of large files never
    /// sits whole in memory. The file is readable by its owner only (mode 0600) from the moment it is
    /// created; an entry already at `url` (a file, a link) is removed first.
    /// - Parameter url: The file to write (replaced if it exists).
    /// - Throws: ``NetworkError/file(_:)`` when a part cannot be read or the file written.
    public func write(to url: URL) throws {
        try write(to: url, stoppingWhen: { false })
    }

    /// ``write(to:)``, checking `isCancelled` before each piece: when it says so, the copy stops there
    /// and throws `CancellationError` (the caller removes the file).
    func write(to url: URL, stoppingWhen isCancelled: () -> Bool) throws {
        // Created private, not made private after: a watcher of the shared temporary folder could open
        // a file created with the umask's permissions before they were narrowed.
        let descriptor = try FileCalls.createPrivate(url)
        do {
            let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            defer { try? output.close() }
            try encode { piece in
                if isCancelled() { throw CancellationError() }
                try output.write(contentsOf: piece)
            }
        } catch let error as NetworkError {
            throw error
        } catch let error as CancellationError {
            throw error
        } catch {
            throw NetworkError.file(error)
        }
    }

    /// Emits the encoded body in pieces.
    private func encode(into emit: (Data) throws -> Void) throws {
        for part in parts {
            var disposition = "form-data; name=\"\(Self.escape(part.name))\""
            if let fileName = part.fileName { disposition += "; filename=\"\(Self.escape(fileName))\"" }
            var head = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(Self.escape(contentType))\r\n" }
            try emit(Data((head + "\r\n").utf8))
            if let fileURL = part.fileURL {
                try Self.copy(fileURL, into: emit)
            } else {
                try emit(part.data)
            }
            try emit(Data("\r\n".utf8))
        }
        try emit(Data("--\(boundary)--\r\n".utf8))
    }

    /// Copies a regular file in 256 KiB pieces (a FIFO or a device is refused: it could block forever).
    private static func copy(_ fileURL: URL, into emit: (Data) throws -> Void) throws {
        do {
            let type =
                try FileManager.default.attributesOfItem(atPath: fileURL.resolvingSymlinksInPath().path)[
                    .type]
                as? FileAttributeType
            guard type == .typeRegular else {
                throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
            let input = try FileHandle(forReadingFrom: fileURL)
            defer { try? input.close() }
            while let piece = try input.read(upToCount: 1 << 18), !piece.isEmpty {
                try emit(piece)
            }
        } catch let error as CancellationError {
            throw error
        } catch {
            throw NetworkError.file(error)
        }
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
