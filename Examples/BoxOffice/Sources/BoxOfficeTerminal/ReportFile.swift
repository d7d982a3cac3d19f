import Foundation

/// Writes the report where the user asked, safely.
enum ReportFile {
    /// A path that is not a regular file (a folder, a FIFO, a device) is refused rather than opened,
    /// so a pipe someone put there cannot hang the command; a regular file is replaced atomically (the
    /// page is written beside it and renamed), so a failure never leaves half a page.
    struct NotARegularFile: Error, CustomStringConvertible {
        /// What is at the path.
        let kind: String
        /// One line.
        var description: String { "it is \(kind), not a regular file" }
    }

    /// A folder that does not exist where the report should go.
    struct MissingFolder: Error, CustomStringConvertible {
        /// One line.
        var description: String { "its folder does not exist" }
    }

    /// Throws unless `file` can be written: its folder exists, and nothing but a regular file is there.
    /// Checked before any request is made, so a bad path fails at once.
    static func check(_ file: URL) throws {
        var isFolder: ObjCBool = false
        let folder = file.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue
        else {
            throw MissingFolder()
        }
        if let type = try? FileManager.default.attributesOfItem(atPath: file.path)[.type]
            as? FileAttributeType,
            type != .typeRegular
        {
            let kind =
                switch type {
                case .typeDirectory: "a folder"
                case .typeSymbolicLink: "a symbolic link"
                case .typeCharacterSpecial, .typeBlockSpecial: "a device"
                default: "a pipe or socket"
                }
            throw NotARegularFile(kind: kind)
        }
    }

    /// Writes `html` to `file`, after checking it again.
    static func write(_ html: String, to file: URL) throws {
        try check(file)
        try Data(html.utf8).write(to: file, options: .atomic)
    }
}
