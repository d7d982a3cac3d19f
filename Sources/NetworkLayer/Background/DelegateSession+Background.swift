import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A background session: one per identifier for the process.
extension DelegateSession {
    /// The background sessions of this process, by identifier. URLSession allows one session per
    /// identifier, and one invalidated while its tasks run cannot be made again until they end: each is
    /// made once and kept, and a provider made again with its identifier shares it.
    fileprivate static let backgroundSessions = Locked<[String: DelegateSession]>([:])

    /// The process's session for `background`'s identifier: made from `configuration` the first time,
    /// the one made before otherwise, whose orphaned tasks then report to `background`'s closure.
    static func background(
        like configuration: URLSessionConfiguration, delegate: (any URLSessionDelegate)?,
        on delegateQueue: OperationQueue?, background: BackgroundTasks
    ) -> DelegateSession {
        let (session, isNew) = backgroundSessions.withLock { sessions -> (DelegateSession, Bool) in
            if let made = sessions[background.identifier] { return (made, false) }
            let made = DelegateSession(
                configuration: configuration, forwardingChallengesTo: delegate, on: delegateQueue,
                background: background)
            sessions[background.identifier] = made
            return (made, true)
        }
        // A session the system invalidates is forgotten: a provider made again makes a new one.
        if isNew {
            let identifier = background.identifier
            let forget: @Sendable () -> Void = { [weak session] in
                backgroundSessions.withLock { sessions in
                    if let session, sessions[identifier] === session { sessions[identifier] = nil }
                }
            }
            session.delegate.onInvalidation.withLock { $0 = forget }
            // Invalidated before the action was in place: forgotten now.
            if session.delegate.invalidation.withLock({ $0 }) != nil { forget() }
        }
        if !isNew { session.background?.reportTo(background.currentReport) }
        return session
    }

    /// Whether the process has a background session for `identifier` (for tests).
    static func hasBackgroundSession(_ identifier: String) -> Bool {
        backgroundSessions.withLock { $0[identifier] != nil }
    }

    /// Hands `handler` the running download task of this background session that a task of an earlier
    /// launch (or one no caller waits for) runs to `destination`, if there is one, and starts watching
    /// it: the caller joins it instead of starting a second. Checked and registered on the delegate
    /// queue, so no event of the task is delivered in between; a task already handing its file over is
    /// left to finish on its own. Returns whether it joined one.
    func join(downloadTo destination: URL, handler: TransferHandler) async -> Bool {
        guard let background else { return false }
        let queue = session.delegateQueue
        let wanted = destination.standardizedFileURL.path
        let tasks = await withCheckedContinuation { (answer: CheckedContinuation<[TaskHandle], Never>) in
            session.getAllTasks { tasks in answer.resume(returning: tasks.map(TaskHandle.init)) }
        }
        let candidate = tasks.first { handle in
            guard handle.task is URLSessionDownloadTask, handle.task.state == .running,
                let note = BackgroundTasks.Note(decoding: handle.task.taskDescription), note.validator == nil
            else { return false }
            return note.destinationURL?.standardizedFileURL.path == wanted
        }
        guard let candidate else { return false }
        let joined = await withCheckedContinuation { (answer: CheckedContinuation<Bool, Never>) in
            queue.addOperation { [self] in
                // A caller that has left meanwhile takes nothing: the task stays the session's orphan.
                guard !handler.hasEnded, candidate.task.state == .running,
                    !background.isFinishing(candidate.task), registerIfFree(handler, for: candidate.task)
                else {
                    answer.resume(returning: false)
                    return
                }
                // Still on the delegate queue: the handler has the task before any of its events. It is
                // not resumed or watched again: it runs, and a background task has no deadline.
                handler.attach(candidate.task)
                answer.resume(returning: true)
            }
        }
        return joined
    }
}
