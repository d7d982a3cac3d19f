import DIKit
import Testing

protocol ChartSource: Sendable {}
protocol MovieSource: Sendable {}
protocol UnrelatedSource: Sendable {}
final class KobisSource: ChartSource, MovieSource {}

@Suite("Container: one registration forwarded to several types")
struct ForwardingTests {
    @Test func aForwardedSingletonIsTheSameInstanceUnderEveryType() throws {
        // Given
        let container = Container()
        container.register(KobisSource.self, scope: .singleton) { _ in KobisSource() }
            .implements(ChartSource.self, MovieSource.self)
        // When
        let concrete = try container.resolve(KobisSource.self)
        let chart = try container.resolve(ChartSource.self)
        let movies = try container.resolve(MovieSource.self)
        // Then
        #expect(chart as? KobisSource === concrete)
        #expect(movies as? KobisSource === concrete)
    }

    @Test func aForwardedTransientFollowsTheConcreteScope() throws {
        // Given
        let container = Container()
        container.register(KobisSource.self) { _ in KobisSource() }.implements(ChartSource.self)
        // When
        let first = try container.resolve(ChartSource.self) as? KobisSource
        let second = try container.resolve(ChartSource.self) as? KobisSource
        // Then
        #expect(first != nil)
        #expect(first !== second)
    }

    @Test func aForwardedTypeKeepsTheRegistrationsName() throws {
        // Given
        let container = Container()
        container.register(KobisSource.self, name: "live", scope: .singleton) { _ in KobisSource() }
            .implements(ChartSource.self)
        // When
        let named = try container.resolve(ChartSource.self, name: "live") as? KobisSource
        // Then
        #expect(named === (try container.resolve(KobisSource.self, name: "live")))
        #expect(!container.isRegistered(ChartSource.self))
    }

    @Test func aForwardedTypeTheInstanceDoesNotConformToIsATypedError() {
        // Given
        let container = Container()
        container.register(KobisSource.self) { _ in KobisSource() }.implements(UnrelatedSource.self)
        // When
        let error = #expect(throws: ResolutionError.self) { try container.resolve(UnrelatedSource.self) }
        // Then
        guard case .doesNotConform(let instanceType) = error?.reason else {
            Issue.record("expected doesNotConform, got \(String(describing: error))")
            return
        }
        #expect(instanceType == "KobisSource")
        #expect(error?.renderedPath == "UnrelatedSource")
        #expect(
            error?.description.contains("made KobisSource, which does not conform to UnrelatedSource") == true
        )
    }

    @Test func verifyReportsAForwardedTypeThatDoesNotConform() {
        // Given
        let container = Container()
        container.register(KobisSource.self) { _ in KobisSource() }.implements(UnrelatedSource.self)
        // When
        let error = #expect(throws: VerificationError.self) { try container.verify() }
        // Then
        #expect(error?.failures.map(\.service) == ["UnrelatedSource"])
    }

    @Test func aSingletonHoldingAForwardedSingletonIsNotACaptive() throws {
        // Given AppState (singleton) → ChartSource, forwarded to a KobisSource singleton
        final class Holder: Sendable {
            let source: any ChartSource
            init(source: any ChartSource) { self.source = source }
        }
        let container = Container()
        container.register(KobisSource.self, scope: .singleton) { _ in KobisSource() }.implements(
            ChartSource.self)
        container.register(Holder.self, scope: .singleton) { Holder(source: try $0.resolve()) }
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.isEmpty, "\(report)")
    }

    @Test func aSingletonHoldingAForwardedTransientIsACaptiveNamedByItsTarget() throws {
        // Given
        final class Holder: Sendable {
            let source: any ChartSource
            init(source: any ChartSource) { self.source = source }
        }
        let container = Container()
        container.register(KobisSource.self) { _ in KobisSource() }.implements(ChartSource.self)
        container.register(Holder.self, scope: .singleton) { Holder(source: try $0.resolve()) }
        // When
        let report = try container.verify()
        // Then
        #expect(report.captiveDependencies.map { $0.path.map(\.service) } == [["Holder", "KobisSource"]])
    }
}
