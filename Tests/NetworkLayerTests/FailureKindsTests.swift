import Foundation
import Testing

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the module's lists of failures relate: the rules a reader would otherwise have to find in five
/// files and compare by hand.
@Suite("Failure kinds: retry, offline, unreachable, resume and stale-if-error agree")
struct FailureKindsTests {
    @Test func everyOfflineFailureIsAnUnreachableOne() {
        #expect(FailureKinds.offline.isSubset(of: FailureKinds.unreachable))
        #expect(FailureKinds.offlineOnFoundationNetworking.isSubset(of: FailureKinds.unreachable))
    }

    @Test func anUnreachableServerIsWorthRetryingUnlessTheDeviceRefusesTheNetwork() {
        // Given the failures that say the server cannot be reached
        // Then each is transient, except cellular data or roaming turned off, which no retry mends
        let notRetried = FailureKinds.unreachable.subtracting(FailureKinds.transient)
        #expect(notRetried == [.dataNotAllowed, .internationalRoamingOff])
    }

    @Test func everyTransientFailureIsWorthResumingADownloadAfter() {
        #expect(FailureKinds.transient.isDisjoint(with: FailureKinds.endsDownload))
        #expect(FailureKinds.transient.isDisjoint(with: FailureKinds.refusesBody))
    }

    @Test func aFailureThatRefusesTheBytesDoesNotEndADownloadForGood() {
        #expect(FailureKinds.refusesBody.isDisjoint(with: FailureKinds.endsDownload))
    }

    @Test func aStaleAnswerStandsInOnlyForAStatusARetryMayMend() {
        for status in FailureKinds.staleIfErrorStatuses {
            #expect(FailureKinds.isTransient(status: status), "\(status)")
        }
        #expect(!FailureKinds.isTransient(status: 501))
        #expect(!FailureKinds.staleIfErrorStatuses.contains(501))
    }

    @Test(arguments: [URLError.Code.notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff])
    func anOfflineCodeMakesAnOfflineError(_ code: URLError.Code) {
        #expect(NetworkError.transport(URLError(code)).isOffline)
    }

    @Test func aRefusedConnectionIsTransientAndUnreachableButNeverOffline() {
        let refused = NetworkError.transport(URLError(.cannotConnectToHost))
        #expect(refused.isTransient)
        #expect(RetryMiddleware.isUnreachable(refused))
        #expect(!refused.isOffline)
    }
}
