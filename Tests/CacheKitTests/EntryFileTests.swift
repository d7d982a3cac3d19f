import Foundation
import Testing

@testable import CacheKit

/// An entry's file name and its trailer must never change between releases: a new name or layout
/// would orphan every file an app already cached.
@Suite("Disk entry files: named and laid out the same in every release")
struct EntryFileTests {
    @Test(arguments: [
        ("", "cbf29ce484222325e5c9d53722c32326"),
        ("poster", "ff103ad7b65ca1dcc6668d7094e71adf"),
        ("https://img.example.com/a.jpg?w=300", "48e5bb409eff9f55c9fa6e78daba343d"),
        ("영화", "117f16cf81bd078248da64048d79b489"),
        // Leading zeros in either half are kept: every name is 32 characters.
        ("key-8500", "007fa7e5ce13700cd1a34c81abdbd581"),
        ("key-21", "165e9934cb09fda6000113ba1042c905"),
    ])
    func aKeyIsNamedByTheSameHashAsInEveryEarlierRelease(key: String, name: String) {
        // Given a key, when its file is named, then the name is the one earlier releases gave it
        #expect(StableHash.hex(key) == name)
        #expect(EntryFile.isEntryName(Array(name.utf8)))
    }

    @Test
    func theTrailersMagicWordSpellsCacheKit() {
        // Given the word a trailer check compares, when it is written little-endian
        let bytes = withUnsafeBytes(of: EntryFile.magicWord.littleEndian) { Array($0) }
        // Then it spells the magic that `encode` writes
        #expect(String(decoding: bytes, as: UTF8.self) == "CacheKit")
    }

    /// The trailer of `"poster bytes"` stored under `"poster"` with a deadline of 1,000 s and a
    /// 60-second renewal, byte by byte: computed apart from the package (Python's `struct` and the
    /// published XXH64), so a change to the layout fails here even when `encode` and `check` change
    /// together.
    static let knownTrailer =
        "0000000000408f40" + "0000000000004e40" + "0c00000000000000" + "45c56bfb1cf23739" + "06000000"
        + "02000000" + "43616368654b6974"

    static func bytes(hex: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(
                try #require(UInt8(hex[index..<next], radix: 16), "not a hex byte: \(hex[index..<next])"))
            index = next
        }
        return bytes
    }

    @Test
    func anEntryIsWrittenInTheLayoutEveryReleaseReads() throws {
        // Given a payload, a key and an expiration
        let trailer = try Self.bytes(hex: Self.knownTrailer)
        // When the entry is encoded
        let file = EntryFile.encode(
            payload: Data("poster bytes".utf8), key: "poster",
            expiration: StoredExpiration(deadline: 1_000, duration: 60))
        // Then it is the payload, the key, and the known trailer, byte for byte
        #expect(Array(file) == Array("poster bytes".utf8) + Array("poster".utf8) + trailer)
    }

    @Test
    func theKnownTrailerIsReadAsTheEntryItDescribes() throws {
        // Given a file of 18 bytes of payload and key followed by the known trailer
        let trailer = Data(try Self.bytes(hex: Self.knownTrailer))
        // When its trailer is checked
        let check = EntryFile.check(trailer, fileSize: 12 + 6 + EntryFile.trailerSize)
        // Then it is an entry with the stored lengths, checksum and expiration
        guard case .entry(let found) = check else {
            Issue.record("expected an entry, got \(check)")
            return
        }
        #expect(found.payloadLength == 12)
        #expect(found.keyLength == 6)
        #expect(found.checksum == 0x3937_f21c_fb6b_c545)
        #expect(found.expiration == StoredExpiration(deadline: 1_000, duration: 60))
    }
}
