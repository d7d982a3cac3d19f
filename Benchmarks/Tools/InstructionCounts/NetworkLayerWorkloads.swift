import CacheKit
import Dispatch
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The provider's own work per request over a stub session, beside the decode alone: the difference is
// what the provider adds (request building, middlewares, limits, the timeout race).

struct Movie: Decodable, Sendable {
    let title: String
    let year: Int
}

let movieJSON = Data(#"{"title":"Wonka","year":2023}"#.utf8)

/// Runs `body` on a task of its own and waits for it: the workloads are synchronous closures.
func waiting(for body: @escaping @Sendable () async -> Void) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await body()
        done.signal()
    }
    done.wait()
}

func networkLayerWorkloads() -> [Workload] {
    [
        Workload(name: "request-over-stub-networklayer") {
            let base = URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/")
            guard
                let prebuilt = HTTPURLResponse(
                    url: base, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])
            else { fatalError("HTTPURLResponse could not be built for \(base)") }
            let provider = NetworkProvider(session: StubSession { _ in (movieJSON, prebuilt) })
            let endpoint = Endpoint<Movie>(baseURL: base, path: "movie")
            return { count in
                waiting {
                    for _ in 0..<count { blackHole(try? await provider.send(endpoint)) }
                }
            }
        },
        // The HTTP cache's fresh hit through the provider (no request reaches the session), beside a
        // CacheKit memory hit of the same body.
        Workload(name: "request-fresh-hit-httpcache") {
            let url = URL(string: "https://api.example.com/movies/1") ?? URL(fileURLWithPath: "/")
            guard
                let fresh = HTTPURLResponse(
                    url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Cache-Control": "max-age=31536000", "Content-Type": "application/json"])
            else { fatalError("HTTPURLResponse could not be built for \(url)") }
            var configuration = NetworkProvider.Configuration()
            configuration.httpCache = HTTPCache()
            let provider = NetworkProvider(
                session: StubSession { _ in (movieJSON, fresh) }, configuration: configuration)
            let endpoint = Endpoint<Data>(url: url)
            waiting { _ = try? await provider.send(endpoint) }
            return { count in
                waiting {
                    for _ in 0..<count { blackHole(try? await provider.send(endpoint)) }
                }
            }
        },
        Workload(name: "memory-hit-same-body-cachekit") {
            let memory = MemoryStorage<String, Data>()
            memory.store(movieJSON, forKey: "https://api.example.com/movies/1")
            return { count in
                for _ in 0..<count { blackHole(memory.value(forKey: "https://api.example.com/movies/1")) }
            }
        },
        Workload(name: "request-over-stub-decode-only") {
            let decoder = JSONDecoder()
            return { count in
                waiting {
                    for _ in 0..<count { blackHole(try? decoder.decode(Movie.self, from: movieJSON)) }
                }
            }
        },
    ]
}
