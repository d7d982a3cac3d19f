import BoxOffice
import Foundation

/// Where the report goes, and writing it there safely.
enum ReportFile {
    /// Where `report` writes its page.
    enum Destination: Equatable {
        /// Standard output (`--output -`).
        case standardOutput
        /// A file.
        case file(URL)
    }

    /// Why the page cannot go where the user asked; one line each.
    struct Refusal: Error, CustomStringConvertible {
        /// One line, naming the problem.
        let description: String
    }

    /// The longest file name a file system takes (`NAME_MAX` on Linux and Apple platforms), in bytes.
    static let longestName = 255
    /// The longest path accepted, in bytes (`PATH_MAX` on Apple platforms; Linux allows 4096).
    static let longestPath = 1024

    /// Where `--output path` puts the report of `day`: standard output for `-`; inside a folder for a
    /// path ending in `/` or naming an existing folder (as `boxoffice-YYYY-MM-DD.html`); else the file.
    static func destination(for path: String?, day: Day) -> Destination {
        let name = "boxoffice-\(day.dashed).html"
        guard let path else { return .file(URL(fileURLWithPath: name)) }
        if path == "-" { return .standardOutput }
        var isFolder: ObjCBool = false
        if path.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue)
        {
            return .file(URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(name))
        }
        return .file(URL(fileURLWithPath: path))
    }

    /// Throws unless `file` can be written: a name and path the file system takes, a folder that exists,
    /// and nothing but a regular file at the path, so a pipe someone put there cannot hang the command.
    /// Checked before any request is made, so a bad path fails at once.
    static func check(_ file: URL) throws(Refusal) {
        if let long = file.pathComponents.first(where: { $0.utf8.count > longestName }) {
            throw Refusal(
                description: "the name \"\(TerminalText.excerpt(long))\" is \(long.utf8.count) bytes long; "
                    + "file names hold at most \(longestName)")
        }
        guard file.path.utf8.count <= longestPath else {
            throw Refusal(description: "the path is longer than \(longestPath) bytes")
        }
        var isFolder: ObjCBool = false
        let folder = file.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) else {
            throw Refusal(description: "its folder \(TerminalText.line(folder)) does not exist")
        }
        guard isFolder.boolValue else {
            throw Refusal(description: "\(TerminalText.line(folder)) is a file, not a folder")
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
            throw Refusal(description: "it is \(kind), not a regular file")
        }
    }

    /// Writes `html` to `file`, after checking it again: beside it, then renamed over it, so a failure
    /// never leaves half a page.
    static func write(_ html: String, to file: URL) throws(Refusal) {
        try check(file)
        do {
            try Data(html.utf8).write(to: file, options: .atomic)
        } catch {
            throw Refusal(description: reason(error))
        }
    }

    /// A file system error in words: the system's message for its `errno` (`No space left on device`),
    /// not a dump of the `NSError`.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        let posix = [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }
            .first { $0.domain == NSPOSIXErrorDomain }
        if let posix { return String(cString: strerror(Int32(truncatingIfNeeded: posix.code))) }
        guard error.domain == NSCocoaErrorDomain else {
            return "the file system refused it (error \(error.code))"
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
        case .fileWriteNoPermission: return String(cString: strerror(EACCES))
        case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
        case .fileWriteInvalidFileName: return "the file name is not valid here"
        default: return "the file system refused it (error \(error.code))"
        }
    }
}
