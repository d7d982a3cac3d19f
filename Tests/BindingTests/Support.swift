import Foundation

/// A Sendable class standing in for a view or view model that owns subscriptions.
final class Owner: Sendable {
    let name: String
    init(name: String = "owner") { self.name = name }
}
