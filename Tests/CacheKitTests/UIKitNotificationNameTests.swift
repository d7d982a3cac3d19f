import Foundation
import Testing

@testable import CacheKit

#if canImport(UIKit)
    import UIKit
#endif

/// `MemorySignals.platform` names UIKit's notifications by their values, which any thread may read, not
/// through `UIApplication`'s class properties, which older SDKs isolate to the main actor.
@Suite("MemorySignals: UIKit's notification names by value")
struct UIKitNotificationNameTests {
    @Test func theNamesAreTheValuesOfUIKitsConstants() {
        #expect(
            MemorySignals.uiKitMemoryWarning.rawValue == "UIApplicationDidReceiveMemoryWarningNotification")
        #expect(
            MemorySignals.uiKitEnteredBackground.rawValue == "UIApplicationDidEnterBackgroundNotification")
    }

    #if canImport(UIKit) && !os(watchOS)
        @MainActor @Test func theNamesEqualUIKitsOwnConstants() {
            #expect(MemorySignals.uiKitMemoryWarning == UIApplication.didReceiveMemoryWarningNotification)
            #expect(MemorySignals.uiKitEnteredBackground == UIApplication.didEnterBackgroundNotification)
        }
    #endif
}
