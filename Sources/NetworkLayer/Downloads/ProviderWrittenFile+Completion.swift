import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download whose connection failed after its last byte is complete: it is not asked for again (which
/// a server refuses with a `416`), and not thrown away.
extension ProviderWrittenFile {
    /// The head of the last answer, when the file holds every byte of the total it announced and no
    /// write failed: a transfer that stalled or dropped after its last byte (a chunked body whose end
    /// never came) needs no other request.
    var completeHead: HTTPURLResponse? {
        state.withLock { state in
            guard state.writeError == nil, let total = state.expectedTotal, state.received == total,
                let head = state.lastHead, Self.countsBytesAsSent(head)
            else { return nil }
            return head
        }
    }

    /// Whether `head`'s body arrives as its length counts it: no `Content-Encoding` (URLSession would
    /// count the bytes after decoding, the length those before).
    static func countsBytesAsSent(_ head: HTTPURLResponse) -> Bool {
        let encoding = head.headerFields.value(named: "Content-Encoding")?.lowercased() ?? "identity"
        return encoding == "identity"
    }

    /// The head of the last answer, when `head` refuses a resume because the file already holds every
    /// byte of a body whose length was never announced: a `416` saying the body has as many bytes as
    /// were received (`Content-Range: bytes */N`), to a request that asked for the bytes from `N` on with
    /// `If-Range`. A `416` with another validator of the same kind than the one asked for (a server that
    /// ignores `If-Range`, with a new version of that length) completes nothing, and neither does one
    /// for a body whose total was announced (that body is complete by its total, or not at all). What a
    /// body of unknown length that dropped after its last byte gets when asked for the rest.
    func completed(by head: HTTPURLResponse) -> HTTPURLResponse? {
        guard head.statusCode == 416,
            let total = ContentRange.unsatisfiedLength(head.headerFields.value(named: "Content-Range"))
        else { return nil }
        let answeredValidator = RangeRules.strongValidator(in: head.headerFields)
        return state.withLock { state in
            guard state.writeError == nil, let point = state.resumePoint, point.offset == total,
                state.expectedTotal == nil,
                Self.agrees(answeredValidator, with: point.validator),
                let last = state.lastHead, Self.countsBytesAsSent(last)
            else { return nil }
            return last
        }
    }

    /// Whether a `416`'s validator, if any, agrees with the one asked for: equal, or of another kind (a
    /// date beside an entity tag), which says nothing either way.
    static func agrees(_ answered: String?, with asked: String) -> Bool {
        guard let answered else { return true }
        let sameKind = answered.hasPrefix("\"") == asked.hasPrefix("\"")
        return !sameKind || answered == asked
    }
}
