import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Makes the token refreshes of every process of an app group one refresh: an app and its notification
/// service extension that meet a 401 at once spend a rotating refresh token once, not twice.
///
/// ```swift
/// let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!
/// let refresh = TokenRefreshMiddleware(sharedAcross: SharedRefresh(folder: group)) {
///     try await session.refreshTokens()   // stores them where every process reads them (keychain group)
/// }
/// ```
///
/// It keeps one file in `folder`, `.networklayer-token-refresh`: an advisory `flock` on it is the lock,
/// and its bytes the "refreshed at" record (how many refreshes finished, and when the last did). A
/// process that met a 401 takes the lock, waiting while another process refreshes. Holding it, it reads
/// the record: when a refresh finished after its request was sent, it does not refresh, and its retry
/// reads the new token from the app's store (which every process must reach: a keychain access group
/// on Apple platforms). Otherwise it refreshes and writes the record. The package coordinates; the app
/// keeps the token where it already does.
///
/// The lock is held while the refresh runs (that is its purpose), and only then. The kernel releases it
/// when its process ends, however it ends, so a process killed mid-refresh blocks nobody. A process
/// that waits longer than ``waitLimit`` fails its refresh with ``WaitTimedOut``; a cancelled one stops
/// waiting at once. The record is read with every value checked: bytes that are not this type's count
/// as "no refresh yet"; a file under its name that is not a regular file fails the refresh rather than
/// block on it. On iOS the system terminates a process suspended while it holds a file lock in a shared
/// container (`0xdead10cc`): send requests that may refresh while the process may run.
public final class SharedRefresh: Sendable {
    /// The refresh waited longer than ``SharedRefresh/waitLimit`` for another process's.
    public struct WaitTimedOut: Error, Sendable, CustomStringConvertible {
        /// How long it waited.
        public let waited: Duration
        /// Says what timed out, and after how long.
        public var description: String {
            "waited \(waited) for another process's token refresh"
        }
    }

    /// The folder every process of the group reaches (an app-group container on Apple platforms).
    public let folder: URL
    /// How long a refresh waits for another process's before failing; 60 seconds by default.
    public let waitLimit: Duration
    let path: String

    static let fileName = ".networklayer-token-refresh"
    /// "NLREFRS1", little-endian.
    static let magic: UInt64 = 0x3153_4652_4552_4C4E
    static let recordSize = 24

    /// Creates the coordination in `folder`, which must exist; its file is created when first needed.
    /// - Parameters:
    ///   - folder: A folder every process of the app group reaches.
    ///   - waitLimit: How long a refresh waits for another process's; 60 seconds by default.
    public init(folder: URL, waitLimit: Duration = .seconds(60)) {
        self.folder = folder
        self.waitLimit = waitLimit
        self.path = folder.appendingPathComponent(Self.fileName, isDirectory: false).path
    }

    /// How many refreshes, by any process, have finished with this folder; 0 before the first.
    public var refreshCount: UInt64 {
        guard let descriptor = try? open(creating: false) else { return 0 }
        defer { close(descriptor) }
        return Self.record(of: descriptor)?.count ?? 0
    }

    /// When the last refresh by any process finished; `nil` before the first.
    public var lastRefresh: Date? {
        guard let descriptor = try? open(creating: false) else { return nil }
        defer { close(descriptor) }
        return Self.record(of: descriptor)?.date
    }

    /// The record's count as a request reads it before it is sent: 0 when there is no file yet, `nil`
    /// when it cannot be read now (no descriptors left, a protected file on a locked device), in which
    /// case a refusal refreshes.
    func countBeforeSending() -> UInt64? {
        do {
            let descriptor = try open(creating: false)
            defer { close(descriptor) }
            return Self.record(of: descriptor)?.count
        } catch let error as POSIXError where error.code == .ENOENT {
            return 0
        } catch {
            return nil
        }
    }

    /// Holding the lock (waiting for it first), runs `refresh` unless a refresh finished after the
    /// newest of the requests it answers was sent. `sentAt`, asked once the lock is held, gives the
    /// count that request read before it was sent (``countBeforeSending()``) and when it was sent: the
    /// count decides; when it is unknown, the record's date does (a refresh recorded after the send);
    /// when neither can be read, `refresh` runs.
    /// - Returns: Whether `refresh` ran here.
    func refreshOnce(
        sentAt: @Sendable () -> (count: UInt64?, date: Date),
        running refresh: @Sendable () async throws -> Void
    ) async throws -> Bool {
        let descriptor = try await lock()
        defer { close(descriptor) }  // releases the lock
        let record = Self.record(of: descriptor)
        let sent = sentAt()
        if let record {
            if let count = sent.count {
                if record.count > count { return false }
            } else if let date = record.date, date > sent.date {
                return false
            }
        }
        try await refresh()
        Self.write(((record?.count ?? 0) &+ 1, Date()), to: descriptor)
        return true
    }

    /// Opens the file and takes its lock, polling while another process holds it.
    private func lock() async throws -> Int32 {
        let descriptor = try open(creating: true)
        let start = ContinuousClock.now
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { break }  // no locks here: go on unlocked
            let waited = ContinuousClock.now - start
            do {
                guard waited < waitLimit else { throw WaitTimedOut(waited: waited) }
                try await Task.sleep(for: .milliseconds(20))
            } catch {
                close(descriptor)
                throw error
            }
        }
        return descriptor
    }

    /// The file, opened without following a link or blocking on a FIFO; only a regular file is used.
    private func open(creating: Bool) throws -> Int32 {
        let flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | (creating ? O_CREAT : 0)
        let descriptor = Self.systemOpen(path, flags, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw POSIXError(.EINVAL)
        }
        return descriptor
    }

    private static func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        #if canImport(Darwin)
            Darwin.open(path, flags, mode)
        #elseif canImport(Glibc)
            Glibc.open(path, flags, mode)
        #else
            Musl.open(path, flags, mode)
        #endif
    }

    /// The record in the file: (0, nil) when it is empty, short, not ours, or its date is not a time.
    /// `nil` when the file cannot be read now (an I/O error, a protected file on a locked device).
    static func record(of descriptor: Int32) -> (count: UInt64, date: Date?)? {
        var words = [UInt64](repeating: 0, count: 3)
        var read = 0
        repeat {
            read = words.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, recordSize, 0) }
        } while read < 0 && errno == EINTR
        if read < 0 { return nil }
        guard read == recordSize, UInt64(littleEndian: words[0]) == magic else { return (0, nil) }
        let seconds = Double(bitPattern: UInt64(littleEndian: words[2]))
        let date = seconds.isFinite && abs(seconds) < 1e12 ? Date(timeIntervalSince1970: seconds) : nil
        return (UInt64(littleEndian: words[1]), date)
    }

    private static func write(_ record: (count: UInt64, date: Date), to descriptor: Int32) {
        let words = [magic, record.count, record.date.timeIntervalSince1970.bitPattern].map(\.littleEndian)
        _ = words.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, recordSize, 0) }
    }
}
