import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Debian's nginx serving the fixture server's JSON from a file on 127.0.0.1, with keep-alive: a server
/// that is not the bottleneck, so the GET rows against it show the client's own cost. Started once, when
/// nginx is installed (`.ci/run` installs it); it stops when this process's standard input closes.
final class NginxServer: @unchecked Sendable {
    // @unchecked Sendable: set once in `init`, then only read; the process and pipe are kept alive here.
    let baseURL: URL
    /// Where nginx logs the bytes it sent for `/mib.bin`, one request a line.
    let mebibyteLog: URL
    private let process: Process
    private let input: Pipe

    /// The server, or why there is none.
    static let shared: Result<NginxServer, any Error> = Result { try NginxServer() }

    /// Where nginx is, if it is installed.
    static var executable: String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/opt/homebrew/bin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private init() throws {
        guard let nginx = Self.executable else { throw NotInstalled() }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("nginx-\(UUID().uuidString)")
        let html = folder.appendingPathComponent("html")
        try FileManager.default.createDirectory(at: html, withIntermediateDirectories: true)
        try Data(#"{"title":"Wonka","year":2023}"#.utf8).write(to: html.appendingPathComponent("json"))
        // The HTTP cache's rows: 1 MiB that must be revalidated on every use (nginx sends an ETag and a
        // Last-Modified for static files, and answers a matching If-None-Match with a 304).
        try Data(count: 1 << 20).write(to: html.appendingPathComponent("mib.bin"))
        let mebibyteLog = folder.appendingPathComponent("mib.log")
        let port = try Self.freePort()
        let configuration = """
            worker_processes 1;
            daemon off;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log;
            events { worker_connections 256; }
            http {
                access_log off;
                keepalive_requests 1000000;
                keepalive_timeout 60s;
                default_type application/json;
                client_body_temp_path \(folder.path)/body;
                proxy_temp_path \(folder.path)/proxy;
                fastcgi_temp_path \(folder.path)/fastcgi;
                uwsgi_temp_path \(folder.path)/uwsgi;
                scgi_temp_path \(folder.path)/scgi;
                log_format sent '$bytes_sent';
                server {
                    listen 127.0.0.1:\(port);
                    root \(html.path);
                    location = /mib.bin {
                        access_log \(mebibyteLog.path) sent;
                        add_header Cache-Control "max-age=0";
                    }
                }
            }
            """
        let configurationFile = folder.appendingPathComponent("nginx.conf")
        try Data(configuration.utf8).write(to: configurationFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // nginx runs until this process's standard input closes (it exits, or is killed); then its folder
        // is removed.
        process.arguments = [
            "-c",
            "\"$0\" -p \"$1\" -c \"$2\" & server=$!; cat >/dev/null; kill $server; wait $server; "
                + "rm -rf \"$1\"",
            nginx, folder.path, configurationFile.path,
        ]
        let input = Pipe()
        process.standardInput = input
        try process.run()
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw URLError(.badURL) }
        baseURL = url
        self.mebibyteLog = mebibyteLog
        self.process = process
        self.input = input
        try Self.waitUntilServing(url.appendingPathComponent("json"))
    }

    /// The bytes nginx has sent for `/mib.bin` so far, headers included: what went on the wire.
    func mebibyteBytesSent() -> Int {
        let log = (try? String(contentsOf: mebibyteLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").reduce(0) { $0 + (Int($1) ?? 0) }
    }

    /// A port no one listens on right now, from the kernel.
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// nginx is not installed.
    struct NotInstalled: Error {}

    /// Waits up to about 5 s for nginx to answer `url`, each probe giving up after 1 s.
    private static func waitUntilServing(_ url: URL) throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1
        let probes = URLSession(configuration: configuration)
        for _ in 0..<50 {
            let answered = DispatchSemaphore(value: 0)
            let status = Box()
            probes.dataTask(with: url) { _, response, _ in
                status.value = (response as? HTTPURLResponse)?.statusCode
                answered.signal()
            }.resume()
            answered.wait()
            if status.value == 200 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        throw URLError(.cannotConnectToHost)
    }

    private final class Box: @unchecked Sendable {
        // @unchecked Sendable: written by the task's completion handler before the semaphore is signalled,
        // read after the wait.
        var value: Int?
    }
}
