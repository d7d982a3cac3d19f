import Foundation

/// Paints small generated posters as PNG files: a vertical gradient in colours derived from the movie
/// code, with a band near the bottom. Enough to show that the poster path works end to end.
public enum PosterArtist {
    /// A 60×90 PNG for `seed`; the same seed always gives the same bytes.
    public static func poster(seed: String, width: Int = 60, height: Int = 90) -> Data {
        var hash: UInt32 = 2_166_136_261
        for byte in seed.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let top = (
            UInt8(truncatingIfNeeded: hash), UInt8(truncatingIfNeeded: hash >> 8),
            UInt8(truncatingIfNeeded: hash >> 16)
        )
        let bottom = (top.1 / 3, top.2 / 3, top.0 / 3)
        var pixels = Data(capacity: (width * 3 + 1) * height)
        for y in 0..<height {
            pixels.append(0)  // filter: none
            let t = Double(y) / Double(max(height - 1, 1))
            let inBand = y > height * 3 / 4 && y < height * 3 / 4 + 6
            for _ in 0..<width {
                if inBand {
                    pixels.append(contentsOf: [240, 240, 240])
                } else {
                    pixels.append(mix(top.0, bottom.0, t))
                    pixels.append(mix(top.1, bottom.1, t))
                    pixels.append(mix(top.2, bottom.2, t))
                }
            }
        }
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: UInt32(width))
        header.append(bigEndian: UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit RGB, deflate, no filter, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", zlibStored(pixels))
        png.appendChunk("IEND", Data())
        return png
    }

    private static func mix(_ a: UInt8, _ b: UInt8, _ t: Double) -> UInt8 {
        UInt8((Double(a) * (1 - t) + Double(b) * t).rounded())
    }

    /// A zlib stream of uncompressed (stored) deflate blocks.
    private static func zlibStored(_ data: Data) -> Data {
        var out = Data([0x78, 0x01])
        var offset = 0
        let bytes = [UInt8](data)
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isLast = offset + length >= bytes.count
            out.append(isLast ? 1 : 0)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<offset + length])
            offset += length
        } while offset < bytes.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.append(bigEndian: (b << 16) | a)
        return out
    }

    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}

extension Data {
    fileprivate mutating func append(bigEndian value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
        ])
    }

    fileprivate mutating func appendChunk(_ type: String, _ body: Data) {
        append(bigEndian: UInt32(body.count))
        let typed = Data(type.utf8) + body
        append(typed)
        append(bigEndian: PosterArtist.crc32(typed))
    }
}
