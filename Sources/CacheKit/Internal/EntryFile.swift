import Foundation

/// The layout of one disk cache file: the value's bytes first, then the key, then a fixed trailer.
///
/// ```text
/// [payload][key UTF-8][trailer: deadline f64 | duration f64 | payload length u64 | key length u32 |
///                              format u32 | magic "CacheKit"]   (40 bytes, little-endian)
/// ```
/// The payload comes first so a cached image file is still a valid image for tools that open it by
/// path (decoders stop at their own end marker). The trailer makes every file self-describing: the
/// index is rebuilt from the files alone, a collision is detected through the stored key, and a
/// truncated or foreign file fails the length and magic checks.
enum EntryFile {
    static let trailerSize = 40
    static let deadlineOffsetFromEnd = 40
    private static let magic = Array("CacheKit".utf8)
    private static let format: UInt32 = 1

    struct Trailer: Equatable {
        var expiration: StoredExpiration
        let payloadLength: Int
        let keyLength: Int
    }

    static func encode(payload: Data, key: String, expiration: StoredExpiration) -> Data {
        let keyBytes = Array(key.utf8)
        var file = Data(capacity: payload.count + keyBytes.count + trailerSize)
        file.append(payload)
        file.append(contentsOf: keyBytes)
        file.append(encode(expiration))
        appendLittleEndian(UInt64(payload.count), to: &file)
        appendLittleEndian(UInt32(keyBytes.count), to: &file)
        appendLittleEndian(format, to: &file)
        file.append(contentsOf: magic)
        return file
    }

    /// The 16 bytes of an expiration, as written at the start of the trailer.
    static func encode(_ expiration: StoredExpiration) -> Data {
        var data = Data(capacity: 16)
        appendLittleEndian(expiration.deadline.bitPattern, to: &data)
        appendLittleEndian(expiration.duration.bitPattern, to: &data)
        return data
    }

    /// Parses the trailer of a file of `fileSize` bytes; `nil` when it is not a valid entry file.
    static func decodeTrailer(_ trailer: Data, fileSize: Int) -> Trailer? {
        guard trailer.count == trailerSize else { return nil }
        let bytes = Array(trailer)
        guard Array(bytes[32..<40]) == magic, readLittleEndian(UInt32.self, bytes, at: 28) == format else {
            return nil
        }
        // The lengths come from the file: hostile until they add up, without overflow, to its real size.
        let storedPayloadLength = readLittleEndian(UInt64.self, bytes, at: 16)
        let keyLength = Int(readLittleEndian(UInt32.self, bytes, at: 24))
        guard let payloadLength = Int(exactly: storedPayloadLength) else { return nil }
        let (withKey, keyOverflow) = payloadLength.addingReportingOverflow(keyLength)
        let (total, trailerOverflow) = withKey.addingReportingOverflow(trailerSize)
        guard !keyOverflow, !trailerOverflow, total == fileSize else { return nil }
        let expiration = StoredExpiration(
            deadline: Double(bitPattern: readLittleEndian(UInt64.self, bytes, at: 0)),
            duration: Double(bitPattern: readLittleEndian(UInt64.self, bytes, at: 8)))
        guard !expiration.deadline.isNaN, !expiration.duration.isNaN else { return nil }
        return Trailer(expiration: expiration, payloadLength: payloadLength, keyLength: keyLength)
    }

    /// Splits a whole file into its key and payload; `nil` when it is not a valid entry file.
    static func decode(_ file: Data) -> (key: String, payload: Data, trailer: Trailer)? {
        guard file.count >= trailerSize,
            let trailer = decodeTrailer(file.suffix(trailerSize), fileSize: file.count)
        else { return nil }
        let start = file.startIndex
        let keyBytes = file[start + trailer.payloadLength..<start + trailer.payloadLength + trailer.keyLength]
        guard let key = String(data: keyBytes, encoding: .utf8) else { return nil }
        // A prefix of a Data shares its storage: the payload is not copied.
        return (key, file.prefix(trailer.payloadLength), trailer)
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    private static func readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int)
        -> T
    {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
