import Foundation
@testable import LocalTransloadit
import Synchronization
import TestSupport
import Testing

/// The sliding window's answers to requests that race for it.
@Suite struct ServiceRateLimiterTests {
    @Test func aRequestThatReadTheTimeFirstAndTookTheLockLastIsNeverToldToWaitLongerThanTheWindow() async throws {
        let base = ContinuousClock.now
        // The first reading of the time is held up 50 ms after it is taken (as a thread preempted before the lock); the
        // second request comes 10 ms later and reads a later time at once.
        let readings = Mutex(0)
        let limiter = ServiceRateLimiter(limit: 1, window: .seconds(1)) {
            guard readings.withLock({ count in defer { count += 1 }; return count == 0 }) else { return base.advanced(by: .milliseconds(10)) }
            usleep(50_000)
            return base
        }
        let waits = Mutex<[Duration]>([])
        let ended = DispatchGroup()
        for delay in [UInt32(0), 10_000] {
            ended.enter()
            Thread {
                usleep(delay)
                if let wait = limiter.admit("assembly") { waits.withLock { $0.append(wait) } }
                ended.leave()
            }.start()
        }
        try await offThePool { ended.wait() }
        let refused = waits.withLock { $0 }
        #expect(refused.count == 1)
        #expect(refused.allSatisfy { $0 <= .seconds(1) }, "told to wait \(refused)")
    }
}
