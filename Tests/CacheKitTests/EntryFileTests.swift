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

    @Test
    func anEncodedEntryPassesItsOwnTrailerCheck() throws {
        // Given an entry encoded with its key and expiration
        let file = EntryFile.encode(
            payload: Data("poster bytes".utf8), key: "poster",
            expiration: StoredExpiration(deadline: 1_000, duration: 60))
        // When its trailer is checked, then it is an entry of the stored lengths and expiration
        let check = EntryFile.check(file.suffix(EntryFile.trailerSize), fileSize: file.count)
        guard case .entry(let trailer) = check else {
            Issue.record("expected an entry, got \(check)")
            return
        }
        #expect(trailer.payloadLength == 12)
        #expect(trailer.keyLength == 6)
        #expect(trailer.expiration == StoredExpiration(deadline: 1_000, duration: 60))
    }
}
