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
        return hex64(first) + hex64(second)
    }

    private static func hex64(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
