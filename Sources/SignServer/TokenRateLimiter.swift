package import Foundation

/// Requests a minute per caller, as a token bucket: a full minute's worth at once, then refilled evenly.
package struct TokenRateLimiter: Sendable {
    /// Whether a request may go ahead, or how long until it could.
    package enum Admission: Sendable, Hashable {
        case admitted
        case limited(retryAfter: Duration)
    }

    private struct Bucket: Sendable {
        var tokens: Double
        var updated: Date
    }

    package let perMinute: Int
    private var buckets: [String: Bucket] = [:]

    package init(perMinute: Int) {
        precondition(perMinute > 0, "a rate needs at least one request a minute")
        self.perMinute = perMinute
    }

    /// Takes one request of `caller` at `now` from its bucket, or says how long until one is free.
    package mutating func admit(_ caller: String, now: Date) -> Admission {
        let capacity = Double(perMinute), perSecond = Double(perMinute) / 60
        var bucket = buckets[caller] ?? Bucket(tokens: capacity, updated: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(capacity, bucket.tokens + elapsed * perSecond)
        bucket.updated = now
        defer { buckets[caller] = bucket }
        guard bucket.tokens >= 1 else {
            let wait = ((1 - bucket.tokens) / perSecond).rounded(.up)
            return .limited(retryAfter: .seconds(max(1, Int(wait))))
        }
        bucket.tokens -= 1
        return .admitted
    }
}
