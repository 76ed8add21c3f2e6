import HTTPServer
import Synchronization

/// Applies a ``FaultPlan`` to live requests: counts each route's requests, draws their fate, logs every fault.
final class FaultInjector: Sendable {
    /// The fate drawn for one request.
    enum Fault: Sendable, Hashable {
        case status(Int)
        case drop
        /// Take half the request body, then lose the connection.
        case cut
        case slow(Duration)
        case truncate
        case corrupt
    }

    let plan: FaultPlan?
    private let log: ServiceLog
    private let counters = Mutex<[FaultPlan.Route: UInt64]>([:])

    init(plan: FaultPlan?, log: ServiceLog) {
        self.plan = plan
        self.log = log
    }

    /// Draws the fault of the next request on `route` (nil for most) and logs it.
    func decide(_ route: FaultPlan.Route) -> Fault? {
        guard let plan, let faults = plan.routes[route] else { return nil }
        let index = counters.withLock { counters -> UInt64 in
            defer { counters[route, default: 0] += 1 }
            return counters[route, default: 0]
        }
        let roll = plan.draw(route.rawValue, index)
        let pick = Int(plan.draw(route.rawValue + "/status", index) * Double(faults.statuses.count))
        let choices: [(share: Double, fault: Fault)] = [
            (faults.fail, .status(faults.statuses[min(pick, faults.statuses.count - 1)])),
            (faults.drop, .drop), (faults.cut, .cut), (faults.slow, .slow(faults.delay)),
            (faults.truncate, .truncate), (faults.corrupt, .corrupt),
        ]
        var threshold = 0.0
        var fault: Fault?
        for choice in choices {
            threshold += choice.share
            if roll < threshold {
                fault = choice.fault
                break
            }
        }
        if let fault {
            log("fault: \(route.rawValue) request \(index + 1): \(Self.describe(fault))")
        }
        return fault
    }

    /// The plan of a request on `route`, with the fault drawn for it (if any) applied to its answer.
    ///
    /// `bodyLength` is the request's declared body length, where a `cut` stops taking it (half way).
    func apply(_ route: FaultPlan.Route, urls: ServiceURLs, bodyLength: UInt64? = nil, _ makePlan: () -> HTTPRequestPlan) -> HTTPRequestPlan {
        guard let fault = decide(route) else { return makePlan() }
        if case .status(let status) = fault {
            return .respond(Self.statusError(status).response(urls: urls))
        }
        return Self.transform(makePlan(), fault: fault, bodyLength: bodyLength)
    }

    /// The execution error an Assembly is to fail with, if the plan says so; logged.
    func executionFailure(assemblyID: String) -> String? {
        guard let plan, let faults = plan.execution, plan.draw("assembly/" + assemblyID, 0) < faults.fail else { return nil }
        log("fault: assembly \(assemblyID): fails with \(faults.error)")
        return faults.error
    }

    /// The answer of an injected 5xx.
    static func statusError(_ status: Int) -> APIError {
        let code: ServiceErrorCode = switch status {
        case 502: .badGateway
        case 503: .serviceUnavailable
        default: .internalServerError
        }
        return APIError(code, status: status, "Injected fault: the service answers \(status) on purpose.")
    }

    /// `response` with a drop or a delay applied.
    static func apply(_ fault: Fault, to response: HTTPResponse) -> HTTPResponse {
        switch fault {
        case .drop, .cut: return .dropConnection()
        case .slow(let delay): return response.delayed(by: delay)
        default: return response
        }
    }

    private static func transform(_ plan: HTTPRequestPlan, fault: Fault, bodyLength: UInt64?) -> HTTPRequestPlan {
        switch plan {
        case .respond(let response):
            return .respond(apply(fault, to: response))
        case .buffer(let limit, let tooLarge, let then):
            return .buffer(limit: limit, tooLarge: tooLarge) { request, body in apply(fault, to: then(request, body)) }
        case .stream(let sink):
            return .stream(FaultySink(inner: sink, fault: fault, cutAfter: fault == .cut ? (bodyLength ?? 0) / 2 : nil))
        }
    }

    private static func describe(_ fault: Fault) -> String {
        switch fault {
        case .status(let status): return "answered \(status)"
        case .drop: return "connection dropped instead of the answer"
        case .cut: return "connection cut after half the body"
        case .slow(let delay): return "answer delayed by \(delay)"
        case .truncate: return "download truncated"
        case .corrupt: return "download corrupted"
        }
    }
}
