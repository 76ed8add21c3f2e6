package import HTTPMessages

/// A request body: nothing, bytes in memory, or a plan of byte and file segments streamed while sending.
package enum HTTPRequestBody: Sendable, Hashable {
    case none
    case bytes([UInt8])
    case plan(BodyPlan)

    /// The exact number of body bytes, known before anything is read.
    package var contentLength: Int64 {
        switch self {
        case .none: 0
        case let .bytes(bytes): Int64(bytes.count)
        case let .plan(plan): plan.contentLength
        }
    }

    /// The body as a plan, so a transport needs only one way to pull it.
    package var asPlan: BodyPlan {
        switch self {
        case .none: BodyPlan()
        case let .bytes(bytes): BodyPlan([.bytes(bytes)])
        case let .plan(plan): plan
        }
    }
}

/// Everything a transport needs to send one HTTP request: a plain value, built by the domain, sent by an adapter.
package struct HTTPRequestSpec: Sendable, Hashable {
    package var method: HTTPMethod
    /// An absolute `http://` or `https://` URL, already percent-encoded.
    package var url: String
    /// Header fields in the order they are sent; `Transloadit-Client` is added by the transport.
    package var headers: HTTPHeaders
    package var body: HTTPRequestBody

    package init(method: HTTPMethod, url: String, headers: HTTPHeaders = [], body: HTTPRequestBody = .none) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// A GET of `url`.
    package static func get(_ url: String, headers: HTTPHeaders = []) -> HTTPRequestSpec {
        HTTPRequestSpec(method: .get, url: url, headers: headers)
    }

    /// A request whose body is JSON text, with `Content-Type` and `Accept` set to `application/json`.
    package static func json(
        _ method: HTTPMethod, _ url: String, body: [UInt8], headers: HTTPHeaders = []
    ) -> HTTPRequestSpec {
        HTTPRequestSpec(
            method: method, url: url,
            headers: [HTTPHeader(name: "Content-Type", value: "application/json"),
                      HTTPHeader(name: "Accept", value: "application/json")] + headers,
            body: .bytes(body))
    }

    /// A request with an `application/x-www-form-urlencoded` body of `fields`, in order.
    package static func form(
        _ method: HTTPMethod, _ url: String, fields: [(name: String, value: String)], headers: HTTPHeaders = []
    ) -> HTTPRequestSpec {
        HTTPRequestSpec(
            method: method, url: url,
            headers: [HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")] + headers,
            body: .bytes(Array(FormURLEncoding.encode(fields).utf8)))
    }

    /// A multipart/form-data request streamed from `form`'s plan, with its boundary in `Content-Type`.
    ///
    /// - Throws: the first error the form builder deferred (a missing or unreadable file, a bad header value).
    package static func multipart(
        _ method: HTTPMethod = .post, _ url: String, form: MultipartFormBody, headers: HTTPHeaders = []
    ) throws(TransportError) -> HTTPRequestSpec {
        let plan: BodyPlan
        do {
            plan = try form.plan()
        } catch {
            throw TransportError(error)
        }
        return HTTPRequestSpec(
            method: method, url: url, headers: [HTTPHeader(name: "Content-Type", value: form.contentType)] + headers,
            body: .plan(plan))
    }
}
