// The one way around the clash that works in an .xcodeproj: a type alias declared in a file that does
// not import SwiftUI (there `Binding` is only the module).
import Binding

typealias ObservableValue<T> = Binding.Observable<T>
