import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One entry file opened and read outside the storage's lock.
struct FileRead {
    enum Result {
        case entry(payload: Data, expiration: StoredExpiration)
        /// A valid entry of another key with the same file name.
        case otherKey
        /// Not CacheKit's (see ``DiskStorage/IndexRead/skipped``), or gone.
        case notOurs
        /// CacheKit's, and damaged: `reason` says how.
        case damaged(reason: String)
        /// Could not be read now (refused, as a protected file is while the device is locked; out of
        /// descriptors or memory; an I/O error): not judged either way.
        case unavailable
    }

    let result: Result
    /// Open when the file was a regular file; ``close()`` closes it.
    let descriptor: Int32?
    /// Where the deadline is in the file, for writing a renewal back.
    let deadlineOffset: Int

    init(path: String, key: String, sizeLimit: Int, injectedFailure: Int32? = nil) {
        var opened: Int32?
        var failure: Int32 = 0
        do throws(POSIXFile.Failure) {
            if let injectedFailure { throw POSIXFile.Failure(code: injectedFailure) }
            opened = try POSIXFile.openForReading(path, writable: true)
        } catch {
            failure = error.code
            // A read-only file or file system: read it, and skip writing the renewal back.
            if injectedFailure == nil, error.code == EACCES || error.code == EROFS {
                do throws(POSIXFile.Failure) {
                    opened = try POSIXFile.openForReading(path, writable: false)
                } catch {
                    failure = error.code
                }
            }
        }
        guard let descriptor = opened else {
            // Gone, a link, a directory or a device without a reader: not an entry. Refused (a protected
            // file while the device is locked: EPERM), or out of descriptors: may open later, so it is a
            // miss that stays indexed.
            let notAnEntry = [ENOENT, ELOOP, EISDIR, ENXIO, ENOTDIR].contains(failure)
            (result, self.descriptor, deadlineOffset) = (notAnEntry ? .notOurs : .unavailable, nil, 0)
            return
        }
        self.descriptor = descriptor
        guard let status = try? POSIXFile.status(descriptor), status.isRegularFile, status.size <= sizeLimit
        else {
            (result, deadlineOffset) = (.notOurs, 0)
            return
        }
        deadlineOffset = status.size - EntryFile.deadlineOffsetFromEnd
        let file: Data
        do throws(POSIXFile.Failure) {
            file = try POSIXFile.read(descriptor, count: status.size, at: 0)
        } catch {
            result = .unavailable
            return
        }
        switch EntryFile.decode(file) {
        case .foreign:
            result = .notOurs
        case .damaged:
            result = .damaged(reason: "its trailer or payload checksum does not match its bytes")
        case .entry(let storedKey, let payload, let trailer):
            result = storedKey == key ? .entry(payload: payload, expiration: trailer.expiration) : .otherKey
        }
    }

    func close() {
        if let descriptor { POSIXFile.closeDescriptor(descriptor) }
    }
}
