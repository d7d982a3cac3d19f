import Dispatch
import Foundation

/// Where a ``MemoryStorage`` hears that it should give memory back: the system's memory warnings and the
/// app's move to the background.
///
/// | signal | what the storage does |
/// |---|---|
/// | memory warning | trims its total cost to half, least recently used first |
/// | critical memory pressure | empties itself |
/// | the app entered the background | removes expired entries and trims its total cost to a tenth |
///
/// ``platform`` (the default) listens where the platform speaks: on iOS, tvOS and visionOS, UIKit's
/// memory-warning and did-enter-background notifications and the dispatch memory-pressure source's
/// critical level; on macOS and watchOS, the dispatch source's warning and critical levels. Each warning
/// comes from one source, so it trims once. Linux has no such signals: there ``platform`` hears nothing, so call
/// ``MemoryStorage/trim(toCost:)`` or ``MemoryStorage/removeAll()`` from your own signal, or post
/// notifications of your own to a storage made with ``notifications(center:memoryWarning:enteredBackground:)``.
public struct MemorySignals: Sendable {
    /// What the storage hears.
    enum Signal: Sendable {
        case memoryWarning
        case criticalMemory
        case enteredBackground
    }

    /// Starts listening; the returned token stops it when released.
    let listen: @Sendable (_ handler: @escaping @Sendable (Signal) -> Void) -> [any Sendable]

    /// The platform's signals: see the type's description for what that is on each platform.
    public static var platform: MemorySignals {
        MemorySignals { handler in
            #if os(iOS) || os(tvOS) || os(visionOS)
                // UIKit's notification reports the warnings; the source adds only the critical level, so
                // one warning trims once.
                let pressure: [any Sendable] = [MemoryPressureListener(events: [.critical], handler)]
            #elseif canImport(Darwin)
                let pressure: [any Sendable] = [
                    MemoryPressureListener(events: [.warning, .critical], handler)
                ]
            #else
                let pressure: [any Sendable] = []
            #endif
            #if os(iOS) || os(tvOS) || os(visionOS)
                // UIKit's names by their values, never read from `UIApplication`: older SDKs declare them
                // main-actor class properties, which this nonisolated closure cannot read.
                let application: [any Sendable] = [
                    NotificationListener(
                        center: .default, memoryWarning: MemorySignals.uiKitMemoryWarning,
                        enteredBackground: MemorySignals.uiKitEnteredBackground, handler: handler)
                ]
            #else
                let application: [any Sendable] = []
            #endif
            return pressure + application
        }
    }

    /// `UIApplication.didReceiveMemoryWarningNotification`, by its value: Apple keeps a notification
    /// name's value equal to its constant's name, and reading the constant needs the main actor in the
    /// SDKs of Xcode 16 (swiftlang/swift#59484), which ``platform``'s nonisolated closure is not on.
    static let uiKitMemoryWarning = Notification.Name("UIApplicationDidReceiveMemoryWarningNotification")
    /// `UIApplication.didEnterBackgroundNotification`, by its value (see ``uiKitMemoryWarning``).
    static let uiKitEnteredBackground = Notification.Name("UIApplicationDidEnterBackgroundNotification")

    /// No signals: the storage gives memory back only through its limits and your calls.
    public static var none: MemorySignals {
        MemorySignals { _ in [] }
    }

    /// Signals posted as notifications: for a platform without built-in ones, an app's own lifecycle
    /// events, or a test.
    /// - Parameters:
    ///   - center: Where the notifications are posted.
    ///   - memoryWarning: The name that means "memory is low"; the storage trims its cost to half.
    ///   - enteredBackground: The name that means "the app is in the background"; the storage removes
    ///     expired entries and trims its cost to a tenth. `nil` to hear only memory warnings.
    /// - Returns: The signals.
    public static func notifications(
        center: NotificationCenter, memoryWarning: Notification.Name,
        enteredBackground: Notification.Name? = nil
    ) -> MemorySignals {
        let box = CenterBox(center: center)
        return MemorySignals { handler in
            [
                NotificationListener(
                    center: box.center, memoryWarning: memoryWarning, enteredBackground: enteredBackground,
                    handler: handler)
            ]
        }
    }
}

/// Carries a notification center into a `Sendable` closure.
private struct CenterBox: @unchecked Sendable {
    // @unchecked Sendable: NotificationCenter is thread-safe (Apple documents it; swift-corelibs-foundation
    // guards it with a lock); the box only hands the reference on.
    let center: NotificationCenter
}

/// Observes two notification names until released.
final class NotificationListener: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set in `init`; `NotificationCenter` and the
    // observer tokens it returns are thread-safe to remove from any thread.
    private let center: NotificationCenter
    private let observers: [any NSObjectProtocol]

    init(
        center: NotificationCenter, memoryWarning: Notification.Name, enteredBackground: Notification.Name?,
        handler: @escaping @Sendable (MemorySignals.Signal) -> Void
    ) {
        self.center = center
        var observers = [
            center.addObserver(forName: memoryWarning, object: nil, queue: nil) { _ in
                handler(.memoryWarning)
            }
        ]
        if let enteredBackground {
            observers.append(
                center.addObserver(forName: enteredBackground, object: nil, queue: nil) { _ in
                    handler(.enteredBackground)
                })
        }
        self.observers = observers
    }

    deinit {
        for observer in observers { center.removeObserver(observer) }
    }
}

#if canImport(Darwin)
    /// The dispatch memory-pressure source, cancelled when released.
    final class MemoryPressureListener: @unchecked Sendable {
        // @unchecked Sendable: `source` is set once in `init` and only cancelled in `deinit`; dispatch
        // sources are thread-safe, the overlay just does not annotate them `Sendable`.
        private let source: any DispatchSourceMemoryPressure

        init(
            events: DispatchSource.MemoryPressureEvent,
            _ handler: @escaping @Sendable (MemorySignals.Signal) -> Void
        ) {
            source = Self.makeSource(events: events, handler)
            source.resume()
        }

        deinit {
            source.cancel()
        }

        /// Built in a nonisolated function so the handler is never inferred to be main-actor isolated.
        private static func makeSource(
            events: DispatchSource.MemoryPressureEvent,
            _ handler: @escaping @Sendable (MemorySignals.Signal) -> Void
        ) -> any DispatchSourceMemoryPressure {
            let source = DispatchSource.makeMemoryPressureSource(
                eventMask: events, queue: .global(qos: .utility))
            source.setEventHandler { [weak source] in
                guard let event = source?.data else { return }
                handler(event.contains(.critical) ? .criticalMemory : .memoryWarning)
            }
            return source
        }
    }
#endif
