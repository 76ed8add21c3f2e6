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
        let templates = TemplateHandler(service: service)
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
        /// Adds a route whose requests are counted under `name` (``ServiceRequestCounts``).
        func add(_ method: HTTPMethod, _ pattern: String, counted name: String, _ route: @escaping HTTPRouter.Route) {
            router.add(method, pattern) { request, parameters in
                service.requestCounts.add(name)
                return route(request, parameters)
            }
        }
        add(.post, "/assemblies", counted: "create") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.create, urls: urls, bodyLength: request.contentLength) { create.plan(for: request, chosenID: nil, urls: urls) }
        }
        add(.post, "/assemblies/:id", counted: "create") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in
                faults.apply(.create, urls: urls, bodyLength: request.contentLength) { create.plan(for: request, chosenID: id, urls: urls) }
            }
        }
        add(.post, "/assemblies/:id/replay", counted: "replay") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in faults.apply(.replay, urls: urls) { replay.plan(originalID: id, urls: urls) } }
        }
        add(.get, "/assemblies", counted: "list") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.list, urls: urls) { .respond(query.list(request, urls: urls)) }
        }
        add(.get, "/assemblies/:id", counted: "status") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in faults.apply(.status, urls: urls) { .respond(query.status(id, urls: urls)) } }
        }
        add(.delete, "/assemblies/:id", counted: "cancel") { request, parameters in
            let urls = service.urls(for: request)
            return withID(parameters, urls) { id in
                faults.apply(.cancel, urls: urls) { .buffer(limit: CreateAssemblyHandler.formLimit) { _, _ in query.cancel(id, urls: urls) } }
            }
        }
        add(.post, "/templates", counted: "template_create") { request, _ in templates.create(urls: service.urls(for: request)) }
        add(.get, "/templates", counted: "template_list") { request, _ in
            .respond(templates.list(request, urls: service.urls(for: request)))
        }
        add(.get, "/templates/:id", counted: "template_get") { request, parameters in
            .respond(templates.retrieve(request, id: parameters["id"] ?? "", urls: service.urls(for: request)))
        }
        add(.put, "/templates/:id", counted: "template_edit") { request, parameters in
            templates.edit(id: parameters["id"] ?? "", urls: service.urls(for: request))
        }
        add(.delete, "/templates/:id", counted: "template_delete") { request, parameters in
            templates.delete(id: parameters["id"] ?? "", urls: service.urls(for: request))
        }
        add(.get, "/ws", counted: "stream") { request, _ in
            .respond(query.changeStream(request, urls: service.urls(for: request)))
        }
        add(.options, "/resumable/files/*", counted: "tus_options") { request, _ in
            faults.apply(.tusOptions, urls: service.urls(for: request)) { .respond(tus.options()) }
        }
        add(.post, "/resumable/files", counted: "tus_create") { request, _ in
            let urls = service.urls(for: request)
            return faults.apply(.tusCreate, urls: urls) { .respond(tus.create(request, urls: urls)) }
        }
        add(.head, "/resumable/files/:upload", counted: "tus_head") { request, parameters in
            faults.apply(.tusHead, urls: service.urls(for: request)) { .respond(tus.head(parameters["upload"] ?? "")) }
        }
        add(.patch, "/resumable/files/:upload", counted: "tus_patch") { request, parameters in
            faults.apply(.tusPatch, urls: service.urls(for: request), bodyLength: request.contentLength) {
                tus.patch(request, id: parameters["upload"] ?? "")
            }
        }
        add(.delete, "/resumable/files/:upload", counted: "tus_delete") { request, parameters in
            faults.apply(.tusDelete, urls: service.urls(for: request)) { .respond(tus.terminate(request, id: parameters["upload"] ?? "")) }
        }
        add(.get, "/storage/*", counted: "storage") { request, _ in
            // The customer's storage, as an export Robot leaves it: private.
            service.log("storage: refused GET \(EchoedText.excerpt(request.target))")
            return .respond(.text(#"<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"#,
                           status: 403))
        }
        add(.get, "/files/:assembly/:file/*", counted: "download") { request, parameters in
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
