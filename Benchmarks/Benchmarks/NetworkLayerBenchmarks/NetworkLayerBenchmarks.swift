import Benchmark
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// NetworkProvider against raw URLSession, both hitting the same loopback keep-alive HTTP server (the
// tests' fixture server, started here), and the provider's decoding path against a raw JSONDecoder.

let smoke = ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil

struct Movie: Decodable, Sendable {
    let title: String
    let year: Int
}

/// The fixture server on 127.0.0.1, started once.
final class LoopbackServer: @unchecked Sendable {
    // @unchecked Sendable: set once in `init`, then only read; the process and pipe are kept alive here.
    let baseURL: URL
    private let process: Process
    private let input: Pipe

    static let shared: LoopbackServer? = try? LoopbackServer()

    private init() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/NetworkLayerTests/Fixtures/server.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var line = Data()
        while true {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data("\n".utf8) { break }
            line.append(byte)
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else { throw URLError(.cannotConnectToHost) }
        baseURL = url
        self.process = process
        self.input = input
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .one,
        maxDuration: .seconds(smoke ? 1 : 3), maxIterations: smoke ? 1 : 3_000)

    guard let server = LoopbackServer.shared else {
        fatalError(
            "The loopback server (Tests/NetworkLayerTests/Fixtures/server.py) did not start; is python3 installed?"
        )
    }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 8
    let session = URLSession(configuration: configuration)
    let provider = NetworkProvider(session: session)
    let url = server.baseURL.appendingPathComponent("json")
    let endpoint = Endpoint<Data>(baseURL: server.baseURL, path: "json")
    let request = URLRequest(url: url)

    Benchmark("GET sequential: URLSession") { _ in
        blackHole(try await session.data(for: request))
    }
    // The public completion-handler API the provider sends through (a request it can time out apart
    // from its caller): where the provider's sequential gap is not.
    Benchmark("GET sequential: URLSession completion handler") { _ in
        blackHole(try await completionHandlerRequest(request, on: session))
    }
    Benchmark("GET sequential: NetworkProvider") { _ in
        blackHole(try await provider.send(endpoint))
    }
    Benchmark("GET 8 concurrent: URLSession") { _ in
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { blackHole(try await session.data(for: request)) } }
            try await group.waitForAll()
        }
    }
    Benchmark("GET 8 concurrent: NetworkProvider") { _ in
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { blackHole(try await provider.send(endpoint)) } }
            try await group.waitForAll()
        }
    }

    // The same GETs against nginx, which is not the bottleneck the Python server is: the client's own
    // cost shows. Left out, with a note, when nginx is not installed.
    switch NginxServer.shared {
    case .success(let nginx):
        let nginxRequest = URLRequest(url: nginx.baseURL.appendingPathComponent("json"))
        let nginxEndpoint = Endpoint<Data>(baseURL: nginx.baseURL, path: "json")
        Benchmark("GET sequential, nginx: URLSession") { _ in
            blackHole(try await session.data(for: nginxRequest))
        }
        Benchmark("GET sequential, nginx: NetworkProvider") { _ in
            blackHole(try await provider.send(nginxEndpoint))
        }
        Benchmark("GET 8 concurrent, nginx: URLSession") { _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { blackHole(try await session.data(for: nginxRequest)) } }
                try await group.waitForAll()
            }
        }
        // A bare session delegate: what seeing the body as it arrives costs on its own (three delegate
        // calls a request, head, body and end, where a completion handler gets one).
        let delegated = DelegateRequests(configuration: configuration)
        Benchmark("GET 8 concurrent, nginx: URLSession delegate") { _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { blackHole(try await delegated.data(for: nginxRequest)) } }
                try await group.waitForAll()
            }
        }
        Benchmark("GET 8 concurrent, nginx: NetworkProvider") { _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 { group.addTask { blackHole(try await provider.send(nginxEndpoint)) } }
                try await group.waitForAll()
            }
        }
        httpCacheWireBenchmarks(nginx: nginx, configuration: configuration)
    case .failure(is NginxServer.NotInstalled):
        print("nginx is not installed: the GET rows against nginx are left out")
    case .failure(let error):
        print("nginx did not start (\(error)): the GET rows against nginx are left out")
    }

    // Downloads to a file: the provider's delegate-driven transfer writing as bytes arrive (in 8 MiB
    // windows, and in one request), against a raw URLSession download task (which writes its own
    // temporary file) moved to the same destination; into a new file, and replacing the previous
    // iteration's. The server serves ranges, as file servers do.
    let megabytes = smoke ? 1 : 200
    var oneRequest = NetworkProvider.Configuration()
    oneRequest.downloadWindow = nil
    let unwindowed = NetworkProvider(session: session, configuration: oneRequest)
    let large = Endpoint<Data>(
        baseURL: server.baseURL, path: "large",
        queryItems: [URLQueryItem(name: "bytes", value: "\(megabytes << 20)")])
    guard let largeURL = URL(string: "large?bytes=\(megabytes << 20)", relativeTo: server.baseURL) else {
        fatalError("the large body's URL could not be formed")
    }
    let largeRequest = URLRequest(url: largeURL)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("download-benchmark-\(UUID())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let download = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .peakMemoryResidentDelta], scalingFactor: .one,
        maxDuration: .seconds(smoke ? 1 : 20), maxIterations: smoke ? 1 : 5)
    for replaces in [false, true] {
        let destination = folder.appendingPathComponent(replaces ? "replaced.bin" : "new.bin")
        let target = "\(megabytes) MB \(replaces ? "replacing a file" : "to a new file")"
        Benchmark("Download \(target): URLSession download task", configuration: download) { benchmark in
            settleDisk(benchmark, removing: replaces ? nil : destination)
            let file = try await rawDownload(largeRequest, on: session)
            if replaces { _ = try? FileManager.default.removeItem(at: destination) }
            try FileManager.default.moveItem(at: file, to: destination)
        }
        Benchmark("Download \(target): NetworkProvider", configuration: download) { benchmark in
            settleDisk(benchmark, removing: replaces ? nil : destination)
            blackHole(try await provider.download(large, to: destination))
        }
        // The same provider asking for the body in one request: what the 8 MiB windows save in memory.
        Benchmark("Download \(target): NetworkProvider, one request", configuration: download) { benchmark in
            settleDisk(benchmark, removing: replaces ? nil : destination)
            blackHole(try await unwindowed.download(large, to: destination))
        }
    }

    httpCacheLocalBenchmarks()

    // The provider's own work, I/O excluded: a stub session answering at once, decoding a small JSON.
    let body = Data(#"{"title":"Wonka","year":2023}"#.utf8)
    // The stub answers with one prebuilt response, so only the provider's own work is measured.
    guard
        let prebuilt = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])
    else {
        fatalError("HTTPURLResponse could not be built for \(url)")
    }
    let stubbed = NetworkProvider(session: StubSession { _ in (body, prebuilt) })
    let decoded = Endpoint<Movie>(baseURL: server.baseURL, path: "json")
    let decoder = JSONDecoder()
    let overhead = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxDuration: .seconds(smoke ? 1 : 2),
        maxIterations: smoke ? 1 : 500)
    Benchmark("Decode: NetworkProvider over a stub session", configuration: overhead) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try await stubbed.send(decoded)) }
    }
    Benchmark("Decode: raw JSONDecoder", configuration: overhead) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try decoder.decode(Movie.self, from: body)) }
    }
    redactionBenchmarks()
}

/// Removes the previous iteration's file (when given) and flushes the disk before the clock starts, so
/// no iteration pays for the write-back of the one before it.
func settleDisk(_ benchmark: Benchmark, removing file: URL?) {
    if let file { try? FileManager.default.removeItem(at: file) }
    sync()
    benchmark.startMeasurement()
}

/// A raw URLSession download task; returns the file it wrote (moved out of URLSession's reach).
func rawDownload(_ request: URLRequest, on session: URLSession) async throws -> URL {
    try await withCheckedThrowingContinuation { continuation in
        session.downloadTask(with: request) { location, _, error in
            guard let location else {
                continuation.resume(throwing: error ?? URLError(.badServerResponse))
                return
            }
            // URLSession removes its file when this handler returns.
            let kept = location.deletingLastPathComponent().appendingPathComponent(UUID().uuidString)
            do {
                try FileManager.default.moveItem(at: location, to: kept)
                continuation.resume(returning: kept)
            } catch {
                continuation.resume(throwing: error)
            }
        }.resume()
    }
}

/// A raw URLSession data task with a completion handler, awaited through a continuation.
func completionHandlerRequest(_ request: URLRequest, on session: URLSession) async throws -> Data {
    try await withCheckedThrowingContinuation { continuation in
        session.dataTask(with: request) { data, _, error in
            if let data {
                continuation.resume(returning: data)
            } else {
                continuation.resume(throwing: error ?? URLError(.badServerResponse))
            }
        }.resume()
    }
}
