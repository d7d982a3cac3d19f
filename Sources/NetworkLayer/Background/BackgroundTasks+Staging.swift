import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background download whose caller still waits stages its file beside the destination as soon as
/// URLSession hands it over (``SessionWrittenFile``); the caller places it once its status check and
/// middlewares accept it. The system may suspend, and then kill, the app as soon as the session's events
/// are delivered, before that caller's task runs. So the staged file is journaled until it is placed or
/// refused, a later launch places (or removes) and reports each one still journaled, and the system's
/// handler is held until the waiting callers are done, for ``handlerHoldLimit`` at most.
extension BackgroundTasks {
    /// Files staged for callers still waiting, by journal entry name, and the handlers held for them,
    /// by hold (each hold's limit releases its own handlers only).
    struct Staging: Sendable {
        var waiting: Set<String> = []
        var held: [Int: [@Sendable () -> Void]] = [:]
        var nextHold = 0
    }

    /// The longest the system's handler is held for callers still placing their files: 5 seconds, well
    /// inside the roughly 30 seconds the system gives a background wake.
    static let handlerHoldLimit = Duration.seconds(5)

    /// A download's file was staged at `part` for a caller still waiting: journaled (as the entry `name`)
    /// until ``stagingEnded(_:)``.
    func staged(
        name: String, endpoint: String, destination: URL, part: URL, identity: FileCalls.Identity,
        size: Int64,
        head: HTTPURLResponse
    ) {
        staging.withLock { _ = $0.waiting.insert(name) }
        journal?.write(
            BackgroundTransfer(
                endpoint: endpoint, kind: .download(destination: destination), response: head, body: Data(),
                error: nil),
            name: name,
            staged: BackgroundJournal.StagedPart(
                name: part.lastPathComponent, device: identity.device, inode: identity.inode, size: size,
                launch: Self.launch))
    }

    /// The caller placed or refused the file staged as the entry `name`: the entry is removed, and the
    /// held handlers are called once no staged file waits.
    func stagingEnded(_ name: String) {
        journal?.remove(name)
        let handlers = staging.withLock { staging -> [@Sendable () -> Void] in
            staging.waiting.remove(name)
            guard staging.waiting.isEmpty else { return [] }
            defer { staging.held = [:] }
            return staging.held.sorted { $0.key < $1.key }.flatMap(\.value)
        }
        call(handlers)
    }

    /// Calls `handlers` now when no staged file waits for its caller; otherwise once none does, or after
    /// ``handlerHoldLimit``, whichever comes first.
    func hold(_ handlers: [@Sendable () -> Void]) {
        guard !handlers.isEmpty else { return }
        let hold = staging.withLock { staging -> Int? in
            guard !staging.waiting.isEmpty else { return nil }
            let hold = staging.nextHold
            staging.nextHold += 1
            staging.held[hold] = handlers
            return hold
        }
        guard let hold else {
            call(handlers)
            return
        }
        after(Self.handlerHoldLimit) { [self] in
            call(staging.withLock { $0.held.removeValue(forKey: hold) } ?? [])
        }
    }

    /// What a launch reports for a file an earlier one staged and never placed: the file moved into
    /// place when it is still the file staged (the transport had accepted it, whole, before staging);
    /// success when the file at the destination is the one staged (placed, and the process killed before
    /// the entry went); or ``NetworkError/file(_:)`` (`ENOENT`) when it is gone or another file is in its
    /// place, which is left alone.
    func settle(_ transfer: BackgroundTransfer, staged: BackgroundJournal.StagedPart) -> BackgroundTransfer {
        guard case .download(let destination) = transfer.kind, !staged.name.contains("/") else {
            return transfer
        }
        let part = destination.deletingLastPathComponent().appendingPathComponent(staged.name)
        if let entry = FileCalls.entry(at: part), staged.isFile(entry) {
            do {
                try Self.whileKeptAwake { try FileCalls.replace(destination, with: part) }
                return transfer
            } catch {
                FileCalls.remove(part, ifStill: entry.identity)
                return failed(transfer, error as? NetworkError ?? .file(error))
            }
        }
        // Placed already (a rename keeps the file's inode): the process was killed after placing it,
        // before the entry was removed.
        if let placed = FileCalls.entry(at: destination), staged.isFile(placed) { return transfer }
        return failed(transfer, .file(POSIXError(.ENOENT)))
    }

    /// Why `destination`'s folder cannot take a file from this process: it is gone (`ENOENT`), or not
    /// writable (`EACCES`: a security-scoped folder, a sandboxed Mac app's Downloads); `nil` when it can.
    static func unreachableFolder(of destination: URL) -> POSIXError? {
        let folder = destination.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
        else {
            return POSIXError(.ENOENT)
        }
        return FileManager.default.isWritableFile(atPath: folder) ? nil : POSIXError(.EACCES)
    }

    /// Keeps a finished download's file whose destination cannot be reached in the app's container
    /// (beside the journal, in `Unplaced/`, or the temporary folder without one), under a unique name
    /// ending in `name`; `nil` when it cannot be kept either.
    func keepUnplaced(_ location: URL, named name: String) -> URL? {
        let folder =
            journal.map {
                $0.folder.deletingLastPathComponent().appendingPathComponent("Unplaced", isDirectory: true)
            }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent(
                "NetworkLayer-Unplaced", isDirectory: true)
        let kept = folder.appendingPathComponent(UUID().uuidString + "-" + name)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: location, to: kept)
            return kept
        } catch {
            try? FileManager.default.removeItem(at: location)
            return nil
        }
    }

    private func failed(_ transfer: BackgroundTransfer, _ error: NetworkError) -> BackgroundTransfer {
        BackgroundTransfer(
            endpoint: transfer.endpoint, kind: transfer.kind, response: transfer.response, body: Data(),
            error: error)
    }

    /// Runs `body` while the system is asked not to suspend the process (Apple platforms: an expiring
    /// activity, which app extensions may hold too); as it is elsewhere.
    static func whileKeptAwake<Value>(_ body: () throws -> Value) rethrows -> Value {
        #if canImport(Darwin)
            let done = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: "Placing a downloaded file") {
                expired in
                // The activity lasts while this block waits: until `body` is done, or the system ends it.
                if !expired { _ = done.wait(timeout: .now() + 25) }
            }
            defer { done.signal() }
        #endif
        return try body()
    }
}
