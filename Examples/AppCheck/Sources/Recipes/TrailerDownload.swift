// swift-format-ignore-file
// Docs/Recipes.md quotes this file line for line: laid out as the page shows it.
import Binding
import Foundation
import NetworkLayer

/// Recipe 4: one download's state for a screen: progress, cancellation, and no partial file left.
@MainActor
public final class TrailerDownload {
    /// Where the download is.
    nonisolated public enum State: Sendable, Equatable {
        case idle
        case downloading
        case finished(URL)
        case failed(String)
        case cancelled
    }

    /// The fraction received, 0 to 1; `nil` while the size is unknown.
    public let progress = Observable<Double?>(nil)
    /// Where the download is.
    public let state = Observable(State.idle)

    private let provider: NetworkProvider
    private var task: Task<Void, Never>?

    /// Creates the download's state.
    /// - Parameter provider: Sends the request.
    public init(provider: NetworkProvider) {
        self.provider = provider
    }

    /// Downloads `trailer` to `destination`, replacing what is there only once all of it arrived.
    public func start(_ trailer: Endpoint<Data>, to destination: URL) {
        guard task == nil else { return }
        state.value = .downloading
        let progress = progress
        task = Task { [provider] in
            do {
                let file = try await provider.download(trailer, to: destination) { progress.value = $0.fractionCompleted }
                state.value = .finished(file.url)
            } catch is CancellationError {
                state.value = .cancelled   // the partial file is already removed
            } catch {
                state.value = .failed("\(error)")
            }
            task = nil
        }
    }

    /// Stops the download; nothing it wrote is left (a file already at the destination stays).
    public func cancel() {
        task?.cancel()
    }
}
