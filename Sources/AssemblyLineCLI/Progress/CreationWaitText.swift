import AssemblyLine
import ConfigFormat

/// The words of a creation the run's pace holds back: a figure of the bar and of `--stats`, and a `-v` line.
enum CreationWaitText {
    /// What holds creations back, as a figure: `waiting 57s for the creations budget`.
    static func figure(_ wait: CreationWait, at now: ContinuousClock.Instant) -> String {
        "waiting \(seconds(now.duration(to: wait.until))) for " + cause(wait.cause, named: false)
    }

    /// The line `-v` prints when creations start to wait: how long, why, and when the last can start at the earliest.
    static func line(_ wait: CreationWait) -> String {
        let last = wait.asked.duration(to: wait.lastCreation)
        return "creations wait \(seconds(wait.duration)) for " + cause(wait.cause, named: true)
            + (wait.lastCreation > wait.until ? "; the last can start in \(seconds(last)) at the earliest" : "")
    }

    /// A JSON line's members for the wait: `wait_ms`, `cause`, `per_minute` for a budget, `last_creation_ms`.
    static func members(_ wait: CreationWait) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["wait_ms": .integer(wait.duration.milliseconds),
                                            "last_creation_ms": .integer(wait.asked.duration(to: wait.lastCreation).milliseconds)]
        switch wait.cause {
        case let .budget(perMinute):
            members["cause"] = .string("creations_budget")
            members["per_minute"] = .integer(Int64(perMinute))
        case .serviceRateLimit:
            members["cause"] = .string("service_rate_limit")
        }
        return members
    }

    /// What holds them back; `named`: with the budget's key and figure.
    private static func cause(_ cause: CreationWait.Cause, named: Bool) -> String {
        switch cause {
        case let .budget(perMinute): "the creations budget" + (named ? " (limits.creations_per_minute: \(perMinute))" : "")
        case .serviceRateLimit: "the service's rate limit"
        }
    }

    /// A wait in whole seconds, rounded up: `57s`, `1m02s`.
    private static func seconds(_ duration: Duration) -> String {
        ConfigUnits.formatDuration(.seconds(Int64((duration / .seconds(1)).rounded(.up))))
    }
}
