import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The file of one download that URLSession writes itself with download tasks, shared by its attempts:
/// the resume data a failed attempt left, the validator of the answer it continues, and the file a
/// finished task handed over.
///
/// URLSession deletes a finished task's file once the delegate returns, so the delegate renames it at
/// once, in its own folder (a rename, however large the file). Only the caller's task then moves it
/// beside the destination (a copy when that is on another volume) and into place, so the delegate queue
/// every request of the provider shares never waits for a copy. On a background session the delegate
/// stages it beside the destination itself (``stagesAtOnce``): the system may suspend the app as soon as
/// the session's events are delivered, before the caller's task runs, and a file left in URLSession's
/// folder would be lost if the app were then terminated. Staged, it replaces the destination only once
/// the caller's status check and middlewares accepted the answer; a rejected one is removed, and the
/// file at the destination stays.
final class SessionWrittenFile: Sendable {
    private struct State: Sendable {
        var resumeData: Data?
        /// The strong validator of the answer whose bytes the resume data continues.
        var validator: String?
        /// A resumed answer was of another version: the next attempt starts over.
        var restartsFromScratch = false
        /// The file a finished task handed over, renamed in its own folder, by device and inode.
        var kept: (url: URL, identity: FileCalls.Identity, size: Int64)?
        /// The download is over without a file: a file handed over now is removed.
        var isDiscarded = false
        /// The file staged beside the destination at once (``partURL``), by device and inode, and its size.
        var staged: (identity: FileCalls.Identity, size: Int64)?
        /// The journal entry the staged file is written under until it is placed or refused.
        var journaled: String?
    }

    /// Where a background download's staged file is journaled until its caller places or refuses it.
    struct Ledger: Sendable {
        let background: BackgroundTasks
        let endpoint: String
    }

    /// A hidden file beside the destination, unique to this download, moved into place at the end.
    let partURL: URL
    private let destination: URL
    /// Whether a file handed over is staged beside the destination at once, on the delegate's queue.
    private let stagesAtOnce: Bool
    private let ledger: Ledger?
    private let state = Locked(State())

    /// - Parameters:
    ///   - stagesAtOnce: Whether a file handed over is staged beside the destination at once.
    ///   - ledger: Where a staged file is journaled until placed or refused (a background session's).
    init(destination: URL, stagesAtOnce: Bool = false, ledger: Ledger? = nil) {
        partURL = FileCalls.partURL(beside: destination)
        self.destination = destination
        self.stagesAtOnce = stagesAtOnce
        self.ledger = ledger
    }

    /// The strong validator of the answer the resume data continues, if any.
    var validator: String? { state.withLock { $0.validator } }

    /// The key of a failed download task's resume data in its error's `userInfo`, on every platform.
    static let resumeDataKey = "NSURLSessionDownloadTaskResumeData"

    /// Whether a failed attempt left resume data for the next.
    var canResume: Bool { state.withLock { $0.resumeData != nil } }

    /// Takes the resume data a failed attempt left: the next task asks only for the missing bytes.
    func takeResumeData() -> Data? {
        state.withLock { state in
            defer { state.resumeData = nil }
            return state.resumeData
        }
    }

    /// Makes the next attempt go on from `resumeData`, whose answer carried `validator`.
    func seed(resumeData: Data, validator: String?) {
        state.withLock { ($0.resumeData, $0.validator) = (resumeData, validator) }
    }

    /// Keeps the resume data URLSession put in a failed task's `error`, if any, and returns the error
    /// without it: resume data holds the request, credential headers included, and must not travel on
    /// in an error that is logged or reported.
    func keepResumeData(of error: any Error) -> any Error {
        guard let failure = error as? URLError, let data = failure.userInfo[Self.resumeDataKey] as? Data
        else { return error }
        state.withLock { $0.resumeData = data }
        return Self.withoutResumeData(failure)
    }

    /// `error` without the resume data URLSession may have put in it.
    static func withoutResumeData(_ error: any Error) -> any Error {
        guard let failure = error as? URLError, failure.userInfo[resumeDataKey] != nil else { return error }
        return URLError(failure.code, userInfo: failure.userInfo.filter { $0.key != resumeDataKey })
    }

    /// Whether the last attempt got bytes of another version, so the next starts over; asking clears it.
    func takeRestart() -> Bool {
        state.withLock { state in
            defer { state.restartsFromScratch = false }
            return state.restartsFromScratch
        }
    }

    /// Checks an accepted answer. A `206` is accepted only as the rest of the file: to a resume, with the
    /// strong validator of the answer it continues (a server that honours `Range` but ignores `If-Range`
    /// would otherwise add another version's bytes to the file; the next attempt starts over); to a
    /// request that asked for no range, only when its `Content-Range` covers the whole body.
    func check(_ head: HTTPURLResponse, resumed: Bool) throws {
        let headers = head.headerFields
        let validator = RangeRules.strongValidator(in: headers)
        try state.withLock { state in
            guard head.statusCode == 206 else {
                state.validator = validator
                return
            }
            guard resumed else {
                guard RangeRules.verdict(on: headers, asked: .nothing) == .startsFile
                else { throw NetworkError.transport(URLError(.cannotParseResponse)) }
                state.validator = validator
                return
            }
            guard
                RangeRules.verdict(on: headers, asked: .resumeData(validator: state.validator))
                    == .continuesFile
            else {
                state.validator = nil
                state.resumeData = nil
                state.restartsFromScratch = true
                throw NetworkError.transport(URLError(.cannotParseResponse))
            }
        }
    }

    /// Keeps a finished task's file: renamed in its own folder, which URLSession leaves alone.
    /// - Parameters:
    ///   - head: The answer the file is the body of, journaled with a file staged at once.
    ///   - journalName: The task's journal entry name (``BackgroundJournal/name(of:)``).
    func adopt(_ location: URL, head: HTTPURLResponse? = nil, journalName: String? = nil) throws {
        removeKept()
        let renamed = location.deletingLastPathComponent().appendingPathComponent(
            ".networklayer-\(UUID().uuidString).download")
        // FoundationNetworking leaves a file it handed over where it is: one not kept is removed.
        guard !state.withLock({ $0.isDiscarded }) else {
            try? FileManager.default.removeItem(at: location)
            return
        }
        do {
            try FileManager.default.moveItem(at: location, to: renamed)
        } catch {
            try? FileManager.default.removeItem(at: location)
            throw NetworkError.file(error)
        }
        guard let (identity, size) = FileCalls.entry(at: renamed) else {
            try? FileManager.default.removeItem(at: renamed)
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        // A download given up while the file was renamed (cancelled as its task finished) keeps nothing.
        let kept = state.withLock { state in
            guard !state.isDiscarded else { return false }
            state.kept = (renamed, identity, size)
            return true
        }
        if !kept {
            FileCalls.remove(renamed, ifStill: identity)
            return
        }
        if stagesAtOnce { try stage(head: head, journalName: journalName) }
    }

    /// Moves the kept file beside the destination (copied when that is on another volume): the staged
    /// file a later ``move(to:)`` puts in place.
    private func stage(head: HTTPURLResponse? = nil, journalName: String? = nil) throws {
        let kept = state.withLock { state in
            defer { state.kept = nil }
            return state.kept
        }
        guard let kept, FileCalls.isStill(kept.url, kept.identity) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        do {
            try FileManager.default.moveItem(at: kept.url, to: partURL)
        } catch {
            // A copy that failed part way (a full disk) leaves neither file behind.
            try? FileManager.default.removeItem(at: partURL)
            FileCalls.remove(kept.url, ifStill: kept.identity)
            throw error as? NetworkError ?? NetworkError.file(error)
        }
        guard let (identity, size) = FileCalls.entry(at: partURL) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        // Journaled before the file is the caller's: a process killed before its caller places the
        // file leaves it to the next launch, not hidden for good, and a caller that gives up meanwhile
        // finds the entry to remove.
        var journal: (ledger: Ledger, name: String)?
        if let ledger, let head, let journalName {
            ledger.background.staged(
                name: journalName, endpoint: ledger.endpoint, destination: destination, part: partURL,
                identity: identity, size: size, head: head)
            journal = (ledger, journalName)
        }
        // A download given up while the file was staged keeps nothing.
        let keeps = state.withLock { state in
            guard !state.isDiscarded else { return false }
            state.staged = (identity, size)
            state.journaled = journal?.name
            return true
        }
        if !keeps {
            FileCalls.remove(partURL, ifStill: identity)
            if let journal { journal.ledger.background.stagingEnded(journal.name) }
        }
    }

    /// The staged file is placed or refused: its journal entry goes.
    private func endJournal() {
        let name = state.withLock { state in
            defer { state.journaled = nil }
            return state.journaled
        }
        if let name { ledger?.background.stagingEnded(name) }
    }

    /// Puts the staged file (staging the kept one first) in the destination's place in one step,
    /// replacing what is there. Returns its size.
    func move(to destination: URL) throws -> Int64 {
        defer { endJournal() }
        if state.withLock({ $0.staged == nil }) { try stage() }
        let staged = state.withLock { state in
            defer { state.staged = nil }
            return state.staged
        }
        guard let staged, FileCalls.isStill(partURL, staged.identity) else {
            throw NetworkError.file(POSIXError(.ENOENT))
        }
        do {
            try BackgroundTasks.whileKeptAwake { try FileCalls.replace(destination, with: partURL) }
        } catch {
            FileCalls.remove(partURL, ifStill: staged.identity)
            throw error as? NetworkError ?? NetworkError.file(error)
        }
        return staged.size
    }

    /// Ends the download without a file: removes the kept or staged file, and any a finishing task hands
    /// over later. The file at the destination stays.
    func discard() {
        let staged = state.withLock { state in
            defer { (state.isDiscarded, state.staged) = (true, nil) }
            return state.staged
        }
        if let staged { FileCalls.remove(partURL, ifStill: staged.identity) }
        removeKept()
        endJournal()
    }

    /// Removes the kept file, if it is still the one a task handed over.
    private func removeKept() {
        let kept = state.withLock { state in
            defer { state.kept = nil }
            return state.kept
        }
        if let kept { FileCalls.remove(kept.url, ifStill: kept.identity) }
    }
}
