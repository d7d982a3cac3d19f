import Binding
import TestSupport
import Testing

@Suite("Observable: combineLatest of three, merge")
struct CombiningOperatorTests {
    @Test func combineLatestOfThreeTracksTheLatestOfEach() {
        // Given
        let date = Observable("d1")
        let mode = Observable("list")
        let page = Observable(1)
        let all = date.combineLatest(mode, page)
        let received = Recorder<String>()
        let subscription = all.subscribe { received.append("\($0.0)/\($0.1)/\($0.2)") }
        // When
        page.value = 2
        date.value = "d2"
        mode.value = "grid"
        // Then
        #expect(received.values == ["d1/list/1", "d1/list/2", "d2/list/2", "d2/grid/2"])
        _ = subscription
    }

    @Test func combineLatestReleasesItsRelayWithTheDerivedObservable() {
        // Given
        let left = Observable(0)
        let right = Observable(0)
        var pair: Observable<(Int, Int)>? = left.combineLatest(right)
        #expect(left.subscriberCount == 1)
        // When
        pair = nil
        left.value = 1
        right.value = 1
        // Then
        #expect(pair == nil)
        #expect(left.subscriberCount == 0)
        #expect(right.subscriberCount == 0)
    }

    @Test func mergeTakesEveryChangeOfEverySourceInArrivalOrder() {
        // Given
        let network = Observable("idle")
        let cache = Observable("cold")
        let user = Observable("none")
        let status = network.merge(cache, user)
        let received = Recorder<String>()
        let subscription = status.subscribe { received.append($0) }
        // When
        cache.value = "warm"
        user.value = "refresh"
        network.value = "loading"
        // Then: it starts from the receiver's value; the others' current values are not changes
        #expect(received.values == ["idle", "warm", "refresh", "loading"])
        _ = subscription
    }
}
