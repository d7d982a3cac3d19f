import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

/// How a finished download takes its destination's place, on the real file system.
@Suite("Putting a finished download in its destination's place")
struct FileReplacementTests {
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder
    let finished: URL
    let destination: URL

    init() throws {
        temporary = try TemporaryFolder.create("replace")
        folder = temporary.url
        finished = folder.appendingPathComponent(".download.part")
        destination = folder.appendingPathComponent("poster.jpg")
        try Data("new".utf8).write(to: finished)
    }

    func entries() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func anExistingFileIsReplacedAndNothingOfItIsLeft() throws {
        // Given an old file at the destination
        try Data("old".utf8).write(to: destination)
        // When
        try FileCalls.replace(destination, with: finished)
        // Then the destination holds the new bytes, and neither the old file nor the part is left
        #expect(try Data(contentsOf: destination) == Data("new".utf8))
        #expect(try entries() == ["poster.jpg"])
    }

    #if os(Linux)
        @Test func onLinuxTwoFilesCanBeSwappedInOneStep() throws {
            // Given two files (renameat2 is found at run time: Glibc's Swift module does not declare it)
            try Data("old".utf8).write(to: destination)
            // When
            let swapped = FileCalls.swap(finished, destination)
            // Then each name holds the other's bytes: what replacing an existing file relies on
            #expect(FileCalls.swapsFiles)
            #expect(swapped)
            #expect(try Data(contentsOf: destination) == Data("new".utf8))
            #expect(try Data(contentsOf: finished) == Data("old".utf8))
        }
    #endif

    @Test func aMissingDestinationIsCreated() throws {
        // When
        try FileCalls.replace(destination, with: finished)
        // Then
        #expect(try Data(contentsOf: destination) == Data("new".utf8))
        #expect(try entries() == ["poster.jpg"])
    }

    @Test func aFolderAtTheDestinationIsRefusedAndKept() throws {
        // Given a folder with a file in it where the download should go
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: destination.appendingPathComponent("inside.txt"))
        // When
        #expect(throws: NetworkError.self) { try FileCalls.replace(destination, with: finished) }
        // Then the folder and the finished file are where they were
        #expect(try Data(contentsOf: destination.appendingPathComponent("inside.txt")) == Data("keep".utf8))
        #expect(try Data(contentsOf: finished) == Data("new".utf8))
    }

    @Test func aSymbolicLinkAtTheDestinationIsReplacedAndItsTargetKept() throws {
        // Given a link at the destination to a file elsewhere
        let target = folder.appendingPathComponent("target.txt")
        try Data("target".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: destination, withDestinationURL: target)
        // When
        try FileCalls.replace(destination, with: finished)
        // Then the link is gone, the destination is the new file, and the link's target is untouched
        let type = try FileManager.default.attributesOfItem(atPath: destination.path)[.type]
        #expect(type as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: destination) == Data("new".utf8))
        #expect(try Data(contentsOf: target) == Data("target".utf8))
    }
}
