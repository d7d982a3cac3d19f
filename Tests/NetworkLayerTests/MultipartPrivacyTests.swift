import Foundation
import NetworkLayer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A multipart form's file holds its fields (a password) and sits in a shared temporary folder: it is
/// private from the moment it exists, not made private after.
@Suite("MultipartFormData: a private file from its first moment")
struct MultipartPrivacyTests {
    /// Watches `path` from a thread of its own, calling `stat` as fast as it can, and collects every
    /// permission mode seen until stopped.
    final class ModeWatcher: @unchecked Sendable {
        // @unchecked Sendable: `running` and `seen` are only touched while holding `lock`; `path` is a let.
        private let lock = NSLock()
        private var running = true
        private var seen: Set<mode_t> = []
        private let path: String
        private let done = DispatchSemaphore(value: 0)

        init(path: String) {
            self.path = path
            Thread.detachNewThread { [self] in
                var found: Set<mode_t> = []
                var info = stat()
                while isRunning {
                    if stat(path, &info) == 0 { found.insert(info.st_mode & 0o777) }
                }
                lock.lock()
                seen = found
                lock.unlock()
                done.signal()
            }
        }

        private var isRunning: Bool {
            lock.lock()
            defer { lock.unlock() }
            return running
        }

        /// Stops watching and returns every mode seen.
        func stop() -> Set<mode_t> {
            lock.lock()
            running = false
            lock.unlock()
            done.wait()
            lock.lock()
            defer { lock.unlock() }
            return seen
        }
    }

    @Test func theFormsFileIsNeverReadableByOthersWhileItIsMade() throws {
        // Given a form with a password field, written again and again to one path another thread watches
        let folder = try TemporaryFolder.create("multipart-private")
        let url = folder.url.appendingPathComponent("form.body")
        var form = MultipartFormData()
        form.append("hunter2-password", name: "password")
        let watcher = ModeWatcher(path: url.path)
        // When it is written 150 times
        let written = Result {
            for _ in 0..<150 {
                try form.write(to: url)
                try FileManager.default.removeItem(at: url)
            }
        }
        // Then the watcher saw it (so the check ran), and only ever with the owner's permissions
        let modes = watcher.stop()
        try written.get()
        #expect(!modes.isEmpty)
        #expect(modes == [0o600], "modes seen: \(modes.map { String($0, radix: 8) })")
    }
}
