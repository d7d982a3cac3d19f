import Dispatch
import Foundation

/// Runs blocking work (waiting for a child process, thousands of file writes) on a Dispatch queue, so it
/// never parks one of Swift's few cooperative threads (two on a two-core machine) while other tests need
/// them: a test holding one for seconds stalls every other test's continuations.
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func offThePool<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value
{
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

/// Runs blocking work on a thread of its own, neither one of Swift's cooperative threads nor one Dispatch
/// lends: for work that waits long (a child process), so that no pool, however few its threads, is
/// left waiting with it.
/// - Parameter work: The blocking work.
/// - Returns: What `work` returns.
/// - Throws: What `work` throws.
public func onAThreadOfItsOwn<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws
    -> Value
{
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try work() }) }
        thread.start()
    }
}
