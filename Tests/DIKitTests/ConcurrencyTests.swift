import DIKit
import Foundation
import Testing

@Suite("Container: concurrency")
struct ConcurrencyTests {
    @Test func oneHundredConcurrentFirstResolvesOfASingletonMakeOneInstance() async throws {
        // Given
        let container = Container()
        let made = Counter()
        container.register(Service.self, scope: .singleton) { _ in
            made.increment()
            return Service()
        }
        // When
        let ids = await withTaskGroup(of: UUID?.self) { group in
            for _ in 0..<100 {
                group.addTask { try? container.resolve(Service.self).id }
            }
            var ids = Set<UUID?>()
            for await id in group { ids.insert(id) }
            return ids
        }
        // Then
        #expect(made.value == 1)
        #expect(ids.count == 1)
        #expect(ids.first != nil)
    }

    @Test func registeringAndResolvingFromManyTasksAtOnceIsSafe() async {
        // Given
        let container = makeAppContainer()
        // When
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failures = 0
                    for index in 0..<200 {
                        container.register(String.self, name: "\(task)-\(index)") { _ in "value" }
                        if (try? container.resolve(DailyBoxOfficeViewModel.self)) == nil { failures += 1 }
                        if (try? container.resolve(String.self, name: "\(task)-\(index)")) != "value" {
                            failures += 1
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(0, +)
        }
        // Then
        #expect(failures == 0)
    }
}
