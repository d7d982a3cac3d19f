import Foundation

extension DiskStorage {
    /// The test seams of a storage, in one value: each is `nil` (or `false`) outside tests.
    struct Hooks: Sendable {
        /// Run by a store between writing its temporary file and renaming it.
        var beforeRename: (@Sendable (String) -> Void)?
        /// Run by a read between finding its entry in the index and reading the file.
        var beforeReadingFile: (@Sendable (String) -> Void)?
        /// Makes opening an entry file for the index fail with an errno, as a locked device does for a
        /// protected file (root, who runs CI, can open any file).
        var openFailure: (@Sendable (String) -> Int32?)?
        /// Makes listing the folder fail, as running out of descriptors does.
        var listingFails = false
        /// Run by a background index build between its scan and installing the index.
        var beforeInstallingIndex: (@Sendable () -> Void)?
    }
}
