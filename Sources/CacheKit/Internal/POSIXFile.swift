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
        #if canImport(Darwin)
            let modified = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
        #else
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
        #endif
        return Status(
            size: Int(info.st_size), modified: modified, isRegularFile: (info.st_mode & S_IFMT) == S_IFREG)
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

    /// Writes `data` to `path` atomically: into a new temporary file beside it, then renamed over it.
    /// A crash leaves either the old file or the new one, never a partial file at `path`.
    static func writeAtomically(
        _ data: Data, to path: String, temporaryPath: String, modified: Double
    ) throws(Failure) {
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .current }
        do {
            try write(descriptor, data, at: 0)
            try setTimes(descriptor, to: modified)
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            let failure = Failure.current
            unlink(temporaryPath)
            throw failure
        }
    }

    /// Removes `path`; a file that is already gone is not an error.
    static func remove(_ path: String) throws(Failure) {
        if unlink(path) != 0, errno != ENOENT { throw .current }
    }
}
