/// Header field names compared as HTTP compares them (RFC 9110 section 5.1): ASCII letters without
/// case, every other byte exactly. Where the module compares two names itself, it uses this rule, byte
/// by byte: Foundation's `caseInsensitiveCompare` bridges to `NSString` on Linux and folds Unicode
/// case, which a token never needs.
extension String {
    /// Whether this header field name is `other`, ASCII letters compared without case.
    func isHeaderName(_ other: String) -> Bool {
        utf8.count == other.utf8.count
            && zip(utf8, other.utf8).allSatisfy { Self.asciiLowercased($0) == Self.asciiLowercased($1) }
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
}

extension [String: String] {
    /// The value of the header `name`, its name compared as ``Swift/String/isHeaderName(_:)`` does.
    func value(named name: String) -> String? {
        first { $0.key.isHeaderName(name) }?.value
    }
}
