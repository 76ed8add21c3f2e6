import AssemblyLine

/// Deliberate misbehaviour for tests: which share of requests per route fail, and how.
///
/// Decisions are reproducible: the n-th request of a route gets the same fate for the same
/// seed, whatever the other routes see, and an Assembly's execution fault depends only on the
/// seed and its ID. Each request gets at most one fault, drawn from the shares in this order:
/// `fail` (answer a 5xx status without doing anything), `drop` (do the work, then close the
/// connection without an answer), `cut` (creations and tus PATCHes: take half the body, then
/// close the connection as if the client had gone), `slow` (do the work, answer after `delay`),
/// and for downloads `truncate` (cut the body in half) and `corrupt` (same length, altered bytes).
/// `machinesCycleAfter` sends the status machine away for good after that many requests.
package struct FaultPlan: Sendable, Hashable {
    /// The routes faults can be set for; raw values are the keys of the faults file.
    package enum Route: String, Sendable, Hashable, CaseIterable {
        case create, replay, status, cancel, list
        case tusOptions = "tus_options"
        case tusCreate = "tus_create"
        case tusHead = "tus_head"
        case tusPatch = "tus_patch"
        case tusDelete = "tus_delete"
        case download
    }

    /// The shares (0 to 1) of one route's requests that get each fault.
    package struct RouteFaults: Sendable, Hashable {
        package var fail: Double
        /// The statuses a failed request is answered with, picked evenly.
        package var statuses: [Int]
        package var drop: Double
        /// Only for ``Route/create`` and ``Route/tusPatch``.
        package var cut: Double
        package var slow: Double
        package var delay: Duration
        package var truncate: Double
        package var corrupt: Double

        package init(fail: Double = 0, statuses: [Int] = [500, 502, 503], drop: Double = 0, cut: Double = 0, slow: Double = 0,
                    delay: Duration = .seconds(1), truncate: Double = 0, corrupt: Double = 0) {
            self.fail = fail
            self.statuses = statuses
            self.drop = drop
            self.cut = cut
            self.slow = slow
            self.delay = delay
            self.truncate = truncate
            self.corrupt = corrupt
        }
    }

    /// The share of Assemblies that fail while executing, and the error code they fail with.
    package struct ExecutionFaults: Sendable, Hashable {
        package var fail: Double
        package var error: String

        package init(fail: Double, error: String = ServiceErrorCode.internalCommandError.rawValue) {
            self.fail = fail
            self.error = error
        }
    }

    package var seed: UInt64
    package var routes: [Route: RouteFaults]
    package var execution: ExecutionFaults?
    /// A machine serves this many requests, then goes away and a new one takes over; nil keeps one machine.
    package var machinesCycleAfter: Int?

    package init(seed: UInt64, routes: [Route: RouteFaults] = [:], execution: ExecutionFaults? = nil, machinesCycleAfter: Int? = nil) {
        self.seed = seed
        self.routes = routes
        self.execution = execution
        self.machinesCycleAfter = machinesCycleAfter
    }

    /// A uniform number in [0, 1) for the `index`-th draw of `stream`, fixed by the seed.
    func draw(_ stream: String, _ index: UInt64) -> Double {
        var z = (seed ^ FNVHash.of(stream)) &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}
