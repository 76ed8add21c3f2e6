import Dispatch
@testable import LocalTransloadit
import Testing

/// A change stream's wait for changes: it lasts to its deadline, unless a change is delivered.
@Suite(.timeLimit(.minutes(3))) struct ChangeSubscriptionWaitTests {
    /// A subscription whose opening line was read already.
    static func opened() -> AssemblyChangeSubscription {
        let subscription = AssemblyChangeSubscription(assemblyID: "a", urls: ServiceURLs(base: "http://127.0.0.1:1")) { _ in }
        #expect(subscription.next(waitingAtMost: .zero) == Array("id: a\n\n".utf8))
        return subscription
    }

    @Test func aQuietWaitLastsToItsDeadlineAfterDeliveriesAlreadySent() {
        let subscription = Self.opened()
        subscription.deliver([.uploadingFinished])
        subscription.deliver([.uploadingFinished])
        let both = String(repeating: "data: assembly_uploading_finished\n\n", count: 2)
        #expect(subscription.next(waitingAtMost: .seconds(10)) == Array(both.utf8))
        let clock = ContinuousClock()
        let start = clock.now
        #expect(subscription.next(waitingAtMost: .milliseconds(100)) == [])
        #expect(clock.now - start >= .milliseconds(100))
    }

    @Test func aDeliveryEndsTheWait() {
        let subscription = Self.opened()
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { subscription.deliver([.finished]) }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(subscription.next(waitingAtMost: .seconds(10)) == Array("data: assembly_finished\n\n".utf8))
        #expect(clock.now - start < .seconds(5))
        #expect(subscription.next(waitingAtMost: .seconds(10)) == nil)
    }
}
