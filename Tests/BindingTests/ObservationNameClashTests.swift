// This file imports Apple's Observation module beside Binding on purpose: both export a name
// `Observable` (a macro and protocol there, a generic class here). The scoped import below is the
// disambiguation documented in Docs/Binding.md; if it stops working, this file stops compiling.
import Observation
import Testing

import class Binding.Observable

@Suite("Observable: living beside the Observation module")
struct ObservationNameClashTests {
    @Test func aScopedImportPicksBindingsObservableEvenWithObservationImported() {
        // Given
        let count = Observable(1)
        // When
        count.value = 2
        // Then
        #expect(count.value == 2)
    }

    @Test func aModuleQualifiedNameAlsoWorks() {
        // Given
        let count = Binding.Observable("x")
        // Then
        #expect(count.value == "x")
    }
}
