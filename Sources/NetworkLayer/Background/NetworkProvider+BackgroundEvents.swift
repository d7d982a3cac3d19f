import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The system's wake-ups for a background session's events: an app delegate's handler, or a SwiftUI
/// scene's background task.
extension NetworkProvider {
    /// Keeps `completionHandler` when `identifier` is the provider's background session's, and calls it
    /// on the main queue once the session has delivered the events the system woke the app for (at once
    /// when it already has). Call it from your app delegate's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`.
    /// - Parameters:
    ///   - identifier: The session the system names.
    ///   - completionHandler: The handler the system gave the app delegate.
    /// - Returns: Whether the handler was kept; `false` when the session is not this provider's (give the
    ///   handler to the session's owner, or call it yourself).
    @MainActor
    @discardableResult
    public func handleBackgroundEvents(
        forSession identifier: String, completionHandler: @escaping () -> Void
    ) -> Bool {
        guard let background = transport.background,
            background.identifier == identifier
        else { return false }
        let handler = MainQueueHandler(call: completionHandler)
        background.handleEvents { handler.call() }
        return true
    }

    /// Waits until the provider's background session has delivered the events the system woke the app
    /// for (returns at once when it already has): the SwiftUI lifecycle's way, from a scene's
    /// `.backgroundTask(.urlSession(identifier))` action, which the system considers done when it
    /// returns.
    ///
    /// ```swift
    /// WindowGroup { LibraryView() }
    ///     .backgroundTask(.urlSession("com.example.app.downloads")) {
    ///         await downloads.deliverBackgroundEvents(forSession: "com.example.app.downloads")
    ///     }
    /// ```
    /// Cancelling the calling task (the system does when the app's background time runs out) returns at
    /// once; the events go on being delivered.
    /// - Parameter identifier: The session the system names.
    /// - Returns: Whether the session is this provider's; `false` (at once) when it is not.
    @discardableResult
    public func deliverBackgroundEvents(forSession identifier: String) async -> Bool {
        guard let background = transport.background, background.identifier == identifier else {
            return false
        }
        let wait = Race<Void>()
        background.handleEvents { wait.finish(with: .success(())) }
        await withTaskCancellationHandler {
            _ = try? await withCheckedThrowingContinuation { wait.attach($0) }
        } onCancel: {
            wait.finish(with: .failure(CancellationError()))
        }
        return true
    }
}

/// The system's events handler, received by a main-actor method and called only on the main queue.
// @unchecked Sendable: `call` is handed to `handleBackgroundEvents`, which runs on the main actor, and is
// called only from `DispatchQueue.main` (the handler queue of a provider's ``BackgroundTasks``), so it
// runs on the thread it was given on, as if it had never left it.
private struct MainQueueHandler: @unchecked Sendable {
    let call: () -> Void
}
