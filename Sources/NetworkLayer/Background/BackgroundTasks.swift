import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background session's tasks that end with no caller waiting (started before the app was terminated),
/// and the system's handler waiting for the session's events to be delivered.
///
/// Each task the provider starts on a background session carries a ``Note`` in its `taskDescription`,
/// which URLSession keeps with the task across launches: what a later process needs to finish it. A
/// download's file is checked (a `2xx` status) and moved to its destination before URLSession deletes
/// it; an upload's answer is kept (its first MiB). Each is then reported once, on the session's queue.
final class BackgroundTasks: Sendable {
    /// What an orphaned task has given so far.
    private struct Orphan: Sendable {
        var response: HTTPURLResponse?
        var body = RefusedBody()
        var failure: NetworkError?
        var moved = false
        /// Where the file was kept when its destination could not be reached.
        var unplaced: URL?
    }

    private struct Events: Sendable {
        var handlers: [@Sendable () -> Void] = []
        /// When a batch last finished with no handler waiting, on the wall clock (which, unlike uptime,
        /// goes on while the device sleeps); `nil` once a handler took it.
        var finishedWithoutHandlerAt: Date?
    }

    /// How long a batch that finished before its handler came waits for that handler: 10 seconds. A
    /// handler coming later belongs to a later wake, and is held for that wake's events.
    static let lateHandlerWindow = Duration.seconds(10)

    /// The session's identifier.
    let identifier: String
    private let orphans = Locked<[Int: Orphan]>([:])
    private let events = Locked(Events())
    private let report: Locked<@Sendable (BackgroundTransfer) -> Void>
    let handlerQueue: DispatchQueue
    /// The session's delegate queue, where a handler that comes after the events waits for any that
    /// are still queued.
    private let delegateQueue = Locked<OperationQueue?>(nil)

    /// Where orphaned tasks' reports wait until they are made (``BackgroundJournal``); none by default.
    let journal: BackgroundJournal?
    /// Files staged for callers still waiting, and the system's handlers held until they are placed.
    let staging = Locked(Staging())
    /// Runs a closure after a delay: how long the system's handler is held at most
    /// (``handlerHoldLimit``). Tests pass their own.
    let after: @Sendable (Duration, @escaping @Sendable () -> Void) -> Void
    /// This launch, told apart from earlier ones in the journal's staged entries.
    static let launch = UUID().uuidString

    /// The wall clock: when a batch finished without a handler. Tests pass their own.
    let now: @Sendable () -> Date

    /// - Parameters:
    ///   - identifier: The session's identifier.
    ///   - report: Called once per orphaned task that carries a ``Note``.
    ///   - handlerQueue: Where the system's events handler is called: the main queue, as UIKit asks.
    ///   - journal: Where reports wait until they are made, so a process killed before one reports it
    ///     at the next launch; none by default.
    ///   - after: Runs a closure after a delay; `DispatchQueue.global().asyncAfter` by default.
    init(
        identifier: String, report: @escaping @Sendable (BackgroundTransfer) -> Void,
        handlerQueue: DispatchQueue = .main, journal: BackgroundJournal? = nil,
        after: @escaping @Sendable (Duration, @escaping @Sendable () -> Void) -> Void = { delay, work in
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.timeInterval, execute: work)
        },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.now = now
        self.identifier = identifier
        self.report = Locked(report)
        self.handlerQueue = handlerQueue
        self.journal = journal
        self.after = after
    }

    /// The session's delegate queue, once the session exists: the reports a process killed before making
    /// them left in the journal are made there first.
    func deliversEvents(on queue: OperationQueue) {
        delegateQueue.withLock { $0 = queue }
        if journal != nil { queue.addOperation { [self] in reportJournaled() } }
    }

    /// Reports each transfer the journal still owes, then marks it reported: the system may yet deliver
    /// its task's end, which is then not reported again. A file an earlier launch staged for a caller
    /// that never placed it (its process was killed) is placed or removed first.
    private func reportJournaled() {
        guard let journal else { return }
        journal.removeReportedMarks(olderThan: 7 * 86_400)
        for (name, transfer, staged) in journal.pending() where staged?.launch != Self.launch {
            report.withLock { $0 }(staged.map { settle(transfer, staged: $0) } ?? transfer)
            journal.markReported(name)
        }
    }

    /// Where orphaned tasks report now.
    var currentReport: @Sendable (BackgroundTransfer) -> Void { report.withLock { $0 } }

    /// Orphaned tasks report to `report` from now on: the newest provider on the session hears of them.
    func reportTo(_ report: @escaping @Sendable (BackgroundTransfer) -> Void) {
        self.report.withLock { $0 = report }
    }

    // MARK: - Orphaned tasks

    /// An orphaned data or upload task's head. Returns whether its body is wanted.
    func received(_ response: URLResponse, for task: URLSessionTask) -> Bool {
        guard Note(decoding: task.taskDescription) != nil else { return false }
        orphans.withLock {
            $0[task.taskIdentifier, default: Orphan()].response = response as? HTTPURLResponse
        }
        return true
    }

    /// An orphaned upload's answer: its first MiB is kept (none for a task without a note).
    func received(_ data: Data, for task: URLSessionTask) {
        guard Note(decoding: task.taskDescription) != nil else { return }
        orphans.withLock { _ = $0[task.taskIdentifier, default: Orphan()].body.append(data) }
    }

    /// Whether an orphaned task has begun to hand over what it received (a download's file).
    func isFinishing(_ task: URLSessionTask) -> Bool {
        orphans.withLock { $0[task.taskIdentifier] != nil }
    }

    /// An orphaned download's file, which URLSession deletes once this returns: moved to the note's
    /// destination when the status is `2xx`, removed otherwise.
    func finished(_ task: URLSessionDownloadTask, at location: URL) {
        let head = task.response as? HTTPURLResponse
        var orphan = Orphan(response: head)
        let note = Note(decoding: task.taskDescription)
        if let note, let destination = note.destinationURL, let head, (200..<300).contains(head.statusCode),
            Self.isWhole(head, resuming: note.validator)
        {
            if let unreachable = Self.unreachableFolder(of: destination) {
                // A folder this process cannot write to (gone, out of its sandbox): the file is kept in
                // the app's container and reported there, not deleted.
                orphan.unplaced = keepUnplaced(location, named: destination.lastPathComponent)
                orphan.failure = .file(unreachable)
            } else {
                let file = SessionWrittenFile(destination: destination)
                do {
                    try file.adopt(location)
                    _ = try file.move(to: destination)
                    orphan.moved = true
                } catch {
                    orphan.failure = error as? NetworkError ?? .file(error)
                }
            }
        } else {
            try? FileManager.default.removeItem(at: location)
            // A `2xx` that is part of a file, or another version's bytes after a resume.
            if let head, (200..<300).contains(head.statusCode) {
                orphan.failure = .transport(URLError(.cannotParseResponse))
            }
        }
        // The file is where it goes (or gone): the report is owed from now on, even if the process is
        // killed before the task's end is delivered.
        if let journal, let note, let destination = note.destinationURL {
            let name = BackgroundJournal.name(of: task)
            journal.write(
                BackgroundTransfer(
                    endpoint: note.endpoint, kind: .download(destination: destination), response: head,
                    body: Data(),
                    error: Self.failure(
                        of: orphan, response: head, kind: .download(destination: destination), error: nil),
                    unplacedFile: orphan.unplaced),
                name: name)
        }
        orphans.withLock { $0[task.taskIdentifier] = orphan }
    }

    /// Whether a download's answer is a whole file: anything but a `206`; a `206` to a resume only with
    /// the strong validator of the bytes it continues (URLSession joins them), and otherwise only when
    /// its `Content-Range` covers the whole body.
    static func isWhole(_ head: HTTPURLResponse, resuming validator: String?) -> Bool {
        guard head.statusCode == 206 else { return true }
        let asked: RangeRules.Asked = validator.map { .resumeData(validator: $0) } ?? .nothing
        return RangeRules.verdict(on: head.headerFields, asked: asked) != .refused
    }

    /// An orphaned task ended: reported, when it carries a note. A temporary upload body the note
    /// names is removed.
    func completed(_ task: URLSessionTask, error: (any Error)?) {
        let known = orphans.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        guard let note = Note(decoding: task.taskDescription) else { return }
        let name = BackgroundJournal.name(of: task)
        // A task whose file an earlier process put in place (and journaled) before it was killed: its
        // end is the journal's outcome, reported now, or already at this launch.
        if known == nil, let journal {
            switch journal.entry(name) {
            case .entry(let owed, let staged):
                report.withLock { $0 }(staged.map { settle(owed, staged: $0) } ?? owed)
                journal.remove(name)
                return
            case .later:
                // What an earlier process owes cannot be read now (a locked device): a launch that can
                // reports it, rather than this one reporting a file it cannot see as missing.
                return
            case .unusable, nil:
                break
            }
            if journal.wasReported(name) {
                journal.remove(name)
                return
            }
        }
        let orphan = known ?? Orphan()
        if let temporary = note.temporaryBodyURL { try? FileManager.default.removeItem(at: temporary) }
        let response = orphan.response ?? task.response as? HTTPURLResponse
        // The kind is the task's: a download task whose note names no destination is not one to report.
        let kind: BackgroundTransfer.Kind
        switch (task is URLSessionDownloadTask, note.destinationURL) {
        case (true, let destination?): kind = .download(destination: destination)
        case (false, _): kind = .upload
        case (true, nil): return
        }
        let failure = error as? URLError
        let transfer = BackgroundTransfer(
            endpoint: note.endpoint, kind: kind, response: response,
            body: kind == .upload ? orphan.body.bytes : Data(),
            error: Self.failure(of: orphan, response: response, kind: kind, error: error),
            cancellationReason: (failure?.userInfo[Self.cancelledReasonKey] as? Int).map(
                BackgroundTransfer.CancellationReason.init),
            resumeData: failure?.userInfo[SessionWrittenFile.resumeDataKey] as? Data,
            unplacedFile: orphan.unplaced)
        // Written before the report and removed after it: a process killed in between reports it at the
        // next launch.
        journal?.write(transfer, name: name)
        report.withLock { $0 }(transfer)
        journal?.remove(name)
    }

    /// The key of a background task's cancellation reason in its error's `userInfo`, on every platform
    /// (`NSURLErrorBackgroundTaskCancelledReasonKey`).
    static let cancelledReasonKey = "NSURLErrorBackgroundTaskCancelledReasonKey"

    /// Why an orphaned task failed, or `nil` when it did not.
    private static func failure(
        of orphan: Orphan, response: HTTPURLResponse?, kind: BackgroundTransfer.Kind, error: (any Error)?
    ) -> NetworkError? {
        if orphan.moved { return nil }
        if let error { return networkError(SessionWrittenFile.withoutResumeData(error)) }
        if let failure = orphan.failure { return failure }
        guard let response else { return .transport(URLError(.badServerResponse)) }
        guard (200..<300).contains(response.statusCode) else {
            return .unacceptableStatus(
                .init(
                    statusCode: response.statusCode, headers: response.headerFields, body: orphan.body.bytes,
                    url: response.url))
        }
        // A download that reported no file.
        if case .download = kind { return .file(POSIXError(.ENOENT)) }
        return nil
    }

    private static func networkError(_ error: any Error) -> NetworkError {
        switch error {
        case let error as NetworkError: error
        case let error as URLError: .transport(error)
        case let error as POSIXError: .file(error)
        case let error as CocoaError where error.isFileError: .file(error)
        default: .session(error)
        }
    }

    // MARK: - The system's handler

    /// Keeps a handler the system gave the app for this session's events, and calls it once they have
    /// all been delivered; when they were before it came, once the events still queued are delivered,
    /// whatever tasks ended meanwhile (the batch it was given for may be the one already delivered, and
    /// a handler waiting for a batch that never comes would never be called).
    func handleEvents(_ handler: @escaping @Sendable () -> Void) {
        let time = now()
        let late = events.withLock { events -> Bool in
            // A mark older than ``lateHandlerWindow`` was a batch of an earlier wake: this handler waits
            // for the events of its own.
            defer { events.finishedWithoutHandlerAt = nil }
            if let finished = events.finishedWithoutHandlerAt,
                time.timeIntervalSince(finished) <= Self.lateHandlerWindow.timeInterval
            {
                return true
            }
            events.handlers.append(handler)
            return false
        }
        guard late else { return }
        // Events of a later batch may already be queued: they are delivered first. A file staged for a
        // caller still waiting holds it as it holds a handler that came in time.
        if let queue = delegateQueue.withLock({ $0 }) {
            queue.addOperation { [self] in hold([handler]) }
        } else {
            hold([handler])
        }
    }

    /// How many handlers wait for the session's events (for tests).
    var waitingHandlers: Int { events.withLock { $0.handlers.count } }

    /// URLSession delivered every event the system held for the session: every handler kept is called,
    /// once the files staged for callers still waiting are placed or refused, or after
    /// ``handlerHoldLimit`` at the latest (``hold(_:)``).
    func eventsFinished() {
        let time = now()
        let handlers = events.withLock { events -> [@Sendable () -> Void] in
            defer { events.handlers = [] }
            events.finishedWithoutHandlerAt = events.handlers.isEmpty ? time : nil
            return events.handlers
        }
        hold(handlers)
    }

    /// Calls `handlers` on the handler queue.
    func call(_ handlers: [@Sendable () -> Void]) {
        for handler in handlers { handlerQueue.async(execute: handler) }
    }
}
