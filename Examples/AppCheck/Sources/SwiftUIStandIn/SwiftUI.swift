// A stand-in for the names SwiftUI declares that clash with this package's: a type named `Binding`.
// Linux has no SwiftUI; this module lets Examples/AppCheck compile the way around the clash that
// Docs/Binding.md gives.

/// SwiftUI's `Binding`, as far as the name goes.
public struct Binding<Value> {
    /// The value.
    public var wrappedValue: Value

    /// A binding to `value`.
    public init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }
}

// The scene API a background URL session's events arrive through, as far as its shape goes: the
// stand-in for `.backgroundTask(.urlSession(_:))` (iOS 16+), so the docs' SwiftUI lifecycle code compiles.

/// SwiftUI's `View`, as far as the name goes.
public protocol View {}

/// SwiftUI's `Scene`, as far as the name goes.
public protocol Scene {}

/// SwiftUI's `App`: a type with a scene.
public protocol App {
    associatedtype Body: Scene
    /// The app's scenes.
    var body: Body { get }
}

/// SwiftUI's `WindowGroup`.
public struct WindowGroup<Content: View>: Scene {
    /// A window group showing `content`.
    public init(content: () -> Content) {}
}

/// SwiftUI's `BackgroundTask`: what a scene's background task answers.
public struct BackgroundTask<Request: Sendable, Response: Sendable>: Sendable {
    /// The events of the background URL session `identifier`.
    public static func urlSession(_ identifier: String) -> BackgroundTask<Void, Void> {
        BackgroundTask<Void, Void>()
    }
}

extension Scene {
    /// Runs `action` when the system wakes the app for `task`; the system considers it done when the
    /// action returns.
    public func backgroundTask<Request: Sendable, Response: Sendable>(
        _ task: BackgroundTask<Request, Response>,
        action: @escaping @Sendable (Request) async -> Response
    ) -> some Scene {
        self
    }
}
