import Foundation
import Testing

@testable import CacheKit

/// The `errno` a ``CacheError`` names for a Foundation file error is a real `errno`, never a Cocoa code.
@Suite("File error codes")
struct FileErrorCodeTests {
    @Test func aCocoaWriteErrorWithNoUnderlyingCauseIsAnInputOutputError() {
        // Given Foundation's "unknown write error" (Cocoa code 512), which is not an errno
        let error = NSError(domain: NSCocoaErrorDomain, code: CocoaError.Code.fileWriteUnknown.rawValue)
        // When / Then
        #expect(DiskStorage<Data>.code(of: error) == EIO)
    }

    @Test(arguments: [
        (CocoaError.Code.fileWriteVolumeReadOnly, EROFS), (.fileWriteNoPermission, EACCES),
        (.fileWriteOutOfSpace, ENOSPC), (.fileNoSuchFile, ENOENT),
    ])
    func aCocoaFileErrorIsTheErrnoItStandsFor(code: CocoaError.Code, errno: Int32) {
        #expect(DiskStorage<Data>.code(of: NSError(domain: NSCocoaErrorDomain, code: code.rawValue)) == errno)
    }

    @Test func anUnderlyingPOSIXErrorWinsOverTheCocoaCode() {
        // Given a Cocoa error wrapping the system call's EACCES
        let posix = NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES))
        let error = NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.Code.fileWriteUnknown.rawValue,
            userInfo: [NSUnderlyingErrorKey: posix])
        // When / Then
        #expect(DiskStorage<Data>.code(of: error) == EACCES)
    }

    @Test func openingAFolderUnderAFileNamesARealErrno() throws {
        // Given a file where the cache's parent folder should be
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "errno-\(UUID().uuidString)")
        try Data("a file".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        // When the cache is opened below it
        let thrown = #expect(throws: CacheError.self) {
            _ = try DiskStorage<Data>(configuration: .init(directory: folder.appendingPathComponent("cache")))
        }
        // Then the reason is an errno a person can look up (ENOTDIR, EEXIST or EIO), not Cocoa's 512 or 640
        guard case .fileSystem(let code, _) = thrown?.reason else {
            Issue.record("expected a file system reason, got \(String(describing: thrown))")
            return
        }
        #expect(code < 200, "errno \(code)")
    }
}
