/// FNV-1a over a string's UTF-8 bytes: a stable name for a file (not a secret's protection), the same on
/// every run and platform, unlike `Hasher`, which is seeded per process.
enum FNVHash {
    /// The 64-bit FNV-1a hash of `text`, in hexadecimal.
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
