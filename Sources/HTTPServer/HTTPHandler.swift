/// Decides, for each request, how its body is taken and what is answered.
///
/// ## Threading
/// The server runs libmicrohttpd with one thread per connection, and calls ``plan(for:)``,
/// the body sinks and the `buffer` closures synchronously on that thread. A handler may block
/// (sleep, wait for disk, wait on a semaphore for async work it started) without holding up any
/// other connection: these threads are libmicrohttpd's own, not Swift's cooperative pool.
/// Because several connections call the same handler at once, it must be `Sendable` and keep
/// shared state behind a lock or in an actor.
package protocol HTTPHandler: Sendable {
    /// The plan for `request`, called once its headers have arrived.
    func plan(for request: HTTPRequest) -> HTTPRequestPlan
}

/// A handler made of a closure.
package struct HTTPClosureHandler: HTTPHandler {
    private let body: @Sendable (HTTPRequest) -> HTTPRequestPlan

    package init(_ body: @escaping @Sendable (HTTPRequest) -> HTTPRequestPlan) {
        self.body = body
    }

    package func plan(for request: HTTPRequest) -> HTTPRequestPlan {
        body(request)
    }
}
