package import HTTPMessages


/// Dispatches requests by method and path pattern, with a fallback (404 by default) for the rest.
///
/// Patterns are matched segment by segment against ``HTTPRequest/pathSegments`` (so trailing
/// and doubled slashes do not matter): a literal segment matches itself, `:name` matches any
/// one segment and captures it, and a final `*` matches the rest (zero or more segments),
/// captured as `*` joined with `/`. Routes are tried in the order they were added. A `HEAD`
/// request that no `HEAD` route matches is given to the `GET` routes (libmicrohttpd sends the
/// headers of their answer without its body, as RFC 9110 §9.3.2 asks).
///
/// ```swift
/// var router = HTTPRouter()
/// router.add(.get, "/assemblies/:id") { request, parameters in
///     .respond(.json(status(of: parameters["id"]!)))
/// }
/// let server = try HTTPServer(configuration: .init(), handler: router)
/// ```
package struct HTTPRouter: HTTPHandler {
    /// What a route does with a matching request; `parameters` holds the captured segments.
    package typealias Route = @Sendable (HTTPRequest, HTTPRouteParameters) -> HTTPRequestPlan

    private struct Entry: Sendable {
        var method: HTTPMethod
        var pattern: [Substring]
        var route: Route
    }

    private var entries: [Entry] = []
    private let fallback: @Sendable (HTTPRequest) -> HTTPResponse

    /// A router that answers unmatched requests with `fallback` (404 text by default).
    package init(fallback: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in .notFound }) {
        self.fallback = fallback
    }

    /// Adds a route for `method` and `pattern` (for example `/assemblies/:id/replay`).
    package mutating func add(_ method: HTTPMethod, _ pattern: String, _ route: @escaping Route) {
        entries.append(Entry(method: method, pattern: pattern.split(separator: "/"), route: route))
    }

    package func plan(for request: HTTPRequest) -> HTTPRequestPlan {
        let methods: [HTTPMethod] = request.method == .head ? [.head, .get] : [request.method]
        for method in methods {
            for entry in entries where entry.method == method {
                if let parameters = Self.match(entry.pattern, request.pathSegments) {
                    return entry.route(request, parameters)
                }
            }
        }
        return .respond(fallback(request))
    }

    private static func match(_ pattern: [Substring], _ segments: [String]) -> HTTPRouteParameters? {
        var captured: [String: String] = [:]
        for (index, part) in pattern.enumerated() {
            if part == "*", index == pattern.count - 1 {
                captured["*"] = segments.dropFirst(index).joined(separator: "/")
                return HTTPRouteParameters(captured)
            }
            guard index < segments.count else { return nil }
            if part.first == ":" {
                captured[String(part.dropFirst())] = segments[index]
            } else if part != segments[index] {
                return nil
            }
        }
        return pattern.count == segments.count ? HTTPRouteParameters(captured) : nil
    }
}

/// The path segments a route pattern captured, by name (`:id` → `parameters["id"]`).
package struct HTTPRouteParameters: Sendable, Hashable {
    private let values: [String: String]

    init(_ values: [String: String]) {
        self.values = values
    }

    package subscript(name: String) -> String? {
        values[name]
    }
}
