// A process the NetworkLayer tests start and kill, to check what the next launch finds: a child of the
// test, never part of a product. It reaches the library's internals, so it is built in debug only.
import Foundation

#if DEBUG
    @testable import NetworkLayer

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// `stage <journal folder> <downloaded file> <destination>`: stages the file beside the destination
    /// as a background download whose caller still waits does, says `staged`, and waits to be killed
    /// before the caller can place it.
    func stage(journal: String, downloaded: String, destination: String) -> Int32 {
        let background = BackgroundTasks(
            identifier: "child", report: { _ in }, handlerQueue: DispatchQueue(label: "child.handlers"),
            journal: BackgroundJournal(folder: URL(fileURLWithPath: journal)))
        let file = SessionWrittenFile(
            destination: URL(fileURLWithPath: destination), stagesAtOnce: true,
            ledger: SessionWrittenFile.Ledger(background: background, endpoint: "GET movie.bin"))
        guard let url = URL(string: "https://cdn.example/movie.bin"),
            let head = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/octet-stream"])
        else { return 70 }
        do {
            try file.adopt(URL(fileURLWithPath: downloaded), head: head, journalName: "task-1-child")
        } catch {
            FileHandle.standardError.write(Data("could not stage: \(error)\n".utf8))
            return 1
        }
        FileHandle.standardOutput.write(Data("staged\n".utf8))
        // The caller's task would place the file now; the test kills this process first.
        while true { sleep(60) }
    }

    /// `refresh <folder> shared|alone`: an app or its extension meeting a 401 at the same moment as
    /// another process. The folder plays the app group: `token` and `refresh-token` are the app's store
    /// (the keychain), `server-token` and `server-refresh-token` what the server accepts, and each
    /// refresh the server grants adds a line to `refreshes`. The refresh token rotates: a spent one is
    /// refused, which signs the user out. The process waits for `go` to appear, sends one request, and
    /// says `status 200` or `failed …`. Alone, each refresh waits (5 s at most) until both processes
    /// have presented their refresh token, as two uncoordinated refreshes at once do.
    func refreshTogether(folder: String, shared: Bool) async -> Int32 {
        let base = URL(fileURLWithPath: folder)
        @Sendable func read(_ name: String) -> String {
            (try? String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        @Sendable func write(_ name: String, _ text: String) {
            try? Data(text.utf8).write(to: base.appendingPathComponent(name), options: .atomic)
        }
        let session = StubSession { request in
            let token = request.value(forHTTPHeaderField: "Authorization") ?? ""
            let status = token == "Bearer " + read("server-token") ? 200 : 401
            return (Data(), try StubSession.makeResponse(for: request, status: status))
        }
        let refresh: @Sendable () async throws -> Void = {
            // The server's side: a refresh token is good once.
            let presented = read("refresh-token")
            if shared {
                try await Task.sleep(for: .milliseconds(300))
            } else {
                // Uncoordinated, both processes present their refresh token before either is granted.
                write("presented-\(getpid())", presented)
                for _ in 0..<2_500
                where (try? FileManager.default.contentsOfDirectory(atPath: folder))?
                    .filter({ $0.hasPrefix("presented-") }).count ?? 0 < 2
                {
                    try await Task.sleep(for: .milliseconds(2))
                }
            }
            // Spent at once, whoever asks second: making a folder fails when it exists.
            guard presented == read("server-refresh-token"),
                mkdir(base.appendingPathComponent("spent-" + presented).path, 0o700) == 0
            else {
                throw URLError(.userAuthenticationRequired)  // signed out
            }
            let round = read("refreshes").split(separator: "\n").count + 1
            write("server-refresh-token", "refresh-\(round)")
            write("server-token", "access-\(round)")
            write("refreshes", read("refreshes") + "refreshed by \(getpid())\n")
            // The app's side: both tokens stored where every process reads them.
            write("refresh-token", "refresh-\(round)")
            write("token", "access-\(round)")
        }
        let middleware =
            shared
            ? TokenRefreshMiddleware(sharedAcross: SharedRefresh(folder: base), refresh: refresh)
            : TokenRefreshMiddleware(refresh: refresh)
        guard let url = URL(string: "https://api.example") else { return 70 }
        let provider = NetworkProvider(
            session: session,
            middlewares: [middleware, AuthorizationMiddleware(hosts: ["api.example"]) { read("token") }])
        while !FileManager.default.fileExists(atPath: base.appendingPathComponent("go").path) {
            try? await Task.sleep(for: .milliseconds(2))
        }
        do {
            _ = try await provider.send(Endpoint<Data>(baseURL: url, path: "inbox"))
            print("status 200")
            return 0
        } catch {
            print("failed \(error)")
            return 1
        }
    }

    let arguments = CommandLine.arguments
    if arguments.count == 5, arguments[1] == "stage" {
        exit(stage(journal: arguments[2], downloaded: arguments[3], destination: arguments[4]))
    }
    if arguments.count == 4, arguments[1] == "refresh" {
        let folder = arguments[2]
        let shared = arguments[3] == "shared"
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int32>(70)
        // Detached: top-level code runs on the main actor, which the wait below holds.
        Task.detached {
            let result = await refreshTogether(folder: folder, shared: shared)
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        exit(status.withLock { $0 })
    }
    let usage =
        "usage: NetworkLayerTestProcess stage <journal> <file> <destination> | refresh <folder> shared|alone"
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(64)
#else
    FileHandle.standardError.write(Data("NetworkLayerTestProcess runs in debug builds only\n".utf8))
    exit(70)
#endif
