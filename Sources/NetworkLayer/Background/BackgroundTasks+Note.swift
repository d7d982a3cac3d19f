import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension BackgroundTasks {
    /// What a background task carries in its `taskDescription` for a process that finds it without a
    /// caller: URLSession keeps the description with the task across launches.
    struct Note: Codable, Sendable, Equatable {
        /// The endpoint's name.
        var endpoint: String
        /// A download's destination, as a file path; under the home folder, relative to it (`~/…`): an
        /// iOS app's container can move when the app is updated.
        var destination: String?
        /// The strong validator a resumed download's answer must carry.
        var validator: String?
        /// The name of a temporary upload body NetworkLayer wrote in the temporary folder (a multipart
        /// form), removed when the task ends. A name, since the folder moves with an iOS app's container.
        var temporaryBody: String?

        /// - Parameter endpoint: The endpoint's name, kept with its secrets hidden by what this process has
        ///   declared: a relaunched process that has not declared them yet (a token in the path) reads
        ///   and journals the note as it is.
        init(endpoint: String, destination: URL?, validator: String? = nil, temporaryBody: URL? = nil) {
            self.endpoint = Redaction.redact(text: endpoint)
            self.destination = destination.map(Self.homeRelative)
            self.validator = validator
            self.temporaryBody = temporaryBody?.lastPathComponent
        }

        /// The note as a task description.
        var encoded: String? {
            (try? JSONEncoder().encode(self)).flatMap { String(data: $0, encoding: .utf8) }
        }

        /// The note a task description holds, or `nil` for one NetworkLayer did not write.
        init?(decoding description: String?) {
            guard let data = description?.data(using: .utf8),
                let note = try? JSONDecoder().decode(Note.self, from: data)
            else { return nil }
            self = note
        }

        /// The destination as a file URL, under the home folder of this launch when relative to it.
        var destinationURL: URL? {
            destination.map { path in
                path.hasPrefix("~/")
                    ? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(
                        String(path.dropFirst(2)))
                    : URL(fileURLWithPath: path)
            }
        }

        /// How NetworkLayer's temporary upload bodies (multipart forms) are named.
        static let temporaryBodyPrefix = "networklayer-multipart-"

        /// A note for an upload of `body`, naming it when it is one of NetworkLayer's temporary bodies.
        static func upload(endpoint: String, body: UploadBody) -> Note {
            guard case .file(let file) = body, isTemporaryBody(file) else {
                return Note(endpoint: endpoint, destination: nil)
            }
            return Note(endpoint: endpoint, destination: nil, temporaryBody: file)
        }

        /// The temporary upload body in this launch's temporary folder, only if its name is one
        /// NetworkLayer gives: nothing else is ever removed on a description's word.
        var temporaryBodyURL: URL? {
            guard let name = temporaryBody, name.hasPrefix(Self.temporaryBodyPrefix), !name.contains("/")
            else { return nil }
            return FileManager.default.temporaryDirectory.appendingPathComponent(name)
        }

        private static func isTemporaryBody(_ url: URL) -> Bool {
            url.lastPathComponent.hasPrefix(temporaryBodyPrefix)
                && canonical(url.deletingLastPathComponent().path)
                    == canonical(FileManager.default.temporaryDirectory.path)
        }

        /// `url`'s path, relative to the home folder (`~/…`) when it is in it.
        private static func homeRelative(_ url: URL) -> String {
            let folder = url.deletingLastPathComponent().resolvingSymlinksInPath().path
            let path = canonical(folder) + "/" + url.lastPathComponent
            let home = canonical(URL(fileURLWithPath: NSHomeDirectory()).resolvingSymlinksInPath().path)
            return path.hasPrefix(home + "/") ? "~/" + path.dropFirst(home.count + 1) : path
        }

        /// `path` without a trailing `/` and, on Apple platforms, without the `/private` prefix
        /// (`/private/var` is `/var` there), so two spellings of one folder compare equal.
        static func canonical(_ path: String) -> String {
            var path = path
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            #if canImport(Darwin)
                if path.hasPrefix("/private/") { path = String(path.dropFirst("/private".count)) }
            #endif
            return path
        }
    }
}
