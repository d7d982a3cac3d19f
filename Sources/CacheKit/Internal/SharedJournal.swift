import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The change journal of a folder that several processes open (an app and its extensions): the file
/// `.cachekit-shared` in the folder, a header and a list of the entry names changed since the header's
/// epoch began.
///
/// - A process reads the header (one `pread`) on each access; when it moved, it re-reads the trailers of
///   the names listed since it last looked, under a shared `flock`, and its index is current again.
/// - A change (a store's rename, a remove, an eviction) is written to the list, and then made, under an
///   exclusive `flock`: a process that catches up sees either both or neither. (`removeAll` removes its
///   files unlisted, then starts a new epoch.)
/// - `removeAll`, a full list, or a header that is not ours start a new epoch: every process lists the
///   folder again on its next access.
/// - Bounded: at most ``capacity`` names (16 bytes each) follow the header. Every value in the file is
///   checked before use; a file that is not a regular file is never read (the storage refuses to
///   open, see `DiskStorage.init`).
///
/// `flock` locks belong to the open file description, so two storages in one process open the file
/// twice and exclude each other as two processes do; within one storage its own lock orders its threads.
/// The kernel drops a lock whose process dies.
final class SharedJournal: Sendable {
    /// Where a process stands in the journal: the epoch and how many names it has read.
    struct Mark: Equatable, Sendable {
        var epoch: UInt64
        var count: UInt64
    }

    static let fileName = ".cachekit-shared"
    /// The most names listed before a new epoch starts.
    static let capacity: UInt64 = 4096
    static let headerSize = 24
    static let recordSize = 16
    /// "CKSHARE1", little-endian.
    static let magic: UInt64 = 0x3145_5241_4853_4B43

    let descriptor: Int32

    /// Opens (creating it if needed) the journal in `directory`; throws when it cannot be opened or is
    /// not a regular file.
    init(directory: String) throws(POSIXFile.Failure) {
        let path = directory + "/" + Self.fileName
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else { throw .current }
        guard let status = try? POSIXFile.status(descriptor), status.isRegularFile else {
            close(descriptor)
            throw POSIXFile.Failure(code: EINVAL)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// What reading the header found.
    enum Header: Equatable {
        case mark(Mark)
        /// Bytes this journal never wrote (a file of someone else's, a count past ``capacity``).
        case notOurs
        /// The read failed (an I/O error; a protected file while the device is locked).
        case unreadable
    }

    /// The header as it stands: one `pread` into the stack, nothing allocated, on every access of a
    /// shared storage. An empty file is the first epoch with nothing listed.
    func header() -> Header {
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        var read = 0
        repeat {
            read = withUnsafeMutableBytes(of: &words) {
                pread(descriptor, $0.baseAddress, Self.headerSize, 0)
            }
        } while read < 0 && errno == EINTR
        if read < 0 { return .unreadable }
        if read == 0 { return .mark(Mark(epoch: 0, count: 0)) }
        guard read == Self.headerSize, UInt64(littleEndian: words.0) == Self.magic else { return .notOurs }
        let mark = Mark(epoch: UInt64(littleEndian: words.1), count: UInt64(littleEndian: words.2))
        return mark.count <= Self.capacity ? .mark(mark) : .notOurs
    }

    /// The header's mark; `nil` when it is not ours or cannot be read.
    func mark() -> Mark? {
        if case .mark(let mark) = header() { return mark }
        return nil
    }

    /// The names listed between `start` and `end` (as counts of one epoch); `nil` when they cannot be
    /// read whole. Hold the lock, shared or exclusive.
    func names(from start: UInt64, to end: UInt64) -> [String]? {
        guard start <= end, end <= Self.capacity else { return nil }
        let count = Int(end - start) * Self.recordSize
        let offset = Self.headerSize + Int(start) * Self.recordSize
        guard let bytes = try? POSIXFile.read(descriptor, count: count, at: offset), bytes.count == count
        else { return nil }
        return stride(from: 0, to: count, by: Self.recordSize).map { Self.hex(bytes, at: $0) }
    }

    /// Lists `names` as changed; hold the lock exclusively. Returns the header before and after, or
    /// `nil` when the journal cannot be read or written (the caller then starts a new epoch, so the
    /// change is seen by the other processes' next listing). A full list, or a header not ours, starts a
    /// new epoch instead of growing.
    func append(_ names: [String]) -> (before: Mark?, after: Mark)? {
        let found = header()
        if found == .unreadable { return nil }
        let before: Mark? = if case .mark(let mark) = found { mark } else { nil }
        var next = before ?? Mark(epoch: 0, count: 0)
        if before == nil || next.count + UInt64(names.count) > Self.capacity {
            return startEpoch(after: before).map { (before, $0) }
        }
        var records = Data(capacity: names.count * Self.recordSize)
        for name in names { Self.appendBinary(of: name, to: &records) }
        let offset = Self.headerSize + Int(next.count) * Self.recordSize
        guard (try? POSIXFile.write(descriptor, records, at: offset)) != nil else { return nil }
        next.count += UInt64(names.count)
        guard write(next) else { return nil }
        return (before, next)
    }

    /// Starts a new epoch with nothing listed; hold the lock exclusively. Every process lists the
    /// folder again on its next access.
    @discardableResult
    func startEpoch(after current: Mark? = nil) -> Mark? {
        let previous = current ?? mark()
        // A header not ours gets an epoch no process is likely to hold.
        let epoch = previous.map { $0.epoch &+ 1 } ?? UInt64.random(in: 1 ... .max)
        let next = Mark(epoch: epoch, count: 0)
        return write(next) ? next : nil
    }

    private func write(_ mark: Mark) -> Bool {
        var header = Data(capacity: Self.headerSize)
        for word in [Self.magic, mark.epoch, mark.count] {
            withUnsafeBytes(of: word.littleEndian) { header.append(contentsOf: $0) }
        }
        return (try? POSIXFile.write(descriptor, header, at: 0)) != nil
    }

    /// Runs `body` holding the journal's `flock`, shared or exclusive.
    func withLock<T>(exclusive: Bool, _ body: () -> T) -> T {
        lock(exclusive: exclusive)
        defer { unlock() }
        return body()
    }

    /// Takes the journal's `flock` (`LOCK_SH` or `LOCK_EX`), waiting for it. A file system without locks
    /// goes on unlocked: the folder is then as coherent as that file system allows.
    func lock(exclusive: Bool) {
        while flock(descriptor, exclusive ? LOCK_EX : LOCK_SH) != 0, errno == EINTR {}
    }

    func unlock() {
        _ = flock(descriptor, LOCK_UN)
    }

    // MARK: - Encoding

    /// An entry name's 32 hex characters as 16 bytes.
    private static func appendBinary(of name: String, to data: inout Data) {
        var high: UInt8?
        for character in name.utf8 {
            // Names are entry names (lowercase hex), checked by every caller's `StableHash`.
            let nibble = (character >= 97 ? character &- 87 : character &- 48) & 0x0f
            if let first = high {
                data.append(first << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
    }

    private static let digits = Array("0123456789abcdef".utf8)

    private static func hex(_ bytes: Data, at offset: Int) -> String {
        var characters = [UInt8]()
        characters.reserveCapacity(recordSize * 2)
        for index in 0..<recordSize {
            let byte = bytes[bytes.startIndex + offset + index]
            characters.append(digits[Int(byte >> 4)])
            characters.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: characters, as: UTF8.self)
    }
}
