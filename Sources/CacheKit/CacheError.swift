/// A cache operation that failed: which operation, for which key, at which path, and why.
///
/// Reads never throw it: an unreadable or corrupt entry is a miss (and is removed). Stores, removals
/// and opening a disk cache do.
public struct CacheError: Error, Sendable, CustomStringConvertible {
    /// The operation that failed.
    ///
    /// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
    /// (Docs/Versioning.md, "How public errors grow").
    public enum Operation: String, Sendable {
        /// Creating or indexing the cache directory.
        case open
        /// Writing an entry.
        case store
        /// Removing one entry.
        case remove
        /// Removing every entry.
        case removeAll
        /// Removing expired entries.
        case removeExpired
    }

    /// Why it failed.
    ///
    /// It grows: a minor version may add a case, so a `switch` over it ends with `@unknown default:`
    /// (Docs/Versioning.md, "How public errors grow").
    public enum Reason: Sendable {
        /// A system call failed; `code` is the `errno` value and `message` its text.
        case fileSystem(code: Int32, message: String)
        /// The value's ``DataConvertible/toData()`` threw.
        case encodingFailed(any Error)
        /// The entry is larger than the whole cache may hold.
        case entryTooLarge(size: Int, limit: Int)
        /// A tier plugged in through ``CacheStorage`` threw this error.
        case tier(any Error)
    }

    /// The operation that failed.
    public let operation: Operation
    /// The entry's key, when the operation concerned one entry.
    public let key: String?
    /// The file or directory involved, when there is one.
    public let path: String?
    /// Why it failed.
    public let reason: Reason

    /// Creates an error.
    /// - Parameters:
    ///   - operation: The operation that failed.
    ///   - key: The entry's key, if any.
    ///   - path: The file or directory involved, if any.
    ///   - reason: Why it failed.
    public init(operation: Operation, key: String?, path: String?, reason: Reason) {
        self.operation = operation
        self.key = key
        self.path = path
        self.reason = reason
    }

    /// A message naming the operation, key, path and cause, with a hint to fix it.
    public var description: String {
        var text = "CacheKit: \(operation.rawValue) failed"
        if let key { text += " for key \"\(key.prefix(120))\"" }
        if let path { text += " at \(path)" }
        switch reason {
        case .fileSystem(let code, let message):
            text +=
                ": \(message) (errno \(code)). Check that the directory exists, is writable and has space."
        case .encodingFailed(let error):
            text += ": the value could not be encoded: \(error)"
        case .entryTooLarge(let size, let limit):
            text += ": the entry is \(size) bytes but the cache holds at most \(limit). Raise the size limit."
        case .tier(let error):
            text += ": a cache tier failed: \(error)"
        }
        return text
    }
}
