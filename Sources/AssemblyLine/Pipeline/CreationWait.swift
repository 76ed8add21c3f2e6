/// A creation the run's pace holds back, as the governor tells it: why, from when until when, and the earliest the
/// last creation still ahead of the run can go.
///
/// What a progress bar needs to say that the run waits, and to count the wait in its time left: a run of 300
/// shards under a budget of 200 a minute creates 200 at once and the rest a minute later, while its rate of
/// files done says seconds.
package struct CreationWait: Sendable, Hashable {
    /// What holds the creation back.
    package enum Cause: Sendable, Hashable {
        /// The creations budget, `limits.creations_per_minute`: at most `perMinute` in any 60 s.
        case budget(perMinute: Int)
        /// The service answered a creation with a rate limit: creations wait out its hint, then go evenly spaced.
        case serviceRateLimit
    }

    package var cause: Cause
    /// When the creation asked to go.
    package var asked: ContinuousClock.Instant
    /// When it may.
    package var until: ContinuousClock.Instant
    /// The earliest the last of the creations still ahead (the shards not yet created) may go; `until` when none is.
    package var lastCreation: ContinuousClock.Instant

    package init(cause: Cause, asked: ContinuousClock.Instant, until: ContinuousClock.Instant, lastCreation: ContinuousClock.Instant) {
        self.cause = cause
        self.asked = asked
        self.until = until
        self.lastCreation = lastCreation
    }

    /// How long the creation waits.
    package var duration: Duration { asked.duration(to: until) }
}
