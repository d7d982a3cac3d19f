import Binding
import TestSupport
import Testing

@Suite("Observable: filter, compactMap, scan, dropFirst")
struct FilteringAndAccumulatingTests {
    @Test func filterTakesOnlyTheValuesThatPass() {
        // Given a query that must be at least two characters
        let text = Observable("ab")
        let query = text.filter(initial: "") { $0.count >= 2 }
        let received = Recorder<String>()
        let subscription = query.subscribe { received.append($0) }
        // When
        text.value = "a"
        text.value = "abc"
        // Then
        #expect(received.values == ["ab", "abc"])
        _ = subscription
    }

    @Test func filterStartsWithItsInitialValueWhenTheCurrentValueFails() {
        // Given a current value that fails the test
        let text = Observable("a")
        // When
        let query = text.filter(initial: "none") { $0.count >= 2 }
        // Then
        #expect(query.value == "none")
    }

    @Test func compactMapSkipsNilResultsAndStartsFromItsInitialValue() {
        // Given text that is not a number yet
        let yearText = Observable("twenty")
        let year = yearText.compactMap(initial: 2026) { Int($0) }
        let received = Recorder<Int>()
        let subscription = year.subscribe { received.append($0) }
        // When
        yearText.value = "1999"
        yearText.value = "x"
        yearText.value = "2001"
        // Then
        #expect(received.values == [2026, 1999, 2001])
        _ = subscription
    }

    @Test func scanAccumulatesTheCurrentValueThenEveryChangeOnce() {
        // Given
        let sale = Observable(5)
        let total = sale.scan(100) { $0 + $1 }
        let received = Recorder<Int>()
        let subscription = total.subscribe { received.append($0) }
        // When
        sale.value = 10
        sale.value = 1
        // Then: the current value is counted once, not twice
        #expect(received.values == [105, 115, 116])
        _ = subscription
    }

    @Test func dropFirstSkipsTheCurrentValueForEachSubscriber() {
        // Given two subscribers of one dropFirst
        let query = Observable("")
        let changes = query.dropFirst()
        let first = Recorder<String>()
        let second = Recorder<String>()
        let one = changes.subscribe { first.append($0) }
        query.value = "a"
        // When the second subscribes later
        let two = changes.subscribe { second.append($0) }
        query.value = "ab"
        // Then each skipped exactly the value it got at subscription
        #expect(first.values == ["a", "ab"])
        #expect(second.values == ["ab"])
        #expect(changes.value == "ab")
        _ = (one, two)
    }

    @Test func dropFirstOfThreeSkipsThreeValues() {
        // Given
        let count = Observable(0)
        let received = Recorder<Int>()
        // When
        let subscription = count.dropFirst(3).subscribe { received.append($0) }
        for value in 1...4 { count.value = value }
        // Then
        #expect(received.values == [3, 4])
        _ = subscription
    }

    @Test func mapRunsItsTransformOncePerValue() {
        // Given
        let count = Observable(1)
        let calls = Recorder<Int>()
        // When
        let doubled = count.map { value in
            calls.append(value)
            return value * 2
        }
        count.value = 2
        // Then
        #expect(calls.values == [1, 2])
        #expect(doubled.value == 4)
    }

    @Test func aChainReleasedAtItsEndStopsTransforming() {
        // Given a chain whose end is released
        let count = Observable(1)
        let calls = Recorder<Int>()
        var chain: Observable<Int>? = count.map { value in
            calls.append(value)
            return value
        }.filter(initial: 0) { $0 > 0 }.removeDuplicates()
        #expect(chain?.value == 1)
        // When
        chain = nil
        count.value = 2
        // Then
        #expect(calls.values == [1])
        #expect(count.subscriberCount == 0)
    }
}

@Suite("Subscriptions keep what they subscribe to")
struct SubscriptionLifetimeTests {
    @Test func aSubscriptionToAnUnheldMapKeepsReceivingChanges() {
        // Given a chain whose only reference is the token, as in `x.map(f).subscribe { … }.store(in: bag)`
        let isLoading = Observable(false)
        let received = Recorder<String>()
        let bag = SubscriptionBag()
        isLoading.map { $0 ? "Loading…" : "Ready" }.subscribe { received.append($0) }.store(in: bag)
        // When
        isLoading.value = true
        // Then
        #expect(received.values == ["Ready", "Loading…"])
    }

    @Test func cancellingTheTokenReleasesTheChain() {
        // Given
        let count = Observable(0)
        let subscription = count.map { $0 + 1 }.subscribe { _ in }
        #expect(count.subscriberCount == 1)
        // When
        subscription.cancel()
        // Then
        #expect(count.subscriberCount == 0)
    }
}

@Suite("dropFirst before another operator")
struct DropFirstChainTests {
    @Test func anOperatorAfterDropFirstFollowsEveryChange() {
        // Given an operator after dropFirst
        let query = Observable("")
        let upper = query.dropFirst().map { $0.uppercased() }
        // When
        query.value = "a"
        // Then the first change is not skipped
        #expect(upper.value == "A")
    }

    @Test(arguments: [1, 2, 3])
    func anOperatorAfterDropFirstOfAnyCountFollowsTheFirstChange(count: Int) {
        // Given a map after dropFirst(count)
        let source = Observable(3)
        let tenfold = source.dropFirst(count).map { $0 * 10 }
        // When the source changes once
        source.value = 4
        // Then the map has followed it
        #expect(tenfold.value == 40)
    }

    @Test(arguments: [2, 3])
    func aSubscriberOfAnOperatorAfterDropFirstSeesEveryChange(count: Int) {
        // Given a subscriber of a map after dropFirst(count)
        let source = Observable(1)
        let received = Recorder<Int>()
        let subscription = source.dropFirst(count).map { $0 * 10 }.subscribe { received.append($0) }
        // When the source changes twice
        source.value = 2
        source.value = 3
        // Then the subscriber saw the map's current value and both changes
        #expect(received.values == [10, 20, 30])
        subscription.cancel()
    }
}
