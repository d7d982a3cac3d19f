import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a background session's transfers that ended with no caller still owe the app: each is written
/// here before it is reported, and removed once `finishedInBackground` returns, so one whose process was
/// killed in between (after the system delivered the file) is reported by the provider made at the next
/// launch.
///
/// It holds nothing secret, whatever the process has declared so far (a relaunch in the background may
/// not have made its groups yet): the endpoint's name redacted, the response's scheme, host and port
/// (no path: it may carry a token), a download's destination (relative to the home folder), the
/// status, the response's descriptive headers only (``keptHeaders``), and the failure's kind. An
/// upload's response body is not kept: a replayed report's body is empty. Each entry is one small JSON
/// file; at most ``entryLimit`` are read at a launch, each at most ``entrySizeLimit`` bytes, and one that
/// is not a regular file or cannot be read is removed unread.
struct BackgroundJournal: Sendable {
    /// The most entries read at one launch: 1,000.
    static let entryLimit = 1_000
    /// The largest entry read: 64 KiB.
    static let entrySizeLimit = 64 << 10

    let folder: URL
    /// Reads an entry's bytes (tests inject a failure); `Data(contentsOf:)` by default.
    let readData: @Sendable (URL) throws -> Data

    /// - Parameters:
    ///   - folder: Where the entries are.
    ///   - readData: Reads an entry's bytes; `Data(contentsOf:)` by default.
    init(folder: URL, readData: @escaping @Sendable (URL) throws -> Data = { try Data(contentsOf: $0) }) {
        self.folder = folder
        self.readData = readData
    }

    /// What reading an entry found.
    enum Read {
        /// The transfer it holds, and its staged file.
        case entry(BackgroundTransfer, BackgroundJournal.StagedPart?)
        /// It cannot be read now (a device locked under stronger data protection, `EPERM`/`EACCES`):
        /// kept for a later launch, never reported as a failure.
        case later
        /// Not an entry: removed.
        case unusable
    }

    /// The response headers an entry keeps, compared without case: none whose value a server chooses
    /// freely (an `ETag` may echo a token the relaunched process has not declared yet).
    static let keptHeaders: Set<String> = ["content-type", "content-length", "content-encoding", "date"]

    /// `url`'s scheme, host and port only: a path can carry a token (`/bot<TOKEN>/…`) that the
    /// relaunched process has not declared yet, so nothing that is ever secret is kept.
    static func bare(_ url: URL?) -> String? {
        guard let url, let scheme = url.scheme, let host = url.host else { return nil }
        var origin = URLComponents()
        (origin.scheme, origin.host, origin.port) = (scheme, host, url.port)
        return origin.string
    }

    /// The journal of the background session `identifier` in the app's Application Support folder, in
    /// a folder named by the app's bundle identifier (`<bundle id>/NetworkLayer/BackgroundTransfers/…`,
    /// so another app sharing the folder, as Mac apps may, never replays these reports), or `nil` when
    /// the system names no such folder.
    ///
    /// With `sharedContainer` (the configuration's `sharedContainerIdentifier`, Apple platforms), the
    /// journal is in that app group's container instead, named by the session's identifier only: a task
    /// an extension started reports to the app when the extension no longer runs, and the app then reads
    /// what the extension journaled.
    static func standard(
        for identifier: String, bundleIdentifier: String? = Bundle.main.bundleIdentifier,
        sharedContainer: String? = nil
    ) -> BackgroundJournal? {
        #if canImport(Darwin)
            if let sharedContainer,
                let group = FileManager.default.containerURL(
                    forSecurityApplicationGroupIdentifier: sharedContainer)
            {
                return BackgroundJournal(
                    folder: group.appendingPathComponent("Library/Application Support", isDirectory: true)
                        .appendingPathComponent("NetworkLayer/BackgroundTransfers", isDirectory: true)
                        .appendingPathComponent(folderName(for: identifier), isDirectory: true))
            }
        #endif
        guard
            let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)
                .first
        else { return nil }
        let owner = folderName(for: bundleIdentifier ?? ProcessInfo.processInfo.processName)
        return BackgroundJournal(
            folder: support.appendingPathComponent(owner, isDirectory: true)
                .appendingPathComponent("NetworkLayer/BackgroundTransfers", isDirectory: true)
                .appendingPathComponent(folderName(for: identifier), isDirectory: true))
    }

    /// A file name for `identifier`: its safe characters (at most 64) and a hash of the whole.
    static func folderName(for identifier: String) -> String {
        let safe = identifier.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "._-".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return String(safe) + "-" + FNVHash.hex(identifier)
    }

    /// Writes `transfer` as the entry `name` (best effort: a journal that cannot be written leaves the
    /// report as it was without one); `staged` when its file waits, staged beside its destination, for a
    /// caller to place it.
    func write(_ transfer: BackgroundTransfer, name: String, staged: StagedPart? = nil) {
        var entry = Entry(transfer)
        entry.staged = staged
        guard let data = try? JSONEncoder().encode(entry) else { return }
        if !FileManager.default.fileExists(atPath: folder.path) {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            excludeFromBackup()
        }
        try? data.write(to: folder.appendingPathComponent(name + ".json"), options: Self.writingOptions)
    }

    /// Atomic, and on Apple platforms readable from the first unlock on, whatever the app's default
    /// protection class: a relaunch while the device is locked reads its entries.
    #if canImport(Darwin)
        static let writingOptions: Data.WritingOptions = [
            .atomic, .completeFileProtectionUntilFirstUserAuthentication,
        ]
    #else
        static let writingOptions: Data.WritingOptions = [.atomic]
    #endif

    /// A restored backup must not replay reports of transfers that ran on another device.
    private func excludeFromBackup() {
        #if canImport(Darwin)
            var url = folder
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        #endif
    }

    /// Removes the entry `name`, and its mark of having been reported.
    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".json"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name + ".reported"))
    }

    /// What the entry `name` holds: its transfer and staged file, ``Read/later`` when it exists but
    /// cannot be read now, `nil` when there is none (or it is not an entry).
    func entry(_ name: String) -> Read? {
        let url = folder.appendingPathComponent(name + ".json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let found = read(url)
        if case .unusable = found { return nil }
        return found
    }

    /// Marks the entry `name` reported: its task's end, if the system delivers it after all, is not
    /// reported again.
    func markReported(_ name: String) {
        try? FileManager.default.moveItem(
            at: folder.appendingPathComponent(name + ".json"),
            to: folder.appendingPathComponent(name + ".reported"))
    }

    /// Whether the entry `name` was reported at a launch after the one that wrote it.
    func wasReported(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name + ".reported").path)
    }

    /// Removes the marks of reports older than `age` whose task's end never came.
    func removeReportedMarks(olderThan age: TimeInterval, now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasSuffix(".reported") {
            let url = folder.appendingPathComponent(name)
            let modified =
                (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
            if let modified, now.timeIntervalSince(modified) > age {
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    /// The entry name of `task`: its identifier, which the system keeps across launches, and a hash of
    /// its description, so a later task given the same identifier is another entry.
    static func name(of task: URLSessionTask) -> String {
        "task-\(task.taskIdentifier)-" + FNVHash.hex(task.taskDescription ?? "")
    }

    /// The transfers still owed, oldest name first, each with the entry name to remove once reported;
    /// entries that cannot be read are removed.
    func pending() -> [(name: String, transfer: BackgroundTransfer, staged: StagedPart?)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().prefix(Self.entryLimit).compactMap { file in
            let url = folder.appendingPathComponent(file)
            let name = String(file.dropLast(".json".count))
            switch read(url) {
            case .entry(let transfer, let staged): return (name, transfer, staged)
            // Kept for a launch that can read it.
            case .later: return nil
            case .unusable:
                try? FileManager.default.removeItem(at: url)
                return nil
            }
        }
    }

    /// The transfer an entry file holds: a regular file of at most ``entrySizeLimit`` bytes that decodes.
    private func read(_ url: URL) -> Read {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue, size <= Self.entrySizeLimit
        else { return .unusable }
        let data: Data
        do {
            data = try readData(url)
        } catch {
            return Self.isLater(error) ? .later : .unusable
        }
        guard data.count <= Self.entrySizeLimit,
            let entry = try? JSONDecoder().decode(Entry.self, from: data),
            let transfer = entry.transfer
        else { return .unusable }
        return .entry(transfer, entry.staged)
    }

    /// Whether a read failed for now only: no permission (`EPERM`, `EACCES`), as a file under Complete
    /// protection reads while the device is locked.
    static func isLater(_ error: any Error) -> Bool {
        if let error = error as? CocoaError, error.code == .fileReadNoPermission { return true }
        if let error = error as? POSIXError, [.EPERM, .EACCES].contains(error.code) { return true }
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying?.domain == NSPOSIXErrorDomain
            && [Int(EPERM), Int(EACCES)].contains(underlying?.code)
    }
}

extension BackgroundJournal {
    /// One transfer, as written.
    struct Entry: Codable {
        var endpoint: String
        /// A download's destination, as a note keeps it; `nil` for an upload.
        var destination: String?
        var status: Int?
        var url: String?
        var headers: [String: String]
        var failure: Failure?
        /// The file staged beside the destination for a caller that was still waiting.
        var staged: StagedPart?
        /// Where a download whose destination could not be reached was kept, as a note keeps paths.
        var unplaced: String?

        init(_ transfer: BackgroundTransfer) {
            endpoint = Redaction.redact(text: transfer.endpoint)
            if case .download(let destination) = transfer.kind {
                self.destination = BackgroundTasks.Note(endpoint: "", destination: destination).destination
            }
            status = transfer.response?.statusCode
            url = BackgroundJournal.bare(transfer.response?.url)
            headers = Redaction.redact(
                (transfer.response?.headerFields ?? [:]).filter {
                    BackgroundJournal.keptHeaders.contains($0.key.lowercased())
                })
            failure = transfer.error.map(Failure.init)
            unplaced =
                transfer.unplacedFile.flatMap {
                    BackgroundTasks.Note(endpoint: "", destination: $0).destination
                }
        }

        /// The transfer as reported: the same kind, status, headers and failure; an empty body.
        var transfer: BackgroundTransfer? {
            let kind: BackgroundTransfer.Kind
            if let destination {
                var note = BackgroundTasks.Note(endpoint: endpoint, destination: nil)
                note.destination = destination
                guard let url = note.destinationURL else { return nil }
                kind = .download(destination: url)
            } else {
                kind = .upload
            }
            let response = status.flatMap { status in
                HTTPURLResponse(
                    url: url.flatMap(URL.init(string:)) ?? URL(fileURLWithPath: "/"), statusCode: status,
                    httpVersion: "HTTP/1.1", headerFields: headers)
            }
            var kept = BackgroundTasks.Note(endpoint: "", destination: nil)
            kept.destination = unplaced
            return BackgroundTransfer(
                endpoint: endpoint, kind: kind, response: response, body: Data(),
                error: failure.map { $0.error(response: response) },
                unplacedFile: unplaced == nil ? nil : kept.destinationURL)
        }
    }

    /// A downloaded file staged beside its destination (``SessionWrittenFile``) for a caller that was still
    /// waiting: placed at the next launch if that caller's process was killed before it could.
    struct StagedPart: Codable, Equatable, Sendable {
        /// The staged file's name, in the destination's folder.
        var name: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        /// The launch that staged it (``BackgroundTasks/launch``): its own caller may still place it.
        var launch: String

        /// Whether `entry` (``FileCalls/entry(at:)``) is the file staged: the same device, inode and size.
        func isFile(_ entry: (identity: FileCalls.Identity, size: Int64)) -> Bool {
            entry.identity.device == device && entry.identity.inode == inode && entry.size == size
        }
    }

    /// A failure's kind and code: what a report at the next launch can say without keeping anything
    /// secret.
    enum Failure: Codable, Equatable {
        case status
        case transport(code: Int)
        case file(posixCode: Int32?)
        case other(description: String)

        init(_ error: NetworkError) {
            switch error {
            case .unacceptableStatus: self = .status
            case .transport(let failure): self = .transport(code: failure.code.rawValue)
            case .file(let failure): self = .file(posixCode: (failure as? POSIXError)?.code.rawValue)
            // A description is redacted as every error's is, by name and by the values declared so far.
            default: self = .other(description: error.description)
            }
        }

        func error(response: HTTPURLResponse?) -> NetworkError {
            switch self {
            case .status:
                return .unacceptableStatus(
                    .init(
                        statusCode: response?.statusCode ?? 0, headers: response?.headerFields ?? [:],
                        body: Data(), url: response?.url))
            case .transport(let code):
                // Failable on Linux, not on Apple platforms: typed optional either way, with no warning.
                let known: URLError.Code? = URLError.Code(rawValue: code)
                return .transport(URLError(known ?? .unknown))
            case .file(let code):
                return .file(
                    code.flatMap(POSIXErrorCode.init(rawValue:)).map { POSIXError($0) } ?? POSIXError(.EIO))
            case .other(let description): return .session(JournaledFailure(description: description))
            }
        }
    }

    /// A failure a journal kept only the description of.
    struct JournaledFailure: Error, CustomStringConvertible {
        let description: String
    }
}
