import AppGraph
import DIKit
import Foundation
import Swinject

// The same registrations in DIKit and Swinject 2.10.

protocol SessionProtocol: AnyObject, Sendable {}
final class Session: SessionProtocol {}
final class Transient: Sendable {}

func dikitWorkloads() -> [Workload] {
    [
        Workload(name: "resolve-singleton-dikit") {
            let container = DIKit.Container()
            container.register((any SessionProtocol).self, scope: .singleton) { _ in Session() }
            return { count in
                for _ in 0..<count { blackHole(try? container.resolve((any SessionProtocol).self)) }
            }
        },
        Workload(name: "resolve-singleton-swinject") {
            let container = Swinject.Container()
            container.register((any SessionProtocol).self) { _ in Session() }.inObjectScope(.container)
            return { count in
                for _ in 0..<count { blackHole(container.resolve((any SessionProtocol).self)) }
            }
        },
        Workload(name: "resolve-transient-dikit") {
            let container = DIKit.Container()
            container.register(Transient.self) { _ in Transient() }
            return { count in
                for _ in 0..<count { blackHole(try? container.resolve(Transient.self)) }
            }
        },
        Workload(name: "resolve-transient-swinject") {
            let container = Swinject.Container()
            container.register(Transient.self) { _ in Transient() }.inObjectScope(.transient)
            return { count in
                for _ in 0..<count { blackHole(container.resolve(Transient.self)) }
            }
        },
        // The app-shaped graph (12 services, 5 levels) of the wall-clock benchmarks, resolved whole.
        Workload(name: "app-graph-dikit") {
            let graph = makeDIKitGraph()
            return { count in
                for _ in 0..<count { blackHole(try? graph.resolve(GraphAppScreen.self)) }
            }
        },
        Workload(name: "app-graph-swinject") {
            let graph = makeSwinjectGraph()
            return { count in
                for _ in 0..<count { blackHole(graph.resolve(GraphAppScreen.self)) }
            }
        },
        Workload(name: "app-graph-handwritten") {
            let graph = HandWrittenGraph()
            return { count in
                for _ in 0..<count { blackHole(graph.makeAppScreen()) }
            }
        },
    ]
}
