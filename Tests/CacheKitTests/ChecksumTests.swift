import Foundation
import Testing

@testable import CacheKit

@Suite("The payload checksum is XXH64")
struct ChecksumTests {
    /// Reference values from the `xxhash` Python package (`xxhash.xxh64(bytes).intdigest()`).
    @Test(arguments: [
        ("", 0xEF46_DB37_51D8_E999 as UInt64),
        ("a", 0xD24E_C4F1_A98C_6E5B),
        ("abc", 0x44BC_2CF5_AD77_0999),
        ("Nobody inspects the spammish repetition", 0xFBCE_A83C_8A37_8BF1),  // 32 + 4 + 3 × 1
        ("The quick brown fox jumps over the lazy dog!", 0xD128_1305_0B60_D186),  // 32 + 8 + 4
    ])
    func knownInputsHashToTheReferenceValues(input: String, expected: UInt64) {
        #expect(Data(input.utf8).withUnsafeBytes { Checksum.of($0) } == expected)
    }

    @Test func aLongInputCoversEveryTailLength() {
        // Given 1,027 bytes: 32 rounds of four lanes, then three single bytes
        let bytes = Data((0..<4).flatMap { _ in (0...255).map { UInt8($0) } } + Array("xyz".utf8))
        // Then
        #expect(bytes.withUnsafeBytes { Checksum.of($0) } == 0xE146_CB31_B65B_C21A)
    }
}
