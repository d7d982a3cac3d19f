/// A 128-bit hash of a string that is the same in every process and on every platform (unlike Swift's
/// `Hasher`, which is seeded per process), used to name cache files.
///
/// Two FNV-1a 64-bit passes with different offset bases over the UTF-8 bytes. It is not cryptographic:
/// the disk cache stores each entry's key in its file and checks it on read, so a collision is a miss,
/// never a wrong value.
enum StableHash {
    static func hex(_ string: String) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325
        var second: UInt64 = 0x6c62_272e_07bb_0142
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for byte in string.utf8 {
            first = (first ^ UInt64(byte)) &* prime
            second = (second ^ UInt64(byte ^ 0x5c)) &* prime
        }
        // Fold the length in so keys that differ only by trailing bytes spread further.
        second = (second ^ UInt64(truncatingIfNeeded: string.utf8.count)) &* prime
        // Written digit by digit into the string's own storage: `String(_:radix:)` and padding cost
        // about 4,400 instructions of a disk hit.
        return String(unsafeUninitializedCapacity: 32) { buffer in
            write(first, into: buffer, at: 0)
            write(second, into: buffer, at: 16)
            return 32
        }
    }

    /// Writes `value` as 16 lowercase hex digits, most significant first, at `offset`.
    private static func write(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int)
    {
        for index in 0..<16 {
            let nibble = UInt8(truncatingIfNeeded: value >> (60 - 4 * UInt64(index))) & 0x0f
            buffer[offset + index] = nibble < 10 ? 48 + nibble : 87 + nibble
        }
    }
}
