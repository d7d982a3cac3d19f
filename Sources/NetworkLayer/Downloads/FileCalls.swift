import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The system calls the download's file needs, with errors as ``NetworkError/file(_:)``.
enum FileCalls {
    /// A file's device and inode.
    struct Identity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64

        init(_ status: stat) {
            device = UInt64(truncatingIfNeeded: status.st_dev)
            inode = UInt64(truncatingIfNeeded: status.st_ino)
        }
    }

    private static let flags = O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK

    /// Creates the file at `url`, which must not exist (a link or a FIFO put there is refused, without
    /// blocking), with the permissions the process's umask gives a new file.
    static func create(_ url: URL) throws -> (Int32, Identity) {
        let descriptor = try openDescriptor(url, flags | O_CREAT | O_EXCL)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw closing(descriptor, failure(errno)) }
        return (descriptor, Identity(status))
    }

    /// Creates the file at `url` for writing, readable and writable by its owner only from the moment
    /// it exists (mode 0600, never widened by the umask): an entry already there (a file, a link) is
    /// removed first, and one put there in between makes the call fail rather than write through it.
    static func createPrivate(_ url: URL) throws -> Int32 {
        _ = url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } }
        return try openDescriptor(url, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode: 0o600)
    }

    /// Opens the file at `url` again for appending after its first `length` bytes, dropping any bytes
    /// past them (a write that failed halfway), if it is still `identity`, a regular file with one link
    /// and at least `length` bytes.
    static func reopen(_ url: URL, as identity: Identity, keeping length: Int64) throws -> Int32 {
        let descriptor = try openDescriptor(url, flags)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw closing(descriptor, failure(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1, Identity(status) == identity,
            Int64(status.st_size) >= length
        else { throw closing(descriptor, NetworkError.file(POSIXError(.ESTALE))) }
        guard ftruncate(descriptor, off_t(length)) == 0 else { throw closing(descriptor, failure(errno)) }
        return descriptor
    }

    /// Whether the entry at `url` (not following a link) is still the file `identity`.
    static func isStill(_ url: URL, _ identity: Identity) -> Bool {
        entry(at: url)?.identity == identity
    }

    /// The identity and size of the entry at `url`, not following a link; `nil` when there is none.
    static func entry(at url: URL) -> (identity: Identity, size: Int64)? {
        var status = stat()
        let found = url.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &status) } ?? -1 }
        return found == 0 ? (Identity(status), Int64(status.st_size)) : nil
    }

    /// A hidden file beside `destination`, unique to one download, not derived from the destination's
    /// name (which may already be near the file system's limit).
    static func partURL(beside destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".download-\(UUID().uuidString).part")
    }

    /// Removes the entry at `url` if it is still the file `identity`.
    static func remove(_ url: URL, ifStill identity: Identity) {
        guard isStill(url, identity) else { return }
        _ = url.withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } }
    }

    /// Puts the file at `source` in `destination`'s place in one step: a process looking at the
    /// destination meanwhile finds the old file or the new one, never none.
    ///
    /// A regular file already there is swapped out (``swap(_:_:)``) and then removed from `source`'s
    /// name, instead of being renamed over: ext4 (`auto_da_alloc`) makes a rename over an existing file
    /// allocate the new file's blocks first, which measured 35–60 ms more than the swap for a freshly
    /// written 200 MB file. That allocation is also what makes a rename-over likely to leave the old or
    /// the new file after a power loss; without it, as with removing the old file and then renaming,
    /// the destination may be left empty then (neither is promised without `fsync`, which downloads do
    /// not call). Elsewhere, and when the swap is refused (a file system without it), a plain
    /// `rename(2)`.
    static func replace(_ destination: URL, with source: URL) throws {
        var status = stat()
        let isRegularFile =
            destination.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &status) } ?? -1 }
            == 0
            && status.st_mode & S_IFMT == S_IFREG
        if isRegularFile, swap(source, destination) {
            // `source` now names the old file, if nothing swapped it meanwhile.
            remove(source, ifStill: Identity(status))
            return
        }
        let renamed = destination.withUnsafeFileSystemRepresentation { target in
            source.withUnsafeFileSystemRepresentation { moved -> Int32 in
                guard let target, let moved else { return ENOENT }
                return rename(moved, target) == 0 ? 0 : errno
            }
        }
        if renamed != 0 { throw failure(renamed) }
    }

    /// Exchanges the entries at `first` and `second` in one step (`renameat2` with
    /// `RENAME_EXCHANGE`); `false` where the system or the file system does not have it.
    static func swap(_ first: URL, _ second: URL) -> Bool {
        guard let exchange = Exchange.function else { return false }
        return first.withUnsafeFileSystemRepresentation { one in
            second.withUnsafeFileSystemRepresentation { other in
                guard let one, let other else { return false }
                return exchange(AT_FDCWD, one, AT_FDCWD, other, 2) == 0
            }
        }
    }

    /// Whether ``swap(_:_:)`` can work here at all.
    static var swapsFiles: Bool { Exchange.function != nil }

    /// `renameat2(2)`, looked up at run time: Glibc's Swift module does not declare it.
    private enum Exchange {
        typealias Function =
            @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

        static let function: Function? = {
            #if os(Linux)
                guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else {
                    return nil
                }
                return unsafeBitCast(symbol, to: Function.self)
            #else
                return nil
            #endif
        }()
    }

    /// Closes `descriptor` (when open) and marks it closed; returns the close's failure.
    @discardableResult
    static func closeFile(_ descriptor: inout Int32) -> NetworkError? {
        guard descriptor >= 0 else { return nil }
        defer { descriptor = -1 }
        return close(descriptor) == 0 ? nil : failure(errno)
    }

    /// Writes all of `data`, retrying short writes and interruptions; returns the failure.
    static func writeAll(_ data: Data, to descriptor: Int32) -> NetworkError? {
        data.withUnsafeBytes { buffer -> NetworkError? in
            guard var next = buffer.baseAddress else { return nil }
            var left = buffer.count
            while left > 0 {
                let count = write(descriptor, next, left)
                if count < 0 {
                    let code = errno
                    if code == EINTR { continue }
                    return failure(code)
                }
                // Nothing written and no error: never loop on it.
                guard count > 0 else { return failure(EIO) }
                next += count
                left -= count
            }
            return nil
        }
    }

    private static func openDescriptor(_ url: URL, _ flags: Int32, mode: mode_t = 0o666) throws -> Int32 {
        let (descriptor, code) = url.withUnsafeFileSystemRepresentation { path -> (Int32, Int32) in
            guard let path else { return (-1, ENOENT) }
            let descriptor = open(path, flags, mode)
            return (descriptor, errno)
        }
        guard descriptor >= 0 else { throw failure(code) }
        return descriptor
    }

    private static func closing(_ descriptor: Int32, _ error: NetworkError) -> NetworkError {
        _ = close(descriptor)
        return error
    }

    private static func failure(_ code: Int32) -> NetworkError {
        NetworkError.file(POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
