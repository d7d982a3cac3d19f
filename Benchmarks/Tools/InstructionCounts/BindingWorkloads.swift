import Binding
import Foundation
import OpenCombine

// Binding's Observable beside OpenCombine 0.14's CurrentValueSubject.

func bindingWorkloads() -> [Workload] {
    [
        Workload(name: "set-1-subscriber-binding") {
            let observable = Binding.Observable(0)
            let subscription = observable.subscribe { blackHole($0) }
            return { count in
                for value in 0..<count { observable.value = value }
                blackHole(subscription)
            }
        },
        Workload(name: "set-1-subscriber-opencombine") {
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellable = subject.sink { blackHole($0) }
            return { count in
                for value in 0..<count { subject.send(value) }
                blackHole(cancellable)
            }
        },
        Workload(name: "combinelatest-2-binding") {
            let first = Binding.Observable(0)
            let second = Binding.Observable(0)
            let subscription = first.combineLatest(second).subscribe { blackHole($0.0 &+ $0.1) }
            return { count in
                for value in 0..<count {
                    if value & 1 == 0 { first.value = value } else { second.value = value }
                }
                blackHole(subscription)
            }
        },
        Workload(name: "combinelatest-2-opencombine") {
            // OpenCombine 0.14 has no combineLatest: each sink reads the other subject's current value, as
            // in the wall-clock benchmark.
            let first = CurrentValueSubject<Int, Never>(0)
            let second = CurrentValueSubject<Int, Never>(0)
            let sinks = [
                first.sink { blackHole($0 &+ second.value) }, second.sink { blackHole(first.value &+ $0) },
            ]
            return { count in
                for value in 0..<count {
                    if value & 1 == 0 { first.send(value) } else { second.send(value) }
                }
                blackHole(sinks)
            }
        },
        Workload(name: "set-100-subscribers-binding") {
            let observable = Binding.Observable(0)
            let bag = SubscriptionBag()
            for _ in 0..<100 { observable.subscribe { blackHole($0) }.store(in: bag) }
            return { count in
                for value in 0..<count { observable.value = value }
                blackHole(bag)
            }
        },
        Workload(name: "set-100-subscribers-opencombine") {
            let subject = CurrentValueSubject<Int, Never>(0)
            var cancellables = Set<AnyCancellable>()
            for _ in 0..<100 { subject.sink { blackHole($0) }.store(in: &cancellables) }
            let kept = cancellables
            return { count in
                for value in 0..<count { subject.send(value) }
                blackHole(kept)
            }
        },
        Workload(name: "map-removeduplicates-binding") {
            let source = Binding.Observable(0)
            let subscription = source.map { $0 &* 2 }.removeDuplicates().subscribe { blackHole($0) }
            return { count in
                for value in 0..<count { source.value = value }
                blackHole(subscription)
            }
        },
        Workload(name: "map-removeduplicates-opencombine") {
            let subject = CurrentValueSubject<Int, Never>(0)
            let cancellable = subject.map { $0 &* 2 }.removeDuplicates().sink { blackHole($0) }
            return { count in
                for value in 0..<count { subject.send(value) }
                blackHole(cancellable)
            }
        },
    ]
}
