import Foundation

extension CacheKey {
    /// What an ``HTTPCache`` keeps of the keys it made, so a request for a URL it has seen costs a
    /// lookup, not a parse and a SHA-256: each URL's ``Location`` (with the ``Credentials`` revision it
    /// was worked out under: a name declared or a value learned since makes it again), and each digest
    /// of a partition's text.
    ///
    /// It holds at most ``limit`` of each, forgotten all at once when full, and forgets everything on
    /// ``HTTPCache/removeAll()``: the texts it holds carry the credentials of the requests it saw (in
    /// memory only; no store ever sees them).
    final class Memo: Sendable {
        /// The most locations, and the most digests, held: 256 each.
        static let limit = 256

        private struct State {
            var locations: [String: (revision: UInt64, location: Location)] = [:]
            var digests: [String: String] = [:]
        }

        private let state = Locked(State())

        /// How many locations and digests it holds (for tests).
        var count: Int { state.withLock { $0.locations.count + $0.digests.count } }

        /// The location of `url`: the one kept, if ``Credentials`` has not changed since, else a new one,
        /// kept.
        func location(of url: URL) -> Location? {
            let text = url.absoluteString
            // Read before the location is worked out: a change while it is, leaves it kept as stale.
            let revision = CredentialStore.shared.revision
            if let kept = state.withLock({ $0.locations[text] }), kept.revision == revision {
                return kept.location
            }
            guard let location = Location(url) else { return nil }
            let released = state.withLock { state in
                var released: [String: (revision: UInt64, location: Location)] = [:]
                if state.locations.count >= Self.limit { swap(&released, &state.locations) }
                state.locations[text] = (revision, location)
                return released
            }
            withExtendedLifetime(released) {}
            return location
        }

        /// ``CacheKey/digest(_:)`` of `text`, kept.
        func digest(of text: String) -> String {
            if let kept = state.withLock({ $0.digests[text] }) { return kept }
            let digest = CacheKey.digest(text)
            let released = state.withLock { state in
                var released: [String: String] = [:]
                if state.digests.count >= Self.limit { swap(&released, &state.digests) }
                state.digests[text] = digest
                return released
            }
            withExtendedLifetime(released) {}
            return digest
        }

        /// Forgets every location and digest.
        func removeAll() {
            let released = state.withLock { state in
                defer { state = State() }
                return state
            }
            withExtendedLifetime(released) {}
        }
    }
}
