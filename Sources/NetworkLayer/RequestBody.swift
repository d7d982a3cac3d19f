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
        RequestBody(contentType: "multipart/form-data; boundary=\(form.boundary)") { form.encoded() }
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
public struct MultipartFormData: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// The form field's name.
        public var name: String
        /// The file name, for file parts.
        public var fileName: String?
        /// The part's content type, if any.
        public var contentType: String?
        /// The part's bytes.
        public var data: Data
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

    /// The encoded body.
    public func encoded() -> Data {
        var body = Data()
        for part in parts {
            var disposition = "form-data; name=\"\(Self.escape(part.name))\""
            if let fileName = part.fileName { disposition += "; filename=\"\(Self.escape(fileName))\"" }
            var head = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            body.append(Data((head + "\r\n").utf8))
            body.append(part.data)
            body.append(Data("\r\n".utf8))
        }
        body.append(Data("--\(boundary)--\r\n".utf8))
        return body
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
