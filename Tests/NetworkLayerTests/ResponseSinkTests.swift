import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one sink every transfer but a download task feeds: it decides once, at the head, whether the
/// status is accepted, sends an accepted body to its destination and keeps a refused one's first bytes
/// whatever the destination. Driven by hand here, as a transfer would drive it.
@Suite("ResponseSink: one accept-or-refuse decision, any destination")
struct ResponseSinkTests {
    /// Where a test's sink writes.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case whole, stream, file
        var testDescription: String { rawValue }
    }

    private let temporary: TemporaryFolder
    private let rules = AttemptRules(endpoint: "poster", accepts: 200...299, limit: .max)

    init() throws {
        temporary = try TemporaryFolder.create("sink")
    }

    private func sink(_ kind: Kind) -> (ResponseSink, ChunkChannel, ProviderWrittenFile) {
        let channel = ChunkChannel(bufferLimit: 64 << 10)
        let file = ProviderWrittenFile(destination: temporary.url.appendingPathComponent("poster.bin"))
        let sinkDestination: ResponseSink.Destination =
            switch kind {
            case .whole: .whole
            case .stream: .stream(channel)
            case .file: .file(file, progress: nil)
            }
        return (ResponseSink(sinkDestination, rules: rules, method: "GET"), channel, file)
    }

    /// Whether nothing reached the stream's channel or the file's folder (its partial file included).
    private func nothingReachedTheDestination(_ channel: ChunkChannel) async throws -> Bool {
        channel.close(nil)
        let chunk = try await channel.next()
        let entries = try FileManager.default.contentsOfDirectory(atPath: temporary.url.path)
        return chunk == nil && entries.isEmpty
    }

    private func head(_ status: Int) throws -> HTTPURLResponse {
        try #require(
            HTTPURLResponse(url: exampleURL, statusCode: status, httpVersion: nil, headerFields: nil))
    }

    @Test(arguments: Kind.allCases)
    func aRefusedStatusKeepsItsBodysFirstMebibyteWhateverTheDestination(kind: Kind) async throws {
        // Given a sink, and a 503 whose body runs past 1 MiB in 64 KiB chunks
        let (sink, channel, _) = sink(kind)
        let answers = Recorder<ResponseSink.Answer>()
        sink.answers { answers.append($0) }
        let chunk = Data(repeating: 7, count: 64 << 10)
        // When the transfer feeds it until it says stop
        try sink.open(try head(503))
        var stopped: (any Error)?
        for _ in 0..<20 where stopped == nil {
            do { try sink.write(chunk) } catch { stopped = error }
        }
        sink.close(stopped)
        // Then it stopped once more than 1 MiB arrived, and answered with the status and the first MiB
        #expect(stopped is RefusedBodyKept)
        #expect(sink.isRefused)
        let (body, answered) = try #require(try answers.values.first?.get())
        #expect(answered.statusCode == 503)
        // (compared by count and content: a failed `==` of 1 MiB makes the test library diff it for
        // minutes)
        #expect(body.count == RefusedBody.limit)
        #expect(body.allSatisfy { $0 == 7 })
        #expect(answers.values.count == 1)
        // And nothing of it reached the destination
        #expect(try await nothingReachedTheDestination(channel))
    }

    @Test(arguments: Kind.allCases)
    func aSinkClosedBeforeItsAnswerCameTakesNothingOfALateOne(kind: Kind) async throws {
        // Given a sink whose caller left (a timeout, a cancellation) before any answer
        let (sink, channel, _) = sink(kind)
        let answers = Recorder<ResponseSink.Answer>()
        sink.answers { answers.append($0) }
        sink.close(CancellationError())
        // When the session answers anyway, late
        sink.receive(try head(200), body: Data("late".utf8))
        // Then the caller had one answer, the failure, and the late body reached nothing
        #expect(answers.values.count == 1)
        #expect(throws: CancellationError.self) { try answers.values.first?.get() }
        #expect(try await nothingReachedTheDestination(channel))
    }

    @Test func anAcceptedStreamAnswersAtItsHeadAndItsBodyFollowsThroughTheChannel() async throws {
        // Given a stream's sink
        let (sink, channel, _) = sink(.stream)
        let answers = Recorder<ResponseSink.Answer>()
        sink.answers { answers.append($0) }
        // When the head arrives
        try sink.open(try head(200))
        // Then the caller has its answer before any byte of the body
        let (body, answered) = try #require(try answers.values.first?.get())
        #expect(answered.statusCode == 200)
        #expect(body.isEmpty)
        // And the bytes that follow, and the end, go to the reader only
        try sink.write(Data("data: 1\n\n".utf8))
        sink.close(nil)
        #expect(try await channel.next() == Data("data: 1\n\n".utf8))
        #expect(try await channel.next() == nil)
        #expect(answers.values.count == 1)
    }

    @Test func anAcceptedFileAnswersWhenItsTransferEndsWithItsBodyInTheFile() async throws {
        // Given a download's sink
        let (sink, _, file) = sink(.file)
        let answers = Recorder<ResponseSink.Answer>()
        sink.answers { answers.append($0) }
        // When a 200 and its body arrive
        try sink.open(try head(200))
        try sink.write(Data("poster".utf8))
        let answeredBeforeTheEnd = !answers.values.isEmpty
        sink.close(nil)
        // Then it answers at the end, with no body of its own: the body went to the file
        #expect(!answeredBeforeTheEnd)
        let (body, answered) = try #require(try answers.values.first?.get())
        #expect(answered.statusCode == 200)
        #expect(body.isEmpty)
        #expect(sink.received == 6)
        try await file.finishWriting()
        let placed = temporary.url.appendingPathComponent("placed.bin")
        try file.move(to: placed)
        #expect(try Data(contentsOf: placed) == Data("poster".utf8))
    }

    @Test func aWholeBodyPastItsLimitStopsTheTransferAsTooLarge() throws {
        // Given a whole-body sink with a limit of 4 bytes
        let sink = ResponseSink(
            .whole, rules: AttemptRules(endpoint: "poster", accepts: 200...299, limit: 4), method: "GET")
        try sink.open(try head(200))
        // When 5 bytes arrive
        let thrown = #expect(throws: NetworkError.self) { try sink.write(Data("12345".utf8)) }
        // Then
        #expect(thrown?.sizeLimit == 4)
    }

    @Test func anAnswerGivenBeforeItsTakerIsSetIsGivenWhenItIs() throws {
        // Given a sink that answered before anyone asked (a session that answered at once)
        let (sink, _, _) = sink(.whole)
        sink.receive(try head(204), body: Data())
        // When the caller sets where the answer goes
        let answers = Recorder<ResponseSink.Answer>()
        sink.answers { answers.append($0) }
        // Then it has it, once
        #expect(try answers.values.first?.get().1.statusCode == 204)
        #expect(answers.values.count == 1)
    }

    @Test(
        arguments: [
            (200, 3, nil), (200, 0, nil), (200, 5, "5"), (200, 3, "99"), (200, 9, nil), (404, 3, nil),
            (404, 9, "9"), (204, 0, "99"),
        ] as [(Int, Int, String?)])
    func aBodyThatArrivesWholeIsAnsweredAsTheSameBodyArrivingInATransfer(
        status: Int, length: Int, contentLength: String?
    ) throws {
        // Given two whole-body sinks with a limit of 5 bytes, and an answer
        let rules = AttemptRules(endpoint: "poster", accepts: 200...299, limit: 5)
        let (whole, transfer) = (
            ResponseSink(.whole, rules: rules, method: "GET"),
            ResponseSink(.whole, rules: rules, method: "GET")
        )
        let head = try #require(
            HTTPURLResponse(
                url: exampleURL, statusCode: status, httpVersion: nil,
                headerFields: contentLength.map { ["Content-Length": $0] }))
        let body = Data(repeating: 1, count: length)
        let (fromWhole, fromTransfer) = (Recorder<ResponseSink.Answer>(), Recorder<ResponseSink.Answer>())
        whole.answers { fromWhole.append($0) }
        transfer.answers { fromTransfer.append($0) }
        // When one gets it whole and the other as a transfer delivers it, a byte at a time
        whole.receive(head, body: body)
        do {
            try transfer.open(head)
            for byte in body { try transfer.write(Data([byte])) }
            transfer.close(nil)
        } catch {
            transfer.close(error)
        }
        // Then both answer alike: the same body, or the same error
        let (one, other) = (try #require(fromWhole.values.first), try #require(fromTransfer.values.first))
        switch (one, other) {
        case (.success(let one), .success(let other)):
            #expect(one.0 == other.0)
            #expect(one.1 === head && other.1 === head)
        case (.failure(let one), .failure(let other)):
            #expect((one as? NetworkError)?.sizeLimit == 5)
            #expect((other as? NetworkError)?.sizeLimit == 5)
        default:
            Issue.record("one answered \(one), the other \(other)")
        }
        #expect(whole.isRefused == transfer.isRefused)
    }
}
