import Foundation

/// The HTTP rules of a download's ranges, as values: which validator `If-Range` may send, and whether a
/// `206 Partial Content` answer may go into the file. Every download path asks this one place: a file the
/// provider writes (``ProviderWrittenFile``), a download task's (``SessionWrittenFile``), and a
/// background task that finished with no caller (``BackgroundTasks``).
enum RangeRules {
    /// What the request a `206` answers asked for.
    enum Asked: Equatable {
        /// No range: a `206` must carry the whole body.
        case nothing
        /// The bytes from `offset` on, with `validator` in `If-Range` (none for the first window, from
        /// byte 0).
        case bytes(from: Int64, validator: String?)
        /// The rest of a download task's file, from URLSession's resume data, whose offset URLSession
        /// keeps; `validator` is that of the answer the data continues.
        case resumeData(validator: String?)
    }

    /// What a `206` answer is to the download's file.
    enum Verdict: Equatable {
        /// The first bytes of a new file: the whole body, or the first window.
        case startsFile
        /// The missing bytes of the file, of the same version.
        case continuesFile
        /// Bytes other than those asked for, or of another version (a server that honours `Range` but
        /// ignores `If-Range` sends the new version's bytes): the download starts over.
        case refused
    }

    /// What a `206` answer with `headers` is to a download that asked as `asked` says.
    static func verdict(on headers: [String: String], asked: Asked) -> Verdict {
        let range = ContentRange(headers.value(named: "Content-Range"))
        switch asked {
        case .nothing:
            guard let range, range.first == 0, range.total == range.last + 1 else { return .refused }
            return .startsFile
        case .bytes(from: 0, _):
            return range?.first == 0 ? .startsFile : .refused
        case .bytes(let offset, let validator):
            guard let range, range.first == offset, let validator,
                strongValidator(in: headers) == validator
            else { return .refused }
            return .continuesFile
        case .resumeData(let validator):
            guard let validator, strongValidator(in: headers) == validator else { return .refused }
            return .continuesFile
        }
    }

    /// What `If-Range` may send, as RFC 9110 (section 13.1.5) allows: a strong `ETag`; without any
    /// `ETag`, a `Last-Modified` at least one second before the response's `Date` (a file changed twice
    /// within that second would keep its date); `nil` otherwise (a weak `ETag` rules the date out too).
    static func strongValidator(in headers: [String: String]) -> String? {
        if let etag = headers.value(named: "ETag") { return etag.hasPrefix("W/") ? nil : etag }
        guard let modified = headers.value(named: "Last-Modified"),
            let modifiedDate = HTTPDate.parse(modified),
            let sent = headers.value(named: "Date").flatMap({ HTTPDate.parse($0) }),
            sent.timeIntervalSince(modifiedDate) >= 1
        else { return nil }
        return modified
    }
}
