import Foundation

/// A stored answer as bytes, for stores that write files: a disk store over CacheKit's `DiskStorage` is
/// the example in Docs/Recipes.md (recipe 3).
///
/// The bytes are a 6-byte mark (`NLHC1` and a line feed), a 4-byte big-endian length, that many bytes of
/// JSON (status, headers, dates, variants), then the body as it is, so a large body is not re-encoded.
/// Reading checks every length before using it: a file cut short, too long a JSON part or the wrong mark
/// fails with ``FormatError``, never a trap.
extension CachedHTTPResponse {
    /// Bytes that are not a stored answer.
    public struct FormatError: Error, Sendable, CustomStringConvertible {
        /// What is wrong with them.
        public let reason: String
        /// The reason, for a person.
        public var description: String { "Not a stored HTTP answer: \(reason)." }
    }

    /// The longest JSON part read: 1 MiB.
    public static let maximumMetadataSize = 1 << 20

    private static let mark = Data("NLHC1\n".utf8)

    private struct Metadata: Codable {
        var status: Int
        var headers: [String: String]
        var requested: Double
        var responded: Double
        var variants: [String: String]
    }

    /// The answer as bytes that ``init(serialized:)`` reads back.
    /// - Returns: The mark, the metadata and the body.
    public func serialized() -> Data {
        let metadata = Metadata(
            status: statusCode, headers: headers, requested: requestDate.timeIntervalSince1970,
            responded: responseDate.timeIntervalSince1970, variants: variants)
        // Encoding plain strings, numbers and string dictionaries cannot fail.
        let json = (try? JSONEncoder().encode(metadata)) ?? Data("{}".utf8)
        var data = Self.mark
        let length = UInt32(clamping: json.count)
        data.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) })
        data.append(json)
        data.append(body)
        return data
    }

    /// Reads an answer written by ``serialized()``.
    /// - Parameter data: The bytes.
    /// - Throws: ``FormatError`` when they are not one.
    public init(serialized data: Data) throws(FormatError) {
        let bytes = [UInt8](data.prefix(Self.mark.count + 4))
        guard bytes.count == Self.mark.count + 4, Data(bytes.prefix(Self.mark.count)) == Self.mark else {
            throw FormatError(reason: "it does not start with the mark")
        }
        let length = bytes.suffix(4).reduce(0) { $0 << 8 | Int($1) }
        let start = data.startIndex + Self.mark.count + 4
        guard length <= Self.maximumMetadataSize, length <= data.endIndex - start else {
            throw FormatError(reason: "its metadata length \(length) is out of range")
        }
        let metadata: Metadata
        do {
            metadata = try JSONDecoder().decode(Metadata.self, from: data[start..<start + length])
        } catch {
            throw FormatError(reason: "its metadata is not valid JSON")
        }
        guard metadata.requested.isFinite, metadata.responded.isFinite, (100...999).contains(metadata.status)
        else { throw FormatError(reason: "its status or dates are out of range") }
        self.init(
            statusCode: metadata.status, headers: metadata.headers, body: Data(data[(start + length)...]),
            requestDate: Date(timeIntervalSince1970: metadata.requested),
            responseDate: Date(timeIntervalSince1970: metadata.responded), variants: metadata.variants)
    }
}
