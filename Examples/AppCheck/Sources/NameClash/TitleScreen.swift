// A file that imports SwiftUI (its stand-in here), Observation and Binding: `Binding.Observable` names
// SwiftUI's struct first, and `Observable` is ambiguous with Observation's; the alias is neither.
import Binding
import Observation
import SwiftUIStandIn

@MainActor
final class TitleScreen {
    let title: ObservableValue<String>
    var shown: Binding<String>

    init(title: ObservableValue<String>) {
        self.title = title
        self.shown = Binding(wrappedValue: title.value)
    }
}
