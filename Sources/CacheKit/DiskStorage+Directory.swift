import Foundation

extension DiskStorage {
    /// The folder a storage uses when its configuration names none:
    /// `<caches>/<app>/CacheKit/<name>`, where `<caches>` is the platform caches directory
    /// (`~/Library/Caches` on Apple platforms, `$XDG_CACHE_HOME` or `~/.cache` on Linux) and `<app>` is the
    /// main bundle's identifier or, without one (a command-line tool, a server), the process's name; each
    /// part is kept as it is when made of letters, digits, `.`, `-` and `_`, and otherwise made safe and
    /// suffixed with a hash of it (see ``pathComponent(_:fallback:)``).
    ///
    /// So two apps, or an app and its extensions, that each open `Cache(name: "posters")` get folders of
    /// their own, as the one-process-per-folder rule asks; two running copies of one program still share.
    /// - Parameters:
    ///   - name: The cache's name.
    ///   - bundleIdentifier: The app's identifier; the main bundle's by default.
    ///   - processName: Used without an identifier; this process's name by default.
    /// - Returns: The folder.
    static func defaultDirectory(
        named name: String,
        bundleIdentifier: String? = Bundle.main.bundleIdentifier,
        processName: String = ProcessInfo.processInfo.processName
    ) -> URL {
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        let owner = pathComponent(bundleIdentifier ?? processName, fallback: "app")
        return caches.appendingPathComponent(owner, isDirectory: true)
            .appendingPathComponent("CacheKit", isDirectory: true)
            .appendingPathComponent(pathComponent(name, fallback: "CacheKit"), isDirectory: true)
    }

    /// `text` as one path component that stays inside the caches directory and is its own: a name of
    /// letters, digits, `.`, `-` and `_` (at most 100 characters, not `.` or `..`) is kept as it is; any
    /// other gets those characters (others become `_`) followed by `-` and 16 hex digits of a hash of the
    /// whole name, so `포스터` and `썸네일` get folders of their own. An empty name is `fallback`.
    static func pathComponent(_ text: String, fallback: String) -> String {
        guard !text.isEmpty else { return fallback }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        if text.count <= 100, text != ".", text != "..", text.allSatisfy(allowed.contains) { return text }
        let readable = String(text.prefix(100).map { allowed.contains($0) ? $0 : "_" })
        return readable + "-" + StableHash.hex(text).prefix(16)
    }

    /// Creates `directory` (and its parents) if it is missing, and gives it the configured file
    /// protection, which the entry files created in it inherit on iOS, tvOS, watchOS and visionOS.
    static func prepare(_ directory: URL, protection: FileProtectionType?) throws(CacheError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
                if let protection {
                    try FileManager.default.setAttributes(
                        [.protectionKey: protection], ofItemAtPath: directory.path)
                }
            #endif
        } catch {
            throw CacheError(
                operation: .open, key: nil, path: directory.path,
                reason: .fileSystem(code: code(of: error), message: "\(error.localizedDescription)"))
        }
    }

    /// Creates the temporary file of a store; when the storage's folder was deleted while the app runs
    /// (a user clearing caches, a cleanup tool), creates the folder again and retries once, so stores
    /// work again at once instead of failing until the next launch.
    func createTemporaryFile(_ temporary: String, containing file: Data) throws(POSIXFile.Failure) -> Int32 {
        do {
            return try POSIXFile.createFile(temporary, containing: file)
        } catch  where error.code == ENOENT {
            guard (try? Self.prepare(directoryURL, protection: configuration.fileProtection)) != nil else {
                throw error
            }
            return try POSIXFile.createFile(temporary, containing: file)
        }
    }

    /// The `errno` behind a Foundation file error: its own code in the POSIX domain, its underlying
    /// POSIX error's, or the `errno` a Cocoa file error stands for (`EIO` when none does); never a Cocoa
    /// code such as 512 shown as if it were an `errno`.
    static func code(of error: any Error) -> Int32 {
        let error = error as NSError
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        if let posix = [error, underlying].compactMap({ $0 }).first(where: { $0.domain == NSPOSIXErrorDomain }
        ) {
            return Int32(truncatingIfNeeded: posix.code)
        }
        guard error.domain == NSCocoaErrorDomain else { return EIO }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteFileExists: return EEXIST
        case .fileReadTooLarge: return EFBIG
        case .fileWriteInvalidFileName, .fileReadInvalidFileName: return EINVAL
        default: return EIO
        }
    }
}
