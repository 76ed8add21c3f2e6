import AssemblyLine
import HTTPMessages
import HTTPServer

/// The service's routing table (transloadit-api.md §8.1), with fault injection around each route.
///
/// Unknown routes get `404 {"error":"SERVER_404","message":"unknown method / url"}`. A `POST`
/// with `X-HTTP-Method-Override` is routed as the method it names (tus clients behind proxies use it).
struct ServiceRoutes: HTTPHandler {
    private let router: HTTPRouter

    init(service: ServiceContext) {
        let create = CreateAssemblyHandler(service: service)
        let query = AssemblyQueryHandler(service: service)
        let replay = ReplayHandler(service: service)
        let tus = TusHandler(service: service)
        let files = FileDownloadHandler(service: service)
        let faults = service.faults
        let notFound: @Sendable (HTTPRequest) -> HTTPResponse = { APIError.notFound.response(urls: service.urls(for: $0)) }
        /// The route's plan, with the ID segment checked first (an invalid one is an unknown Assembly).
        @Sendable func withID(_ parameters: HTTPRouteParameters, _ urls: ServiceURLs, _ plan: (String) -> HTTPRequestPlan) -> HTTPRequestPlan {
            guard let id = parameters["id"], AssemblyID(id) != nil else {
                return .respond(APIError.assemblyNotFound(parameters["id"] ?? "").response(urls: urls))
            }
            return plan(id)
        }
        var router = HTTPRouter(fallback: notFound)
        router.add(.post, "/assemblies") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.create, urls: urls, bodyLength: request.contentLength) { create.plan(for: request, chosenID: nil, urls: urls) }
        }
        router.add(.post, "/assemblies/:id") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in
                faults.apply(.create, urls: urls, bodyLength: request.contentLength) { create.plan(for: request, chosenID: id, urls: urls) }
            }
        }
        router.add(.post, "/assemblies/:id/replay") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in faults.apply(.replay, urls: urls) { replay.plan(originalID: id, urls: urls) } }
        }
        router.add(.get, "/assemblies") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.list, urls: urls) { .respond(query.list(request, urls: urls)) }
        }
        router.add(.get, "/assemblies/:id") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in faults.apply(.status, urls: urls) { .respond(query.status(id, urls: urls)) } }
        }
        router.add(.delete, "/assemblies/:id") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in
                faults.apply(.cancel, urls: urls) { .buffer(limit: CreateAssemblyHandler.formLimit) { _, _ in query.cancel(id, urls: urls) } }
            }
        }
        router.add(.options, "/resumable/files/*") { request, _ in
            faults.apply(.tusOptions, urls: service.urls(for: request)) { .respond(tus.options()) }
        }
        router.add(.post, "/resumable/files") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.tusCreate, urls: urls) { .respond(tus.create(request, urls: urls)) }
        }
        router.add(.head, "/resumable/files/:upload") { request, parameters in
            faults.apply(.tusHead, urls: service.urls(for: request)) { .respond(tus.head(parameters["upload"] ?? "")) }
        }
        router.add(.patch, "/resumable/files/:upload") { request, parameters in
            faults.apply(.tusPatch, urls: service.urls(for: request), bodyLength: request.contentLength) {
                tus.patch(request, id: parameters["upload"] ?? "")
            }
        }
        router.add(.delete, "/resumable/files/:upload") { request, parameters in
            faults.apply(.tusDelete, urls: service.urls(for: request)) { .respond(tus.terminate(request, id: parameters["upload"] ?? "")) }
        }
        router.add(.get, "/storage/*") { request, _ in
            // The customer's storage, as an export Robot leaves it: private.
            service.log("storage: refused GET \(EchoedText.excerpt(request.target))")
            return .respond(.text(#"<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"#,
                           status: 403))
        }
        router.add(.get, "/files/:assembly/:file/*") { request, parameters in
            files.plan(assembly: parameters["assembly"] ?? "", file: parameters["file"] ?? "", urls: service.urls(for: request))
        }
        self.router = router
    }

    func plan(for request: HTTPRequest) -> HTTPRequestPlan {
        guard request.method == .post, let override = request.headers["X-HTTP-Method-Override"], !override.isEmpty else {
            return router.plan(for: request)
        }
        let rerouted = HTTPRequest(
            method: HTTPMethod(rawValue: override.uppercased()), target: request.target, headers: request.headers,
            version: request.version, remoteAddress: request.remoteAddress, remotePort: request.remotePort,
            connectionID: request.connectionID)
        return router.plan(for: rerouted)
    }
}
