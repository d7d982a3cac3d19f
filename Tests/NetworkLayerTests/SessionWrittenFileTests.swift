import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The rules of a download that URLSession writes itself, without a server: what resume data is kept,
/// which partial answers are accepted, where the file goes, and when a refused body stops.
@Suite("A download task's file, resume data and answers")
final class SessionWrittenFileTests: Sendable {
    let folder: URL
    /// Removes the folder, and what the tests left in it, when the suite's instance is released.
    private let temporary: TemporaryFolder

    init() throws {
        temporary = try TemporaryFolder.create("download-task-file")
        folder = temporary.url
    }

    func leftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
    }

    func file(_ name: String = "file.bin") -> SessionWrittenFile {
        SessionWrittenFile(destination: folder.appendingPathComponent(name))
    }

    func answer(_ status: Int, _ headers: [String: String] = [:]) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(
                url: exampleURL, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers))
    }

    func withResumeData(_ data: Data) -> URLError {
        URLError(.networkConnectionLost, userInfo: [SessionWrittenFile.resumeDataKey: data, "kept": "yes"])
    }

    // MARK: - Resume data

    @Test func theResumeDataOfAFailedTaskIsKeptForTheNextAttemptOnce() {
        // Given a failure carrying resume data as URLSession reports it on Apple platforms
        let file = file()
        // When
        _ = file.keepResumeData(of: withResumeData(Data([1, 2, 3])))
        // Then
        #expect(file.canResume)
        #expect(file.takeResumeData() == Data([1, 2, 3]))
        #expect(file.takeResumeData() == nil)
        #expect(!file.canResume)
    }

    @Test func theErrorReportedCarriesNoResumeDataWhichHoldsTheRequestsCredentials() {
        // When
        let reported = file().keepResumeData(of: withResumeData(Data([1, 2, 3])))
        // Then the rest of the error is kept
        let failure = reported as? URLError
        #expect(failure?.code == .networkConnectionLost)
        #expect(failure?.userInfo[SessionWrittenFile.resumeDataKey] == nil)
        #expect(failure?.userInfo["kept"] as? String == "yes")
    }

    @Test func aFailureWithoutResumeDataLeavesNothingToResumeFrom() {
        // Given
        let file = file()
        // When
        _ = file.keepResumeData(of: URLError(.networkConnectionLost))
        // Then
        #expect(!file.canResume)
    }

    // MARK: - Partial answers

    @Test func aResumedAnswerOfAnotherVersionFailsTheAttemptAndTheNextStartsOver() throws {
        // Given a first answer of version "a" whose task dropped, leaving resume data
        let file = file()
        try file.check(answer(200, ["ETag": "\"a\""]), resumed: false)
        _ = file.keepResumeData(of: withResumeData(Data([1])))
        // When the resume is answered with version "b"'s bytes (a server that ignores If-Range)
        #expect(throws: NetworkError.self) { try file.check(answer(206, ["ETag": "\"b\""]), resumed: true) }
        // Then no resume data is left, and the next attempt starts over
        #expect(!file.canResume)
        #expect(file.takeRestart())
        #expect(!file.takeRestart())
    }

    @Test func aResumedAnswerOfTheSameVersionContinuesTheFile() throws {
        // Given
        let file = file()
        try file.check(answer(200, ["ETag": "\"a\""]), resumed: false)
        // When / Then
        try file.check(answer(206, ["ETag": "\"a\""]), resumed: true)
        #expect(!file.takeRestart())
    }

    @Test func aResumedAnswerWithOnlyAWeakValidatorIsRefused() throws {
        // Given
        let file = file()
        try file.check(answer(200, ["ETag": "W/\"a\""]), resumed: false)
        // When / Then
        #expect(throws: NetworkError.self) { try file.check(answer(206, ["ETag": "W/\"a\""]), resumed: true) }
        #expect(file.takeRestart())
    }

    @Test func aPartialAnswerToARequestForTheWholeBodyIsRefused() throws {
        // Given a first request, which asks for no range
        let file = file()
        // When the server answers with part of the body
        let part = try answer(206, ["Content-Range": "bytes 0-99/1000"])
        // Then it is not taken for the file
        #expect(throws: NetworkError.self) { try file.check(part, resumed: false) }
        #expect(!file.takeRestart())
    }

    @Test func aPartialAnswerThatCoversTheWholeBodyIsAccepted() throws {
        try file().check(answer(206, ["Content-Range": "bytes 0-999/1000"]), resumed: false)
    }

    // MARK: - The file

    @Test func aFileHandedOverIsKeptThenMovedIntoPlace() throws {
        // Given a file URLSession handed over
        let destination = folder.appendingPathComponent("moved.bin")
        let file = SessionWrittenFile(destination: destination)
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("body".utf8).write(to: location)
        // When
        try file.adopt(location)
        let byteCount = try file.move(to: destination)
        // Then
        #expect(byteCount == 4)
        #expect(try Data(contentsOf: destination) == Data("body".utf8))
        #expect(try leftovers() == ["moved.bin"])
    }

    /// A background session's download to a destination holding a good file, whose task has handed
    /// over a file holding `body`.
    func staged(_ body: String) throws -> (SessionWrittenFile, URL) {
        let destination = folder.appendingPathComponent("placed.bin")
        try Data("good".utf8).write(to: destination)
        let file = SessionWrittenFile(destination: destination, stagesAtOnce: true)
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data(body.utf8).write(to: location)
        try file.adopt(location)
        return (file, destination)
    }

    @Test func aBackgroundSessionsFileIsStagedBesideItsDestinationAsItIsHandedOver() throws {
        // Given a download on a background session, whose app may be suspended once its events are in,
        // to a destination holding a good file; When the delegate keeps the file its task handed over
        let (file, destination) = try staged("body")
        // Then it waits beside the destination, out of URLSession's folder, and the good file stays until
        // the caller accepts the answer
        #expect(try Data(contentsOf: destination) == Data("good".utf8))
        #expect(try leftovers().count == 2)
        #expect(try file.move(to: destination) == 4)
        #expect(try Data(contentsOf: destination) == Data("body".utf8))
        #expect(try leftovers() == ["placed.bin"])
    }

    @Test func aStagedFileOfARejectedAnswerIsRemovedAndTheGoodFileKept() throws {
        // Given a staged file
        let (file, destination) = try staged("rejected")
        // When the answer is rejected
        file.discard()
        // Then
        #expect(try Data(contentsOf: destination) == Data("good".utf8))
        #expect(try leftovers() == ["placed.bin"])
    }

    @Test func aFileHandedOverIsRenamedInItsOwnFolderUntilTheCallerMovesIt() throws {
        // Given
        let file = file()
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("body".utf8).write(to: location)
        // When the delegate keeps it
        try file.adopt(location)
        // Then URLSession's name is free (it deletes that one when the delegate returns) and the file
        // waits, under a name of NetworkLayer's, in the same folder
        let names = try leftovers()
        #expect(names.count == 1)
        #expect(names.first?.hasPrefix(".networklayer-") == true)
        file.discard()
        #expect(try leftovers().isEmpty)
    }

    @Test func aFileHandedOverAfterTheDownloadWasGivenUpIsRemoved() throws {
        // Given a download given up (cancelled) as its task finished
        let file = file()
        file.discard()
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("late".utf8).write(to: location)
        // When the task hands its file over
        try file.adopt(location)
        // Then nothing remains
        #expect(try leftovers().isEmpty)
    }

    @Test func aMoveIntoAMissingFolderFailsAndLeavesNothing() throws {
        // Given a kept file whose destination's folder has gone
        let destination = folder.appendingPathComponent("gone").appendingPathComponent("file.bin")
        let file = SessionWrittenFile(destination: destination)
        let location = folder.appendingPathComponent("urlsession-file.tmp")
        try Data("body".utf8).write(to: location)
        try file.adopt(location)
        // When / Then
        #expect(throws: NetworkError.self) { _ = try file.move(to: destination) }
        #expect(try leftovers().isEmpty)
    }

    // MARK: - A refused answer

    @Test func aRefusedAnswersBodyPastTheLimitStopsTheTransfer() async throws {
        // Given a transfer whose answer is refused
        let sink = DownloadTaskSink(file: file(), accepts: 200..<300, resumed: false, progress: nil)
        let handler = TransferHandler(
            sink: sink, idleTimeout: nil, deadline: nil, deadlines: DeadlineTimer(), progress: nil)
        let refused = try answer(500)
        // When URLSession has written 1 MiB of its body, then more
        handler.wrote(1 << 20, total: 1 << 20, of: -1, response: refused)
        let stoppedAtTheLimit = handler.hasEnded
        handler.wrote(1, total: (1 << 20) + 1, of: -1, response: refused)
        // Then the transfer stops past the limit, not at it
        #expect(!stoppedAtTheLimit)
        try #require(handler.hasEnded)
        await #expect(throws: RefusedBodyKept.self) { try await handler.end() }
        #expect(try await handler.head().statusCode == 500)
    }

    @Test func anAttemptStoppedForItsRefusedBodyAnswersWithTheStatusAndNoBody() async throws {
        // Given an attempt whose refused body passed its limit
        let file = file()
        let sink = DownloadTaskSink(file: file, accepts: 200..<300, resumed: false, progress: nil)
        let handler = TransferHandler(
            sink: sink, idleTimeout: nil, deadline: nil, deadlines: DeadlineTimer(), progress: nil)
        handler.wrote((1 << 20) + 1, total: (1 << 20) + 1, of: -1, response: try answer(503))
        // When
        let (body, head) = try await SessionWrittenDownload.answer(
            of: handler, sink: sink, file: file, timeout: .seconds(9))
        // Then the middlewares and the caller get the status, to judge as any refused answer
        #expect(head.statusCode == 503)
        #expect(body.isEmpty)
    }

    @Test func aFileTheSystemCouldNotWriteIsAFileError() {
        for failure in [POSIXError(.ENOSPC) as any Error, CocoaError(.fileWriteOutOfSpace)] {
            let reported = SessionWrittenDownload.failure(failure, timeout: .seconds(9))
            guard case .file? = reported as? NetworkError else {
                Issue.record("expected a file error, got \(reported)")
                continue
            }
        }
    }

    @Test func anAcceptedBodyIsNeverStoppedForItsSize() {
        // Given
        let sink = DownloadTaskSink(file: file(), accepts: 200..<300, resumed: false, progress: nil)
        // When / Then
        #expect(sink.wrote(1 << 40, of: -1))
    }

    @Test func aFileURLSessionCouldNotWriteIsAFileErrorNeverResumed() {
        // When
        let reported = SessionWrittenDownload.failure(URLError(.cannotWriteToFile), timeout: .seconds(9))
        // Then
        guard case .file? = reported as? NetworkError else {
            Issue.record("expected a file error, got \(reported)")
            return
        }
        #expect(!NetworkProvider.mayResume(after: reported))
    }

    @Test func urlSessionsOwnTimeoutIsReportedAsTheEndpointsTimeout() {
        let reported = SessionWrittenDownload.failure(URLError(.timedOut), timeout: .seconds(9))
        #expect((reported as? NetworkError).map { "\($0)" } == "\(NetworkError.timedOut(.seconds(9)))")
    }

    @Test func theEndpointsTimeoutBecomesURLSessionsIdleTimeout() {
        #expect(SessionWrittenDownload.idleTimeoutInterval(.seconds(30)) == 30)
        #expect(SessionWrittenDownload.idleTimeoutInterval(.milliseconds(1500)) == 1.5)
        #expect(SessionWrittenDownload.idleTimeoutInterval(.zero) == 0.001)
        #expect(SessionWrittenDownload.idleTimeoutInterval(.seconds(Int64.max)) == 7 * 86_400)
    }
}
