import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Thin, throwing wrappers over the few system calls the disk cache needs. They bypass Foundation's
/// `FileManager` attribute APIs, which cost about 50 µs per file on Linux and cannot set a creation date.
enum POSIXFile {
    /// A failed system call: its `errno` and the text for it.
    struct Failure: Error {
        let code: Int32
        var message: String { String(cString: strerror(code)) }

        static var current: Failure { Failure(code: errno) }
    }

    struct Status {
        let size: Int
        let modified: Double
        let isRegularFile: Bool
    }

    /// Opens an existing file without following a symbolic link and without blocking: a FIFO or a
    /// device under an entry's name would otherwise block `open` (or the first read) forever. Callers
    /// check ``Status/isRegularFile`` before reading.
    static func openForReading(_ path: String, writable: Bool) throws(Failure) -> Int32 {
        let descriptor = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { throw .current }
        return descriptor
    }

    static func status(_ descriptor: Int32) throws(Failure) -> Status {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .current }
        return Status(info)
    }

    /// The status of `path` itself, not following a symbolic link; `nil` when it cannot be read.
    static func linkStatus(_ path: String) -> Status? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Status(info)
    }
}

extension POSIXFile.Status {
    fileprivate init(_ info: stat) {
        #if canImport(Darwin)
            let modified = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
        self.init(
            size: Int(info.st_size), modified: modified, isRegularFile: (info.st_mode & S_IFMT) == S_IFREG)
    }
}

extension POSIXFile {
    /// Closes `descriptor`, for types that have a `close()` of their own.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Reads `count` bytes at `offset`, or fewer at the end of the file, into a buffer that is neither
    /// zero-filled first nor copied afterwards.
    static func read(_ descriptor: Int32, count: Int, at offset: Int) throws(Failure) -> Data {
        guard count > 0 else { return Data() }
        let base = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        var done = 0
        while done < count {
            let read = pread(descriptor, base + done, count - done, off_t(offset + done))
            if read < 0 {
                if errno == EINTR { continue }
                let failure = Failure.current
                base.deallocate()
                throw failure
            }
            if read == 0 { break }
            done += read
        }
        return Data(
            bytesNoCopy: base, count: done, deallocator: .custom { pointer, _ in pointer.deallocate() })
    }

    static func write(_ descriptor: Int32, _ data: Data, at offset: Int) throws(Failure) {
        var failure: Failure?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, base + done, buffer.count - done, off_t(offset + done))
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = .current
                    return
                }
                done += written
            }
        }
        if let failure { throw failure }
    }

    /// Sets the file's access and modification times to `seconds` since 1970.
    static func setTimes(_ descriptor: Int32, to seconds: Double) throws(Failure) {
        // The time comes from a user's clock: one no `timespec` can hold is left unset, not trapped on.
        guard seconds.isFinite, abs(seconds) < 1e15 else { throw Failure(code: EINVAL) }
        let whole = seconds.rounded(.down)
        let time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var times = (time, time)
        let result = withUnsafePointer(to: &times) {
            $0.withMemoryRebound(to: timespec.self, capacity: 2) { futimens(descriptor, $0) }
        }
        guard result == 0 else { throw .current }
    }

    /// Creates `path`, which must not exist, and writes `data` into it. Returns the open descriptor, so the
    /// caller can rename the file into place and then set its times; on failure nothing is left behind.
    static func createFile(_ path: String, containing data: Data) throws(Failure) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw .current }
        do {
            try write(descriptor, data, at: 0)
        } catch {
            close(descriptor)
            unlink(path)
            throw error
        }
        return descriptor
    }

    /// Renames `source` over `destination` atomically: a reader sees the old file or the new one.
    static func move(_ source: String, to destination: String) throws(Failure) {
        guard rename(source, destination) == 0 else { throw .current }
    }

    /// Removes `path`; a file that is already gone is not an error.
    static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT { throw .current }
    }
}
