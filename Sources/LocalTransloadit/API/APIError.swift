import AssemblyLine
import ConfigFormat
import HTTPMessages
import HTTPServer

/// An error answer of the Assembly API: Transloadit's error code, the HTTP status, a message, and extras.
///
/// Every error the service sends is JSON (`{"error": CODE, "message": ..., "http_code": N, ...}`),
/// because official clients parse the body of every response. The statuses are the service's
/// choice where the reference marks them uncertain; docs/local-service.md lists them.
struct APIError: Error, Sendable, Hashable, CustomStringConvertible {
    var code: ServiceErrorCode
    var status: Int
    var message: String
    /// Extra detail (`reason` in the body).
    var reason: String?
    /// Seconds a client should wait before trying again (`info.retryIn` and `Retry-After`).
    var retryIn: Double?
    /// The Assembly the request named, when there is one (`assembly_id` and its URLs in the body).
    var assemblyID: String?

    init(_ code: ServiceErrorCode, status: Int, _ message: String, reason: String? = nil) {
        self.code = code
        self.status = status
        self.message = message
        self.reason = reason
    }

    var description: String { "\(code.rawValue): \(message)" }

    /// This error tied to an Assembly.
    func about(_ assemblyID: String?) -> APIError {
        var error = self
        error.assemblyID = assemblyID
        return error
    }

    /// The JSON body of this error.
    func body(urls: ServiceURLs) -> JSONValue {
        var members: [String: JSONValue] = [
            "error": .string(code.rawValue), "message": .string(message), "http_code": .integer(Int64(status)),
        ]
        if let reason { members["reason"] = .string(reason) }
        if let retryIn { members["info"] = .object(["retryIn": .number(retryIn)]) }
        if let assemblyID {
            members["assembly_id"] = .string(assemblyID)
            members["assembly_url"] = .string(urls.assembly(assemblyID))
            members["assembly_ssl_url"] = .string(urls.assembly(assemblyID))
        }
        return .object(members)
    }

    /// The HTTP response carrying this error.
    func response(urls: ServiceURLs) -> HTTPResponse {
        var response = HTTPResponse.json(body(urls: urls).serialized, status: status)
        if let retryIn {
            response.headers.set("Retry-After", String(Int(retryIn.rounded(.up))))
        }
        return response
    }

    // MARK: - The codes the service sends

    static let notFound = APIError(.server404, status: 404, "unknown method / url")

    /// No Assembly by that name; an ID that is not one is quoted as an excerpt and not echoed as `assembly_id`.
    static func assemblyNotFound(_ id: String) -> APIError {
        let error = APIError(.assemblyNotFound, status: 404, "The Assembly \(EchoedText.excerpt(id)) could not be found.")
        return AssemblyID(id) == nil ? error : error.about(id)
    }

    /// No Template by that ID (node-sdk's live test and go-sdk's: a Template deleted is `TEMPLATE_NOT_FOUND` with a 4xx).
    static func templateNotFound(_ id: String) -> APIError {
        APIError(.templateNotFound, status: 404, "The Template \(EchoedText.excerpt(id)) could not be found.")
    }

    /// Too many creations this minute: HTTP 413 with `info.retryIn`, as the docs' "Rate limiting" page says.
    static func creationsRateLimited(wait: Duration) -> APIError {
        var error = APIError(.rateLimitReached, status: 413, "Request limit reached: too many Assemblies created per minute.")
        error.retryIn = wait.retrySeconds
        return error
    }

    static func invalidForm(_ reason: String) -> APIError {
        APIError(.invalidFormData, status: 400, "The request body could not be read as a form.", reason: reason)
    }

    /// The form fields of one creation (params included) are more than the service keeps for an Assembly.
    static func fieldsTooLarge(limit: Int) -> APIError {
        APIError(
            .assemblyFieldsTooLarge, status: 413,
            "The form fields of this request (params included) exceed \(limit) bytes in all.")
    }

    static func internalError(_ reason: String) -> APIError {
        APIError(.internalServerError, status: 500, "The service could not handle the request.", reason: reason)
    }

    static func validation(_ code: ServiceErrorCode, _ message: String) -> APIError {
        APIError(code, status: 400, message)
    }
}
