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

    Benchmark("Observable map → removeDuplicates → 1 subscriber, set") { benchmark in
        let source = Binding.Observable(0)
        let chain = source.map { $0 &* 2 }.removeDuplicates()
        let subscription = chain.subscribe { blackHole($0) }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { source.value = value }
        benchmark.stopMeasurement()
        subscription.cancel()
    }
    Benchmark("CurrentValueSubject map → removeDuplicates → sink, send") { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.map { $0 &* 2 }.removeDuplicates().sink { blackHole($0) }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
    }

    Benchmark("Observable combineLatest of 2, alternating sets") { benchmark in
        let first = Binding.Observable(0)
        let second = Binding.Observable(0)
        let pair = first.combineLatest(second)
        let subscription = pair.subscribe { blackHole($0.0 &+ $0.1) }
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { first.value = value } else { second.value = value }
        }
        benchmark.stopMeasurement()
        subscription.cancel()
    }
    Benchmark("CurrentValueSubject two sinks paired by hand, alternating sends") { benchmark in
        // OpenCombine 0.14 has no combineLatest: each sink reads the other subject's current value.
        let first = CurrentValueSubject<Int, Never>(0)
        let second = CurrentValueSubject<Int, Never>(0)
        var cancellables = Set<AnyCancellable>()
        first.sink { blackHole($0 &+ second.value) }.store(in: &cancellables)
        second.sink { blackHole(first.value &+ $0) }.store(in: &cancellables)
        benchmark.startMeasurement()
        for value in benchmark.scaledIterations {
            if value & 1 == 0 { first.send(value) } else { second.send(value) }
        }
        benchmark.stopMeasurement()
        cancellables.removeAll()
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
