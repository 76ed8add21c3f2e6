import ConfigFormat
import HTTPMessages

/// The Template API (`/templates`): read, write and list the account's Templates with signed params, as Assemblies are.
extension TransloaditClient {
    /// The account's Template `id`.
    ///
    /// - Throws: the service's error (`TEMPLATE_NOT_FOUND`, an auth error), or `MALFORMED_ANSWER` for an answer that is not a Template.
    package func template(_ id: String, signed: SignedParams) async throws(TransloaditError) -> AccountTemplate {
        let answer = try await templateAnswer(.get("\(endpoint)/templates/\(Self.pathSegment(id))?\(Self.query(signed))"))
        return try Self.template(in: answer, expectedID: id)
    }

    /// Replaces the account's Template `id` with the params' `name`, `template` and `require_signature_auth`.
    package func updateTemplate(_ id: String, signed: SignedParams) async throws(TransloaditError) {
        _ = try await templateAnswer(.form(.put, "\(endpoint)/templates/\(Self.pathSegment(id))", fields: signed.formFields))
    }

    /// Creates a Template from the params' `name`, `template` and `require_signature_auth`; its ID as the answer gives it.
    package func createTemplate(signed: SignedParams) async throws(TransloaditError) -> String {
        let answer = try await templateAnswer(.form(.post, "\(endpoint)/templates", fields: signed.formFields))
        guard case .string(let id)? = answer.objectValue?["id"], !id.isEmpty, id.count <= 128 else {
            throw TransloaditError(code: .malformedAnswer, message: "the answer to a Template's creation names no Template ID", isRetryable: false)
        }
        return id
    }

    /// One page of the account's Templates (the params give `page`, `pagesize`, `sort` and `order`), and how many there are.
    package func templates(signed: SignedParams) async throws(TransloaditError) -> (items: [AccountTemplate], count: Int) {
        let answer = try await templateAnswer(.get("\(endpoint)/templates?\(Self.query(signed))"))
        guard case .array(let items)? = answer.objectValue?["items"] else {
            throw TransloaditError(code: .malformedAnswer, message: "the list of Templates has no items", isRetryable: false)
        }
        var templates: [AccountTemplate] = []
        for item in items { templates.append(try Self.template(in: item, expectedID: nil)) }
        let count: Int = if case .integer(let total)? = answer.objectValue?["count"] { Int(total) } else { templates.count }
        return (templates, count)
    }

    /// The JSON object of a successful answer; an error status or an error body is the service's error.
    private func templateAnswer(_ request: HTTPRequestSpec) async throws(TransloaditError) -> JSONValue {
        let (response, status) = try await exchange(request, within: RequestDeadline.answer, progress: nil)
        if !response.isSuccess || status?.error != nil { _ = try Self.usable(status, of: response) }
        guard let answer = try? JSONValue(parsing: response.bodyBytes), answer.objectValue != nil else {
            throw TransloaditError(code: .malformedAnswer, message: "the Template API's answer is not a JSON object", isRetryable: false)
        }
        return answer
    }

    private static func template(in answer: JSONValue, expectedID: String?) throws(TransloaditError) -> AccountTemplate {
        do {
            return try AccountTemplate(answer: answer, expectedID: expectedID)
        } catch {
            throw TransloaditError(code: .malformedAnswer, message: error.description, isRetryable: false)
        }
    }

    /// `params=…&signature=…` for a GET.
    private static func query(_ signed: SignedParams) -> String {
        FormURLEncoding.encode(signed.formFields)
    }

    /// A Template ID or name as one path segment: every byte but letters, digits, `-`, `.` and `_` percent-encoded.
    private static func pathSegment(_ id: String) -> String {
        FormURLEncoding.escape(id, spaceAsPlus: false)
    }
}
