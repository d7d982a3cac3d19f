import Foundation

/// A folder of a test's own under the system's temporary directory, removed with everything in it when
/// the value is released. Hold it in the suite (or the test) for as long as the folder is used.
public final class TemporaryFolder: Sendable {
    /// The folder: `<prefix>-<UUID>` in the temporary directory.
    public let url: URL

    /// A path for a folder, not created: for code under test that makes its own.
    /// - Parameter prefix: The start of the folder's name; `Tests` by default.
    public init(_ prefix: String = "Tests") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(prefix)-\(UUID().uuidString)", isDirectory: true)
    }

    /// A folder made now, empty.
    /// - Parameter prefix: The start of the folder's name; `Tests` by default.
    public static func create(_ prefix: String = "Tests") throws -> TemporaryFolder {
        let folder = TemporaryFolder(prefix)
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Every file name in the folder, hidden ones included.
    public var fileNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }
}
