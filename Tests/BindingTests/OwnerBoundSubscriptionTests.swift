import Binding
import TestSupport
import Testing

@Suite("Observable: owner-bound subscriptions")
struct OwnerBoundSubscriptionTests {
    @Test func theHandlerReceivesTheOwnerAndTheValue() {
        // Given
        let owner = Owner(name: "view")
        let title = Observable("A")
        let received = Recorder<String>()
        // When
        let subscription = title.subscribe(with: owner) { owner, value in
            received.append("\(owner.name):\(value)")
        }
        title.value = "B"
        // Then
        #expect(received.values == ["view:A", "view:B"])
        _ = subscription
    }

    @Test func theObservableDoesNotRetainTheOwner() {
        // Given
        let title = Observable("A")
        weak var weakOwner: Owner?
        var subscription: Subscription?
        do {
            let owner = Owner()
            weakOwner = owner
            subscription = title.subscribe(with: owner) { _, _ in }
        }
        // Then
        #expect(weakOwner == nil)
        _ = subscription
    }

    @Test func theSubscriptionEndsOnceTheOwnerIsGone() {
        // Given
        let title = Observable("A")
        let received = Recorder<String>()
        var owner: Owner? = Owner()
        let subscription = title.subscribe(with: owner ?? Owner()) { _, value in received.append(value) }
        // When
        owner = nil
        title.value = "B"
        // Then
        #expect(received.values == ["A"])
        #expect(title.subscriberCount == 0)
        _ = (subscription, owner)
    }

    @Test func aViewObservingItsViewModelFormsNoRetainCycle() {
        // Given a view that owns its view model and observes it through an owner-bound subscription
        final class ViewModel: Sendable {
            let title = Observable("Box office")
        }
        final class View: Sendable {
            let viewModel: ViewModel
            let bag = SubscriptionBag()
            let rendered = Recorder<String>()
            init(viewModel: ViewModel) {
                self.viewModel = viewModel
                viewModel.title.subscribe(with: self) { view, title in view.rendered.append(title) }
                    .store(in: bag)
            }
        }
        weak var weakView: View?
        weak var weakViewModel: ViewModel?
        // When the view goes out of scope
        do {
            let view = View(viewModel: ViewModel())
            weakView = view
            weakViewModel = view.viewModel
            view.viewModel.title.value = "Daily"
            #expect(view.rendered.values == ["Box office", "Daily"])
        }
        // Then both are released
        #expect(weakView == nil)
        #expect(weakViewModel == nil)
    }
}
