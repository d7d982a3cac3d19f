import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An executable of this package run as a child of the tests: a second process on one folder, as an
/// app's extension is to the app.
///
/// Started with `posix_spawn` and reaped with `waitpid`, not Foundation's `Process`: on Linux every
/// `Process` shares one SIGCHLD monitor, and many children ending at once under ThreadSanitizer left
/// another test's `waitUntilExit()` spinning, which stalled the whole run. The child gets an empty
/// signal mask (a Dispatch worker that starts it blocks signals) and default signal handlers.
public struct ChildProcess: Sendable {
    /// How a child ended, with what it wrote.
    public struct Ending: Sendable {
        /// The exit status, or 128 plus the signal's number for a child killed by one.
        public let status: Int32
        /// What it wrote to its standard output.
        public let output: String
        /// What it wrote to its standard error.
        public let errors: String
    }

    /// A child that runs: its process identifier and the read ends of its output and error pipes.
    public struct Running: Sendable {
        /// The child's process identifier.
        public let identifier: pid_t
        let output: Int32
        let errors: Int32

        /// Reads the child's output until it writes at least one byte (or closes it).
        public func firstOutput() -> Data {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                return Data(buffer.prefix(max(count, 0)))
            }
        }

        /// Kills the child with SIGKILL and reaps it.
        public func kill() -> Ending {
            _ = Glue.kill(identifier, SIGKILL)
            return finish()
        }

        /// Reads its output and errors to their end, reaps it, and closes the pipes.
        ///
        /// Both pipes are read by this thread, with `poll`, so a child that writes much to either never
        /// blocks, and no other thread is asked for: waiting on work queued to Dispatch from a thread
        /// Dispatch lent stalled the whole suite when every lent thread was waiting.
        public func finish() -> Ending {
            let (output, errors) = Self.readBoth(self.output, self.errors)
            var status: Int32 = 0
            while waitpid(identifier, &status, 0) < 0, errno == EINTR {}
            close(self.output)
            close(self.errors)
            let exited = status & 0x7f == 0
            return Ending(
                status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                output: String(decoding: output, as: UTF8.self),
                errors: String(decoding: errors, as: UTF8.self))
        }

        /// Everything written to `first` and `second` until both are closed.
        static func readBoth(_ first: Int32, _ second: Int32) -> (Data, Data) {
            var collected = [Data(), Data()]
            var open = [true, true]
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let descriptors = [first, second]
            while open.contains(true) {
                var watched = (0..<2).map {
                    pollfd(fd: open[$0] ? descriptors[$0] : -1, events: Int16(POLLIN), revents: 0)
                }
                let ready = poll(&watched, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    break
                }
                for index in 0..<2 where open[index] && watched[index].revents != 0 {
                    let count = buffer.withUnsafeMutableBytes {
                        read(descriptors[index], $0.baseAddress, $0.count)
                    }
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 {
                        open[index] = false
                    } else {
                        collected[index].append(contentsOf: buffer.prefix(count))
                    }
                }
            }
            return (collected[0], collected[1])
        }
    }

    /// The executable named `name`, built beside the running test binary.
    public let executable: URL

    /// Finds `name` in the build folder that holds the running tests.
    /// - Throws: `CocoaError(.fileNoSuchFile)` when it was not built.
    public init(_ name: String) throws {
        var build = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: build.appendingPathComponent(name).path),
            build.pathComponents.count > 1
        {
            build = build.deletingLastPathComponent()
        }
        let executable = build.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: name])
        }
        self.executable = executable
    }

    /// Starts the child with `arguments`.
    /// - Throws: `POSIXError` when a pipe or the process cannot be made.
    public func start(_ arguments: [String]) throws -> Running {
        var output: [Int32] = [0, 0]
        var errors: [Int32] = [0, 0]
        guard pipe(&output) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer {
            close(output[1])
            close(errors[1])
        }
        let identifier = try Glue.spawn(
            executable.path, arguments: arguments, output: output[1], errors: errors[1],
            closing: [output[0], errors[0]])
        return Running(identifier: identifier, output: output[0], errors: errors[0])
    }

    /// Runs the children, one per argument list, all at once, and waits for every one to end.
    public func runTogether(_ argumentLists: [[String]]) throws -> [Ending] {
        let started = try argumentLists.map { try start($0) }
        return started.map { $0.finish() }
    }

    /// Runs the child with `arguments` and waits for it to end.
    public func run(_ arguments: [String]) throws -> Ending {
        try runTogether([arguments])[0]
    }
}

/// The system calls, apart from names the types above use for their own methods.
private enum Glue {
    static func kill(_ identifier: pid_t, _ signal: Int32) -> Int32 {
        #if canImport(Darwin)
            Darwin.kill(identifier, signal)
        #elseif canImport(Glibc)
            Glibc.kill(identifier, signal)
        #else
            Musl.kill(identifier, signal)
        #endif
    }

    /// `posix_spawn` of `path` with `arguments`, its standard output and error on the given pipes'
    /// write ends, the read ends closed in the child, an empty signal mask and default handlers.
    static func spawn(
        _ path: String, arguments: [String], output: Int32, errors: Int32, closing: [Int32]
    ) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
        for descriptor in closing + [output, errors] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // This process's environment, passed explicitly (`environ` is not visible to Swift everywhere).
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in environment { free(variable) } }
        var identifier: pid_t = 0
        let result = posix_spawn(&identifier, path, &actions, &attributes, argv, environment)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        return identifier
    }
}
