import Benchmark
import Binding
import Foundation
import OpenCombine

// Binding's Observable against OpenCombine's CurrentValueSubject, doing the same work.

let smoke = ProcessInfo.processInfo.environment["BENCHMARK_SMOKE"] != nil

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo,
        maxDuration: .seconds(smoke ? 1 : 2), maxIterations: smoke ? 1 : 1_000)

    for subscribers in [1, 10, 100] {
        Benchmark("Observable set, \(subscribers) subscriber(s)") { benchmark in
            let observable = Binding.Observable(0)
            let bag = SubscriptionBag()
            for _ in 0..<subscribers { observable.subscribe { blackHole($0) }.store(in: bag) }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { observable.value = value }
            benchmark.stopMeasurement()
            bag.cancelAll()
        }
        Benchmark("CurrentValueSubject send, \(subscribers) subscriber(s)") { benchmark in
            let subject = CurrentValueSubject<Int, Never>(0)
            var cancellables = Set<AnyCancellable>()
            for _ in 0..<subscribers { subject.sink { blackHole($0) }.store(in: &cancellables) }
            benchmark.startMeasurement()
            for value in benchmark.scaledIterations { subject.send(value) }
            benchmark.stopMeasurement()
            cancellables.removeAll()
        }
    }

    Benchmark("Observable subscribe then cancel") { benchmark in
        let observable = Binding.Observable(0)
        for _ in benchmark.scaledIterations {
            let subscription = observable.subscribe { blackHole($0) }
            subscription.cancel()
        }
    }
    Benchmark("CurrentValueSubject sink then cancel") { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        for _ in benchmark.scaledIterations {
            let cancellable = subject.sink { blackHole($0) }
            cancellable.cancel()
        }
    }
}
