import AppGraph
import Benchmark
import DIKit
import Foundation
import Swinject

// The same registrations in DIKit, Swinject 2.10, and a lock-guarded dictionary (the floor).

protocol SessionProtocol: AnyObject, Sendable {}
protocol RepositoryProtocol: AnyObject, Sendable {}
protocol ViewModelProtocol: AnyObject, Sendable {}
final class Session: SessionProtocol {}
final class Repository: RepositoryProtocol {
    let session: any SessionProtocol
    init(session: any SessionProtocol) { self.session = session }
}
final class ViewModel: ViewModelProtocol {
    let repository: any RepositoryProtocol
    init(repository: any RepositoryProtocol) { self.repository = repository }
}
final class Transient: Sendable {}
final class Named: Sendable {}

let smoke = ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(smoke ? 1 : 2), maxIterations: smoke ? 1 : 1_000)

    let dikit = DIKit.Container()
    dikit.register((any SessionProtocol).self, scope: .singleton) { _ in Session() }
    dikit.register(Transient.self) { _ in Transient() }
    dikit.register((any RepositoryProtocol).self) { Repository(session: try $0.resolve()) }
    dikit.register((any ViewModelProtocol).self) { ViewModel(repository: try $0.resolve()) }
    dikit.register(Named.self, name: "live", scope: .singleton) { _ in Named() }

    let swinject = Swinject.Container()
    swinject.register((any SessionProtocol).self) { _ in Session() }.inObjectScope(.container)
    swinject.register(Transient.self) { _ in Transient() }.inObjectScope(.transient)
    // Swinject's resolve returns an optional; a fallback keeps the graph the same shape without `!`.
    swinject.register((any RepositoryProtocol).self) {
        Repository(session: $0.resolve((any SessionProtocol).self) ?? Session())
    }.inObjectScope(.transient)
    swinject.register((any ViewModelProtocol).self) {
        ViewModel(repository: $0.resolve((any RepositoryProtocol).self) ?? Repository(session: Session()))
    }.inObjectScope(.transient)
    swinject.register(Named.self, name: "live") { _ in Named() }.inObjectScope(.container)

    let lock = NSLock()
    let dictionary: [ObjectIdentifier: AnyObject] = [ObjectIdentifier((any SessionProtocol).self): Session()]

    // MARK: Singleton
    Benchmark("DIKit resolve singleton") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try dikit.resolve((any SessionProtocol).self)) }
    }
    Benchmark("Swinject resolve singleton") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve((any SessionProtocol).self)) }
    }
    Benchmark("Locked dictionary lookup (floor)") { benchmark in
        let key = ObjectIdentifier((any SessionProtocol).self)
        for _ in benchmark.scaledIterations {
            lock.lock()
            let value = dictionary[key] as? any SessionProtocol
            lock.unlock()
            blackHole(value)
        }
    }

    // MARK: Transient
    Benchmark("DIKit resolve transient") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try dikit.resolve(Transient.self)) }
    }
    Benchmark("Swinject resolve transient") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(Transient.self)) }
    }

    // MARK: A 3-level graph (view model → repository → singleton session)
    Benchmark("DIKit resolve 3-level graph") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try dikit.resolve((any ViewModelProtocol).self)) }
    }
    Benchmark("Swinject resolve 3-level graph") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve((any ViewModelProtocol).self)) }
    }

    // MARK: Named
    Benchmark("DIKit resolve named") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try dikit.resolve(Named.self, name: "live")) }
    }
    Benchmark("Swinject resolve named") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinject.resolve(Named.self, name: "live")) }
    }

    // MARK: An app-shaped graph (12 services, 4 singletons, 8 transients, 5 levels)
    let dikitGraph = makeDIKitGraph()
    let swinjectGraph = makeSwinjectGraph()
    let swinjectSynchronizedGraph = makeSwinjectGraph().synchronize()
    let handWrittenGraph = HandWrittenGraph()
    Benchmark("DIKit resolve app graph") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try dikitGraph.resolve(GraphAppScreen.self)) }
    }
    Benchmark("Swinject resolve app graph") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(swinjectGraph.resolve(GraphAppScreen.self)) }
    }
    Benchmark("Swinject synchronized resolve app graph") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(swinjectSynchronizedGraph.resolve(GraphAppScreen.self))
        }
    }
    // Two threads at once, each resolving as many graphs as the one-thread rows: the same work per
    // thread, so a container that scales takes the one-thread time (2x the rate), and contention
    // shows as the time above it.
    Benchmark("DIKit resolve app graph, two threads") { benchmark in
        let count = benchmark.scaledIterations.count
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<count { blackHole(try? dikitGraph.resolve(GraphAppScreen.self)) }
        }
    }
    let sharedSwinject = SynchronizedSwinject(resolver: swinjectSynchronizedGraph)
    Benchmark("Swinject synchronized resolve app graph, two threads") { benchmark in
        let count = benchmark.scaledIterations.count
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<count { blackHole(sharedSwinject.resolver.resolve(GraphAppScreen.self)) }
        }
    }
    Benchmark("Hand-written app graph") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(handWrittenGraph.makeAppScreen()) }
    }
    Benchmark("Hand-written app graph, two threads") { benchmark in
        let count = benchmark.scaledIterations.count
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            for _ in 0..<count { blackHole(handWrittenGraph.makeAppScreen()) }
        }
    }

    // MARK: Property-wrapper injection
    struct Screen {
        @Inject var session: any SessionProtocol
    }
    Benchmark("DIKit @Inject property wrapper") { benchmark in
        Container.$current.withValue(dikit) {
            for _ in benchmark.scaledIterations { blackHole(Screen()) }
        }
    }
}

/// Swinject's synchronized resolver, shared by two threads.
struct SynchronizedSwinject: @unchecked Sendable {
    // @unchecked Sendable: `synchronize()` returns the resolver Swinject documents as safe to use from
    // several threads (every resolve takes its recursive lock); the protocol just is not `Sendable`.
    let resolver: any Swinject.Resolver
}
