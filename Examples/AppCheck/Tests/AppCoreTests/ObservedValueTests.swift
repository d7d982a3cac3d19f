#if canImport(SwiftUIOnIOS16)
    import Binding
    import OpenCombine
    import SwiftUIOnIOS16
    import Testing

    /// Binding's `ObservedValue` (the SwiftUI path on iOS 16), compiled from its own source against
    /// OpenCombine: what a view's `@StateObject` sees.
    @MainActor
    @Suite("ObservedValue: an Observable as an ObservableObject")
    struct ObservedValueTests {
        @Test func itStartsWithTheSourcesValue() {
            let title = Observable("Harbin")
            #expect(ObservedValue(title).value == "Harbin")
        }

        @Test func aChangeOnTheMainActorAnnouncesItselfThenShows() {
            // Given an observed value, and a record of objectWillChange
            let title = Observable("Harbin")
            let observed = ObservedValue(title)
            var announced: [String] = []
            let watch = observed.objectWillChange.sink { announced.append(observed.value) }
            // When the source changes on the main actor
            title.value = "Wonka"
            // Then the change was announced before it was made, and the value shows it
            #expect(announced == ["Harbin"])
            #expect(observed.value == "Wonka")
            _ = watch
        }
    }
#endif
