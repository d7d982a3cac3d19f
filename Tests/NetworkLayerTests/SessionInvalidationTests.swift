import Foundation
import TestSupport
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app extension never gets a background session the system would invalidate, and a provider whose
/// session was invalidated refuses transfers with a typed error instead of making a task URLSession would
/// raise an exception for.
@Suite("Sessions: extensions and invalidation")
struct SessionInvalidationTests {
    let group = EndpointGroup(baseURL: URL(string: "http://127.0.0.1:9/")!)

    func backgroundProvider(
        identifier: String, inAppExtension: Bool, sharedContainer: String?
    ) -> NetworkProvider {
        var seams = NetworkProvider.Seams()
        seams.isAppExtension = inAppExtension
        // As `sharedContainerIdentifier` reads (it cannot be set on Linux).
        seams.hasSharedContainer = { _ in sharedContainer != nil }
        return NetworkProvider(
            sessionConfiguration: .ephemeral, delegate: nil, middlewares: [], configuration: .init(),
            seams: seams, background: BackgroundTasks(identifier: identifier, report: { _ in }))
    }

    @Test func aBackgroundProviderInAnAppExtensionWithoutASharedContainerMakesNoSessionAndRefusesTransfers()
        async throws
    {
        // Given a widget's background configuration that names no shared container
        let identifier = "widget-\(UUID().uuidString)"
        let provider = backgroundProvider(identifier: identifier, inAppExtension: true, sharedContainer: nil)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent(identifier)
        // When it is asked for a download
        let thrown = await error {
            try await provider.download(group.get("poster", as: Data.self), to: destination)
        }
        // Then it is refused with the typed error naming the identifier, and no session has that identifier
        guard
            case .invalidRequest(.backgroundSessionWithoutSharedContainer(let named))? = thrown
                as? NetworkError
        else {
            Issue.record("expected the refusal, got \(String(describing: thrown))")
            return
        }
        #expect(named == identifier)
        #expect(DelegateSession.hasBackgroundSession(identifier) == false)
        #expect(String(describing: thrown).contains("sharedContainerIdentifier"))
    }

    @Test(arguments: [(true, "group.com.example.app"), (false, nil)] as [(Bool, String?)])
    func aBackgroundProviderWithASharedContainerOrInTheAppMakesItsSession(
        inAppExtension: Bool, container: String?
    ) {
        // Given a background configuration with a shared container in an extension, or none in the app
        let identifier = "app-\(UUID().uuidString)"
        // When a provider is made with it
        _ = backgroundProvider(
            identifier: identifier, inAppExtension: inAppExtension, sharedContainer: container)
        // Then its session exists
        #expect(DelegateSession.hasBackgroundSession(identifier))
    }

    @Test func aProviderWhoseSessionWasInvalidatedRefusesTransfersWithATypedError() async throws {
        // Given a provider on a session of its own, which the system then invalidates
        let provider = NetworkProvider(sessionConfiguration: .ephemeral)
        let session = try #require(provider.session as? URLSession)
        session.invalidateAndCancel()
        let transport = try #require(provider.transport as? URLSessionTransport)
        #expect(
            await eventually { transport.made.withLock { $0 }?.delegate.invalidation.withLock { $0 } != nil })
        // When a request is sent
        let thrown = await error { try await provider.send(group.get("movies", as: Data.self)) }
        // Then it is refused without a task
        guard case .invalidRequest(.sessionInvalidated)? = thrown as? NetworkError else {
            Issue.record("expected the session to be known invalid, got \(String(describing: thrown))")
            return
        }
    }

    @Test func anInvalidatedBackgroundSessionIsForgottenSoAProviderMadeAgainMakesANewOne() async throws {
        // Given a background provider whose session the system invalidated (another process took it)
        let identifier = "taken-\(UUID().uuidString)"
        let first = backgroundProvider(identifier: identifier, inAppExtension: false, sharedContainer: nil)
        let firstSession = try #require(first.session as? URLSession)
        firstSession.invalidateAndCancel()
        #expect(await eventually { !DelegateSession.hasBackgroundSession(identifier) })
        // When the app makes its provider again
        let second = backgroundProvider(identifier: identifier, inAppExtension: false, sharedContainer: nil)
        // Then it has a session of its own, not the dead one
        #expect(DelegateSession.hasBackgroundSession(identifier))
        #expect((second.session as? URLSession) !== firstSession)
    }
}
