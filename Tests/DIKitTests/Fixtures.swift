import DIKit
import Foundation

// A tiny app graph in the shape of the box office example.
protocol NetworkSessionType: Sendable {}
protocol BoxOfficeRepository: Sendable { var session: any NetworkSessionType { get } }

final class URLSessionStub: NetworkSessionType, @unchecked Sendable {
    // @unchecked Sendable: no stored state.
}
final class LiveSession: NetworkSessionType {}
final class RecordingSession: NetworkSessionType {}

final class KobisRepository: BoxOfficeRepository {
    let session: any NetworkSessionType
    init(session: any NetworkSessionType) { self.session = session }
}

final class DailyBoxOfficeViewModel: Sendable {
    let repository: any BoxOfficeRepository
    init(repository: any BoxOfficeRepository) { self.repository = repository }
}

/// Counts how many instances a factory made, from any thread.
final class Counter: Sendable {
    private let lock = NSLock()
    // nonisolated(unsafe): `count` is only touched while holding `lock`.
    nonisolated(unsafe) private var count = 0

    func increment() {
        lock.lock()
        count += 1
        lock.unlock()
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

final class Service: Sendable {
    let id = UUID()
}

struct ValueService: Sendable {
    let id = UUID()
}

struct FactoryError: Error, CustomStringConvertible {
    var description: String { "the disk is full" }
}

func makeAppContainer() -> Container {
    let container = Container()
    container.register(NetworkSessionType.self, scope: .singleton) { _ in LiveSession() }
    container.register(BoxOfficeRepository.self) { resolver in
        KobisRepository(session: try resolver.resolve())
    }
    container.register(DailyBoxOfficeViewModel.self) { resolver in
        DailyBoxOfficeViewModel(repository: try resolver.resolve())
    }
    return container
}
