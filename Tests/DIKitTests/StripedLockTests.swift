import Foundation
import Testing

@testable import DIKit

/// The container's lock is striped by thread: a reader holds only its stripe, a writer every one.
@Suite("Container lock: striped by thread")
struct StripedLockTests {
    @Test(arguments: 0..<ReadWriteLock.stripeCount)
    func aReaderHoldsOnlyItsOwnStripe(stripe: Int) {
        // Given a lock read on one stripe
        let lock = ReadWriteLock()
        let held = lock.lockForReading(stripe: stripe)
        defer { lock.unlock(reading: held) }
        // Then that stripe refuses a writer and every other stripe takes one
        for index in 0..<ReadWriteLock.stripeCount {
            let taken = pthread_rwlock_trywrlock(lock.stripe(index)) == 0
            if taken { pthread_rwlock_unlock(lock.stripe(index)) }
            #expect(taken == (index != stripe), "stripe \(index)")
        }
    }

    @Test
    func aWriterHoldsEveryStripe() {
        // Given a lock held by a writer
        let lock = ReadWriteLock()
        lock.withLock {
            // Then no stripe lets a reader in
            for index in 0..<ReadWriteLock.stripeCount {
                let taken = pthread_rwlock_tryrdlock(lock.stripe(index)) == 0
                if taken { pthread_rwlock_unlock(lock.stripe(index)) }
                #expect(!taken, "stripe \(index)")
            }
        }
    }

    @Test
    func stripesLieOnCacheLinesOfTheirOwn() {
        // Given a lock's stripes, then each starts at least 128 bytes after the one before, aligned to 128
        let lock = ReadWriteLock()
        for index in 1..<ReadWriteLock.stripeCount {
            let gap = UnsafeRawPointer(lock.stripe(index)) - UnsafeRawPointer(lock.stripe(index - 1))
            #expect(gap >= 128 && gap >= MemoryLayout<pthread_rwlock_t>.stride)
            #expect(Int(bitPattern: UnsafeRawPointer(lock.stripe(index))) % 128 == 0)
        }
    }
}
