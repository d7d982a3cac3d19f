// Sends one request (a URL and a response-size limit from the arguments) and prints how it ended on one
// line; the caller measures the process's peak resident memory.
import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count == 4, let url = URL(string: arguments[2]), let limit = Int(arguments[3]) else {
    print("usage: memory-check send|stream <url> <limit in bytes>")
    exit(2)
}
var configuration = NetworkProvider.Configuration()
configuration.maximumResponseSize = limit
configuration.streamBufferLimit = limit
let provider = NetworkProvider(session: URLSession(configuration: .ephemeral), configuration: configuration)
let started = ContinuousClock.now
do {
    switch arguments[1] {
    case "stream":
        // A reader that never reads: the stream must stop at its buffer limit.
        let stream = try await provider.stream(Endpoint<Data>(url: url))
        try await Task.sleep(for: .seconds(6))
        var count = 0
        for try await chunk in stream { count += chunk.count }
        print("finished: \(count) bytes")
    default:
        let body = try await provider.send(Endpoint<Data>(url: url))
        print("finished: \(body.count) bytes")
    }
} catch {
    print("failed: \(error)")
}
print("after \(ContinuousClock.now - started)")
// The process lives on, as an app would: whatever the transport still does after the error counts too.
try await Task.sleep(for: .seconds(5))
