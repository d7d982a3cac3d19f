import CacheKit
import Foundation
import Testing

/// A value's default cost is ``CacheCostCalculable/cacheCost`` when the value conforms, 1 otherwise,
/// whatever static type the storage holds it as. The storage decides it without a dynamic cast where it
/// can; these tests hold it to what the cast says where it cannot.
@Suite("MemoryStorage: what a value costs")
struct MemoryStorageCostTests {
    class Poster: @unchecked Sendable {
        // @unchecked Sendable: no stored state.
    }

    final class SizedPoster: Poster, CacheCostCalculable, @unchecked Sendable {
        // @unchecked Sendable: its only stored property is a constant.
        let bytes: Int
        init(bytes: Int) { self.bytes = bytes }
        var cacheCost: Int { bytes }
    }

    struct Plain: Sendable {}
    enum Choice: Sendable {
        case one
        case two(String)
    }
    protocol Poster2<Size>: Sendable { associatedtype Size }
    struct Sized: CacheCostCalculable, Poster2 {
        typealias Size = Int
        var cacheCost: Int { 55 }
    }

    /// The total cost after storing `value` alone in a storage of `Value`.
    func totalCost<Value: Sendable>(
        of value: Value, as type: Value.Type = Value.self,
        configuration: MemoryStorage<String, Value>.Configuration = .init(sweepInterval: nil)
    ) -> Int {
        let storage = MemoryStorage<String, Value>(configuration: configuration)
        storage.store(value, forKey: "k")
        return storage.totalCost
    }

    @Test func aConformingValueCostsItsCacheCost() {
        #expect(totalCost(of: Data(count: 1_234)) == 1_234)
        #expect(totalCost(of: "광해") == 6)
    }

    @Test func aValueThatDoesNotConformCostsOne() {
        #expect(totalCost(of: Plain()) == 1)
        #expect(totalCost(of: 42) == 1)
        #expect(totalCost(of: Poster()) == 1)
        #expect(totalCost(of: Choice.two("x")) == 1)
        #expect(totalCost(of: (1, "a"), as: (Int, String).self) == 1)
    }

    @Test func aConformingSubclassCostsItsCacheCostInAStorageOfItsBaseClass() {
        // Given a storage of the base class, which does not conform
        // When a subclass instance that conforms is stored
        let cost = totalCost(of: SizedPoster(bytes: 500), as: Poster.self)
        // Then it counts for its own cost, not 1
        #expect(cost == 500)
    }

    @Test func anOptionalValueCostsWhatItsWrappedValueCosts() {
        #expect(totalCost(of: Data(count: 300), as: Data?.self) == 300)
        #expect(totalCost(of: nil, as: Data?.self) == 1)
        #expect(totalCost(of: Plain(), as: Plain?.self) == 1)
    }

    @Test func aValueHeldAsAnExistentialCostsWhatItsDynamicTypeSays() {
        #expect(totalCost(of: Data(count: 70), as: (any Sendable).self) == 70)
        #expect(totalCost(of: SizedPoster(bytes: 80), as: (any AnyObject & Sendable).self) == 80)
        #expect(totalCost(of: Plain(), as: (any Sendable).self) == 1)
        #expect(totalCost(of: Sized(), as: (any Poster2<Int>).self) == 55)
    }

    @Test func aCostClosureSetAfterTheConfigurationIsMadeIsUsed() {
        // Given a configuration whose cost closure is set as a property
        var configuration = MemoryStorage<String, Plain>.Configuration(sweepInterval: nil)
        configuration.cost = { _ in 40 }
        // When a value is stored; Then the closure's cost counts
        #expect(totalCost(of: Plain(), configuration: configuration) == 40)
    }

    @Test func theDefaultCostReadFromTheConfigurationAsksTheValue() {
        // Given the default configuration; When its cost closure is read and called
        let configuration = MemoryStorage<String, Poster>.Configuration()
        // Then it answers as the storage does
        #expect(configuration.cost(SizedPoster(bytes: 12)) == 12)
        #expect(configuration.cost(Poster()) == 1)
    }
}
