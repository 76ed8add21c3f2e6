import AssemblyLine
import SignServer
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct SigningStateTests {
    static let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func aNonceIsRefusedUntilItExpires() async {
        var registry = NonceRegistry()
        let expiry = Self.start.addingTimeInterval(60)
        let first = registry.claim("n", until: expiry, now: Self.start)
        let replay = registry.claim("n", until: expiry, now: Self.start.addingTimeInterval(59))
        let other = registry.claim("other", until: expiry, now: Self.start)
        let afterExpiry = registry.claim("n", until: expiry.addingTimeInterval(60), now: expiry)
        #expect([first, replay, other, afterExpiry] == [true, false, true, true])
    }

    @Test func expiredNoncesAreForgotten() async {
        var registry = NonceRegistry()
        for index in 0..<100 {
            _ = registry.claim("n\(index)", until: Self.start.addingTimeInterval(Double(index + 1)), now: Self.start)
        }
        #expect(registry.count == 100)
        _ = registry.claim("late", until: Self.start.addingTimeInterval(500), now: Self.start.addingTimeInterval(50))
        #expect(registry.count == 51)
    }

    @Test func rateAllowsAMinuteAtOnceThenRefillsEvenly() async {
        var limiter = TokenRateLimiter(perMinute: 3)
        let burst = (0..<3).map { _ in limiter.admit("a", now: Self.start) }
        let fourth = limiter.admit("a", now: Self.start)
        let otherCaller = limiter.admit("b", now: Self.start)
        let early = limiter.admit("a", now: Self.start.addingTimeInterval(15))
        let refilled = limiter.admit("a", now: Self.start.addingTimeInterval(21))
        #expect(burst == [.admitted, .admitted, .admitted])
        #expect(fourth == .limited(retryAfter: .seconds(20)))
        #expect(otherCaller == .admitted)
        #expect(early == .limited(retryAfter: .seconds(5)))
        #expect(refilled == .admitted)
    }
}
