import Foundation

extension CacheKey {
    /// What an ``HTTPCache`` keeps of the keys it made, so a request for a URL it has seen costs a
    /// lookup, not a parse and a SHA-256: each URL's ``Location`` (with the ``Credentials`` revision it
    /// was worked out under: a name declared or a value learned since makes it again), and each digest
    /// of a partition's text.
    ///
    /// It holds at most ``limit`` of each, forgotten all at once when full, and no text longer than
    /// ``longestText`` bytes (those are worked out each time). It forgets everything on
    /// ``HTTPCache/removeAll()`` and keeps nothing from a request that began before it: the texts it holds
    /// carry the credentials of the requests it saw (in memory only; no store ever sees them).
    final class Memo: Sendable {
        /// The most locations, and the most digests, held: 256 each.
        static let limit = 256
        /// The longest URL or partition text kept: 2 KiB.
        static let longestText = 2_048

        private struct State {
            var locations: [String: (revision: UInt64, location: Location)] = [:]
            var digests: [String: String] = [:]
            /// The cache generation of the latest ``removeAll(startingGeneration:)``: what a request
            /// begun before it works out is not kept.
            var generation = 0
        }

        private let state = Locked(State())

        /// How many locations it holds (for tests).
        var locationCount: Int { state.withLock { $0.locations.count } }
        /// How many digests it holds (for tests).
        var digestCount: Int { state.withLock { $0.digests.count } }

        /// The location of `url`: the one kept, if ``Credentials`` has not changed since, else a new one,
        /// kept unless the request began (in cache generation `generation`) before the latest
        /// ``removeAll(startingGeneration:)``.
        func location(of url: URL, generation: Int) -> Location? {
            let text = url.absoluteString
            guard text.utf8.count <= Self.longestText else { return Location(url) }
            // Read before the location is worked out: a change while it is, leaves it kept as stale.
            let revision = CredentialStore.shared.revision
            if let kept = state.withLock({ $0.locations[text] }), kept.revision == revision {
                return kept.location
            }
            guard let location = Location(url) else { return nil }
            let released = state.withLock { state in
                var released: [String: (revision: UInt64, location: Location)] = [:]
                guard generation >= state.generation else { return released }
                if state.locations.count >= Self.limit { swap(&released, &state.locations) }
                state.locations[text] = (revision, location)
                return released
            }
            withExtendedLifetime(released) {}
            return location
        }

        /// ``CacheKey/digest(_:)`` of `text`, kept as ``location(of:generation:)`` keeps a location.
        func digest(of text: String, generation: Int) -> String {
            guard text.utf8.count <= Self.longestText else { return CacheKey.digest(text) }
            if let kept = state.withLock({ $0.digests[text] }) { return kept }
            let digest = CacheKey.digest(text)
            let released = state.withLock { state in
                var released: [String: String] = [:]
                guard generation >= state.generation else { return released }
                if state.digests.count >= Self.limit { swap(&released, &state.digests) }
                state.digests[text] = digest
                return released
            }
            withExtendedLifetime(released) {}
            return digest
        }

        /// Forgets every location and digest, and keeps nothing later from a request that began before
        /// cache generation `generation`.
        func removeAll(startingGeneration generation: Int) {
            let released = state.withLock { state in
                defer { state = State(generation: max(state.generation, generation)) }
                return state
            }
            withExtendedLifetime(released) {}
        }
    }
}
