import ConfigFormat
import Dispatch
import HTTPMessages
import HTTPServer
import Synchronization

/// The service's machine: a second listener, apart from the API host, that `assembly_ssl_url`,
/// `tus_url` and upload URLs name, as production names a machine (`api2-<instance>`) apart from
/// `api2.transloadit.com`.
///
/// With `cycleAfter`, a machine goes away for good once it has served that many requests, as
/// production cycles its machines: a new listener on another port takes over, the URLs handed out
/// from then on name it, and the old one stops. The API host keeps answering every route.
final class ServiceMachines: Sendable {
    /// The machine listening now, the requests it has served, and how many machines came before it.
    private struct Current {
        var server: HTTPServer?
        var served = 0
    }

    private let configuration: HTTPServerConfiguration
    private let routes: any HTTPHandler
    private let cycleAfter: Int?
    /// Called with a new machine's base URL before it serves.
    private let moved: @Sendable (String) -> Void
    private let current = Mutex(Current())

    /// Starts the first machine with the API host's server settings on a port of its own.
    init(configuration: HTTPServerConfiguration, routes: any HTTPHandler, cycleAfter: Int?,
         moved: @escaping @Sendable (String) -> Void) throws(HTTPServerError) {
        var own = configuration
        own.port = 0
        self.configuration = own
        self.routes = routes
        self.cycleAfter = cycleAfter
        self.moved = moved
        let server = try start()
        current.withLock { $0.server = server }
    }

    /// The machine's `http://ADDRESS:PORT` as bound.
    var listeningURL: String { current.withLock { $0.server?.baseURL } ?? "" }

    /// Replaces the machine now: the next one listens before the old one stops, and this returns once it has.
    func cycle() {
        guard let next = try? start() else { return }
        let old = current.withLock { state -> HTTPServer? in
            let old = state.server
            state.server = next
            state.served = 0
            return old
        }
        old?.stop()
    }

    /// Stops the machine listening now.
    func stop() {
        current.withLock { $0.server }?.stop()
    }

    /// Counts a request to the machine: false for one past `cycleAfter`, which the machine no longer serves;
    /// the first of those sends it away (off the server's own thread, which its stop waits for).
    fileprivate func admit() -> Bool {
        guard let cycleAfter else { return true }
        let served = current.withLock { state -> Int in
            state.served += 1
            return state.served
        }
        // The answers under way (this one's too) get a moment to go out before the machine stops.
        if served == cycleAfter + 1 { DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(200)) { self.cycle() } }
        return served <= cycleAfter
    }

    private func start() throws(HTTPServerError) -> HTTPServer {
        let server = try HTTPServer(configuration: configuration, handler: MachineRoutes(routes: routes, machines: self))
        moved(LocalService.publicBase(host: server.host, port: server.port))
        return server
    }
}

/// The routes a machine serves: the API's, each request counted toward the machine's cycle.
private struct MachineRoutes: HTTPHandler {
    let routes: any HTTPHandler
    /// Weak: the machines own their servers, which own these routes.
    weak var machines: ServiceMachines?

    func plan(for request: HTTPRequest) -> HTTPRequestPlan {
        guard machines?.admit() ?? true else {
            let body: JSONValue = .object([
                "error": .string(ServiceErrorCode.server503.rawValue), "message": .string("This machine is going away; ask the API host."),
            ])
            var leaving = HTTPResponse.json(body.serialized, status: 503)
            leaving.headers.set("Connection", "close")
            return .respond(leaving)
        }
        return routes.plan(for: request)
    }
}
