import Binding
import TestSupport
import Testing

@Suite("Observable: operators")
struct OperatorTests {
    @Test func mapTransformsTheCurrentValueAndEveryChange() {
        // Given
        let count = Observable(1)
        let text = count.map { "\($0) movies" }
        let received = Recorder<String>()
        let subscription = text.subscribe { received.append($0) }
        // When
        count.value = 2
        // Then
        #expect(received.values == ["1 movies", "2 movies"])
        _ = subscription
    }

    @Test func removeDuplicatesSkipsRepeatedValues() {
        // Given
        let mode = Observable("list")
        let distinct = mode.removeDuplicates()
        let received = Recorder<String>()
        let subscription = distinct.subscribe { received.append($0) }
        // When
        mode.value = "list"
        mode.value = "grid"
        mode.value = "grid"
        mode.value = "list"
        // Then
        #expect(received.values == ["list", "grid", "list"])
        _ = subscription
    }

    @Test func combineLatestPairsTheLatestOfBothSources() {
        // Given
        let date = Observable("d1")
        let mode = Observable("list")
        let both = date.combineLatest(mode)
        let received = Recorder<String>()
        let subscription = both.subscribe { received.append("\($0.0)/\($0.1)") }
        // When
        date.value = "d2"
        mode.value = "grid"
        // Then
        #expect(received.values == ["d1/list", "d2/list", "d2/grid"])
        _ = subscription
    }

    @Test func twoWayBindingCopiesChangesBothWaysWithoutPingPong() {
        // Given
        let field = Observable("a")
        let model = Observable("z")
        let fieldChanges = Recorder<String>()
        let modelChanges = Recorder<String>()
        let watchField = field.subscribe { fieldChanges.append($0) }
        let watchModel = model.subscribe { modelChanges.append($0) }
        // When
        let binding = field.bind(to: model)
        field.value = "b"
        model.value = "c"
        // Then each change crossed once and stopped
        #expect(model.value == "c")
        #expect(field.value == "c")
        #expect(fieldChanges.values == ["a", "b", "c"])
        #expect(modelChanges.values == ["z", "a", "b", "c"])
        _ = (binding, watchField, watchModel)
    }

    @Test func cancellingATwoWayBindingStopsBothDirections() {
        // Given
        let field = Observable(1)
        let model = Observable(1)
        let binding = field.bind(to: model)
        // When
        binding.cancel()
        field.value = 2
        model.value = 3
        // Then
        #expect(field.value == 2)
        #expect(model.value == 3)
    }

    @Test func aTwoWayBindingFromADropFirstObservableCopiesItsValueToTheOtherSide() {
        // Given a dropFirst observable of "a", and a model holding "z"
        let field = Observable("a").dropFirst()
        let model = Observable("z")
        // When they are bound
        let binding = field.bind(to: model)
        // Then the other side takes this side's value, as with any observable
        #expect(model.value == "a")
        #expect(field.value == "a")
        _ = binding
    }

    @Test func aTwoWayBindingToADropFirstObservableCopiesItsFirstChange() {
        // Given a model bound to a dropFirst(2) observable
        let field = Observable(1).dropFirst(2)
        let model = Observable(0)
        let binding = model.bind(to: field)
        // When the field changes
        field.value = 2
        // Then the change crossed at once
        #expect(model.value == 2)
        _ = binding
    }

    @Test func aDerivedObservableDoesNotLeakItselfOrItsSource() {
        // Given
        weak var weakSource: Observable<Int>?
        weak var weakDerived: Observable<String>?
        // When
        do {
            let source = Observable(1)
            let derived = source.map { "\($0)" }.removeDuplicates()
            weakSource = source
            weakDerived = derived
            source.value = 2
            #expect(derived.value == "2")
        }
        // Then
        #expect(weakSource == nil)
        #expect(weakDerived == nil)
    }

    @Test func releasingADerivedObservableUnsubscribesItFromItsSource() {
        // Given
        let source = Observable(1)
        var derived: Observable<Int>? = source.map { $0 * 2 }
        #expect(source.subscriberCount == 1)
        // When
        derived = nil
        // Then
        #expect(source.subscriberCount == 0)
        _ = derived
    }
}
