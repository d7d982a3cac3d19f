import Foundation

/// A value that can be written to and read back from bytes, so the disk cache can store it.
///
/// `Data` and `String` conform. Any `Codable` type conforms with one empty declaration, stored as JSON:
/// ```swift
/// struct MovieDetails: Codable, DataConvertible { … }
/// ```
/// Implement both requirements yourself for another format (a PNG, a protobuf).
public protocol DataConvertible {
    /// The bytes that represent this value.
    /// - Throws: When the value cannot be encoded; the cache reports it as a ``CacheError``.
    func toData() throws -> Data

    /// The value the bytes represent.
    /// - Parameter data: Bytes produced by ``toData()``, possibly by an earlier version of the program.
    /// - Throws: When the bytes are not a valid value; the disk cache then treats the entry as corrupt,
    ///   removes it and reports a miss.
    static func fromData(_ data: Data) throws -> Self
}

extension DataConvertible where Self: Codable {
    /// Encodes the value as JSON.
    public func toData() throws -> Data {
        try JSONEncoder().encode(self)
    }

    /// Decodes the value from JSON.
    public static func fromData(_ data: Data) throws -> Self {
        try JSONDecoder().decode(Self.self, from: data)
    }
}

extension Data: DataConvertible {
    /// The data itself.
    public func toData() throws -> Data { self }

    /// The data itself.
    public static func fromData(_ data: Data) throws -> Data { data }
}

extension String: DataConvertible {
    /// The string's UTF-8 bytes.
    public func toData() throws -> Data { Data(utf8) }

    /// The string the UTF-8 bytes spell.
    /// - Throws: ``DataConversionError`` when the bytes are not valid UTF-8.
    public static func fromData(_ data: Data) throws -> String {
        guard let string = String(data: data, encoding: .utf8) else {
            throw DataConversionError(type: "String", reason: "the bytes are not valid UTF-8")
        }
        return string
    }
}

/// Bytes that do not represent a value of the expected type.
public struct DataConversionError: Error, Sendable, CustomStringConvertible {
    /// The type that could not be made.
    public let type: String
    /// Why the bytes were rejected.
    public let reason: String

    /// Creates an error for `type`.
    /// - Parameters:
    ///   - type: The type that could not be made from the bytes.
    ///   - reason: Why.
    public init(type: String, reason: String) {
        self.type = type
        self.reason = reason
    }

    /// "Cannot make String from the cached bytes: …".
    public var description: String {
        "Cannot make \(type) from the cached bytes: \(reason)."
    }
}

/// A value that knows what it costs to keep in memory, for ``MemoryStorage``'s total cost limit.
///
/// `Data` and `String` conform with their byte counts. Without a conformance, or a cost closure in the
/// configuration, every value costs 1.
public protocol CacheCostCalculable {
    /// The cost of keeping this value, usually its size in bytes.
    var cacheCost: Int { get }
}

extension Data: CacheCostCalculable {
    /// The number of bytes.
    public var cacheCost: Int { count }
}

extension String: CacheCostCalculable {
    /// The number of UTF-8 bytes.
    public var cacheCost: Int { utf8.count }
}
