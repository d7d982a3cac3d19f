import Foundation
import NetworkLayer
import Recipes

/// A search API the test holds and answers: it records each call, and a query it holds waits (until
/// released or cancelled) before answering.
nonisolated final class FakeSearch: FilmSearching, @unchecked Sendable {
    // @unchecked Sendable: every stored property is only touched while holding `lock`.
    private let lock = NSLock()
    private var recorded: [String] = []
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private let answer: @Sendable (String, Int) throws -> FilmPage

    init(answer: @escaping @Sendable (String, Int) throws -> FilmPage = FakeSearch.twoPages) {
        self.answer = answer
    }

    /// Two pages of one film each, titled after the query.
    static func twoPages(_ text: String, _ page: Int) -> FilmPage {
        FilmPage(films: [Film(id: "\(text)-\(page)", title: "\(text) \(page)")], hasMore: page < 2)
    }

    /// The calls so far, as `query#page`.
    var calls: [String] { lock.withLock { recorded } }

    /// Makes searches for `text` wait until ``release(_:)``.
    func hold(_ text: String) { lock.withLock { _ = held.insert(text) } }

    /// Lets the searches for `text` answer.
    func release(_ text: String) {
        let resumed = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            held.remove(text)
            return waiting.removeValue(forKey: text) ?? []
        }
        for continuation in resumed { continuation.resume() }
    }

    func search(_ text: String, page: Int) async throws -> FilmPage {
        let isHeld = lock.withLock { () -> Bool in
            recorded.append("\(text)#\(page)")
            return held.contains(text)
        }
        if isHeld {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let now = lock.withLock { () -> Bool in
                        guard held.contains(text), !Task.isCancelled else { return true }
                        waiting[text, default: []].append(continuation)
                        return false
                    }
                    if now { continuation.resume() }
                }
            } onCancel: {
                release(text)
            }
        }
        try Task.checkCancellation()
        return try answer(text, page)
    }
}

/// A folder of its own, removed when released.
nonisolated final class TemporaryFolder: Sendable {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
        "RecipeTests-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The JSON of a page of films.
nonisolated func pageJSON(_ titles: [String], hasMore: Bool = false) -> String {
    let films = titles.enumerated().map { #"{"id":"\#($0.offset)","title":"\#($0.element)"}"# }
    return #"{"films":[\#(films.joined(separator: ","))],"hasMore":\#(hasMore)}"#
}
