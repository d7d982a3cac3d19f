import Foundation

/// The layout of one disk cache file: the value's bytes first, then the key, then a fixed trailer.
///
/// ```text
/// [payload][key UTF-8][trailer: deadline f64 | renewal f64 | payload length u64 | payload checksum u64 |
///                              key length u32 | format u32 | magic "CacheKit"]   (48 bytes, little-endian)
/// ```
/// The payload comes first so a cached image file is still a valid image for tools that open it by
/// path (decoders stop at their own end marker). The trailer makes every file self-describing: the
/// index is rebuilt from the files alone, a collision is detected through the stored key, damaged
/// payload bytes fail the checksum, and a file without the magic is not CacheKit's and is left alone.
enum EntryFile {
    static let trailerSize = 48
    static let deadlineOffsetFromEnd = 48
    private static let magic = Array("CacheKit".utf8)
    /// `magic` as the little-endian word a check reads (`EntryFileTests` checks that the two agree).
    static let magicWord: UInt64 = 0x7469_4B65_6863_6143
    /// 2: the payload checksum. A file with the magic and another format is an outdated entry of ours.
    private static let format: UInt32 = 2

    struct Trailer: Equatable {
        var expiration: StoredExpiration
        let payloadLength: Int
        let keyLength: Int
        let checksum: UInt64
    }

    /// What a file's last bytes say about it.
    enum TrailerCheck: Equatable {
        /// A valid entry of this format.
        case entry(Trailer)
        /// CacheKit's magic, but an older format or lengths that do not add up: ours, and unusable.
        case damaged
        /// No CacheKit magic: a file the cache did not write.
        case foreign
    }

    static func encode(payload: Data, key: String, expiration: StoredExpiration) -> Data {
        let keyBytes = Array(key.utf8)
        let checksum = payload.withUnsafeBytes { Checksum.of($0) }
        var file = Data(capacity: payload.count + keyBytes.count + trailerSize)
        file.append(payload)
        file.append(contentsOf: keyBytes)
        file.append(encode(expiration))
        appendLittleEndian(UInt64(payload.count), to: &file)
        appendLittleEndian(checksum, to: &file)
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

    /// Checks the last ``trailerSize`` bytes of a file of `fileSize` bytes.
    static func check(_ trailer: Data, fileSize: Int) -> TrailerCheck {
        guard trailer.count == trailerSize else { return .foreign }
        // Read in place: copying the trailer into an array, and reading it byte by byte, cost about a
        // thousand instructions of every disk hit.
        return trailer.withUnsafeBytes { check($0, fileSize: fileSize) }
    }

    /// ``check(_:fileSize:)`` over the trailer's `trailerSize` bytes.
    private static func check(_ bytes: UnsafeRawBufferPointer, fileSize: Int) -> TrailerCheck {
        guard readLittleEndian(UInt64.self, bytes, at: 40) == magicWord else { return .foreign }
        guard readLittleEndian(UInt32.self, bytes, at: 36) == format else { return .damaged }
        // The lengths come from the file: hostile until they add up, without overflow, to its real size.
        let storedPayloadLength = readLittleEndian(UInt64.self, bytes, at: 16)
        let keyLength = Int(readLittleEndian(UInt32.self, bytes, at: 32))
        guard let payloadLength = Int(exactly: storedPayloadLength) else { return .damaged }
        let (withKey, keyOverflow) = payloadLength.addingReportingOverflow(keyLength)
        let (total, trailerOverflow) = withKey.addingReportingOverflow(trailerSize)
        guard !keyOverflow, !trailerOverflow, total == fileSize else { return .damaged }
        let deadline = Double(bitPattern: readLittleEndian(UInt64.self, bytes, at: 0))
        let duration = Double(bitPattern: readLittleEndian(UInt64.self, bytes, at: 8))
        guard !deadline.isNaN, !duration.isNaN else { return .damaged }
        return .entry(
            Trailer(
                expiration: StoredExpiration(deadline: deadline, duration: duration),
                payloadLength: payloadLength, keyLength: keyLength,
                checksum: readLittleEndian(UInt64.self, bytes, at: 24)))
    }

    /// Splits a whole file into its key and payload after checking its trailer and its payload's checksum.
    static func decode(_ file: Data) -> Decoded {
        guard file.count >= trailerSize else { return .foreign }
        let trailer: Trailer
        switch check(file.suffix(trailerSize), fileSize: file.count) {
        case .entry(let found): trailer = found
        case .damaged: return .damaged
        case .foreign: return .foreign
        }
        let start = file.startIndex
        // A prefix of a Data shares its storage: the payload is not copied.
        let payload = file.prefix(trailer.payloadLength)
        guard payload.withUnsafeBytes({ Checksum.of($0) }) == trailer.checksum else { return .damaged }
        let keyBytes = file[start + trailer.payloadLength..<start + trailer.payloadLength + trailer.keyLength]
        guard let key = String(data: keyBytes, encoding: .utf8) else { return .damaged }
        return .entry(key: key, payload: payload, trailer: trailer)
    }

    /// A whole file, decoded.
    enum Decoded {
        case entry(key: String, payload: Data, trailer: Trailer)
        case damaged
        case foreign
    }

    /// Whether `name` is an entry file's name: 32 lowercase hex characters (a ``StableHash`` of the key).
    static func isEntryName<Name: Collection<UInt8>>(_ name: Name) -> Bool {
        name.count == 32 && name.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The key stored in a file whose trailer is `trailer`, read with one `pread`; `nil` when unreadable.
    static func readKey(_ descriptor: Int32, trailer: Trailer) -> String? {
        guard
            let bytes = try? POSIXFile.read(descriptor, count: trailer.keyLength, at: trailer.payloadLength),
            bytes.count == trailer.keyLength
        else { return nil }
        return String(data: bytes, encoding: .utf8)
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }

    /// The little-endian `T` at `offset`; the caller keeps `offset + T`'s size within `bytes` (the
    /// trailer's fixed layout).
    private static func readLittleEndian<T: FixedWidthInteger>(
        _: T.Type, _ bytes: UnsafeRawBufferPointer, at offset: Int
    ) -> T {
        T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: T.self))
    }
}
