import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import HTTPServer

/// The Template API: `POST /templates`, `GET /templates`, and `GET`, `PUT`, `DELETE /templates/<id>`.
///
/// Each request is signed as Assembly requests are: `params` and `signature` in the query of a `GET`,
/// in the body (urlencoded or multipart) of the others. Answers (node-sdk `apiTypes.ts` and its live
/// test, go-sdk `template.go`, ruby-sdk's recorded answers): a Template's `id`, `name`, `content`,
/// `require_signature_auth` and times with `ok` `TEMPLATE_CREATED`, `TEMPLATE_FOUND` or `TEMPLATE_UPDATED`;
/// `TEMPLATE_DELETED` with a message; `{"items": [...], "count": N}` for a listing; `TEMPLATE_NOT_FOUND`
/// (404) for an unknown ID.
struct TemplateHandler: Sendable {
    /// The `ok` of a Template answer.
    enum Outcome: String, Sendable {
        case created = "TEMPLATE_CREATED"
        case found = "TEMPLATE_FOUND"
        case updated = "TEMPLATE_UPDATED"
        case deleted = "TEMPLATE_DELETED"

        var message: String {
            switch self {
            case .created: return "The Template was successfully created."
            case .found: return "The Template was successfully found."
            case .updated: return "The Template was successfully updated."
            case .deleted: return "Your template was successfully deleted."
            }
        }
    }

    /// The `order` of a listing.
    enum Order: String, Sendable, CaseIterable {
        case asc, desc
    }

    let service: ServiceContext

    /// `POST /templates`: a new Template from `name` and `template` (both required) and `require_signature_auth` (default 0).
    func create(urls: ServiceURLs) -> HTTPRequestPlan {
        signedBody(urls: urls) { params, now throws(APIError) in
            let settings = try TemplateSettings(params: params)
            guard let name = settings.name else {
                throw .validation(.invalidParamsField, "A new Template needs a name.")
            }
            guard let content = settings.content else {
                throw .validation(.invalidTemplateField, "A new Template needs a template: its JSON, such as {\"steps\": {...}}.")
            }
            let template = try service.templates.create(
                name: name, content: content, requireSignatureAuth: settings.requireSignatureAuth ?? false, at: now)
            return Self.answer(template, .created)
        }
    }

    /// `GET /templates/<id>`.
    func retrieve(_ request: HTTPRequest, id: String, urls: ServiceURLs) -> HTTPResponse {
        signedQuery(request, urls: urls) { _, _ throws(APIError) in
            guard let template = service.templates.template(id) else { throw .templateNotFound(id) }
            return Self.answer(template, .found)
        }
    }

    /// `PUT /templates/<id>`: changes what the params name of `name`, `template` and `require_signature_auth`;
    /// a new `template` replaces the content whole.
    func edit(id: String, urls: ServiceURLs) -> HTTPRequestPlan {
        signedBody(urls: urls) { params, now throws(APIError) in
            let settings = try TemplateSettings(params: params)
            let edited = try service.templates.edit(id, at: now) { template in
                if let name = settings.name { template.name = name }
                if let content = settings.content { template.content = StoredJSON(.object(content)) }
                if let required = settings.requireSignatureAuth { template.requireSignatureAuth = required }
            }
            guard let edited else { throw .templateNotFound(id) }
            return Self.answer(edited, .updated)
        }
    }

    /// `DELETE /templates/<id>`.
    func delete(id: String, urls: ServiceURLs) -> HTTPRequestPlan {
        signedBody(urls: urls) { _, _ throws(APIError) in
            guard try service.templates.delete(id) else { throw .templateNotFound(id) }
            return .object(["ok": .string(Outcome.deleted.rawValue), "message": .string(Outcome.deleted.message)])
        }
    }

    /// `GET /templates`: one page (``ListPage``), sorted by `sort` (`id`, `name`, `created` or `modified`; default
    /// `created`) in `order` (`asc` or `desc`; default `desc`, newest first).
    func list(_ request: HTTPRequest, urls: ServiceURLs) -> HTTPResponse {
        signedQuery(request, urls: urls) { params, _ throws(APIError) in
            let page = try ListPage(params: params)
            let sort = try Self.choice(params["sort"], as: TemplateStore.Sort.self, default: .created, name: "sort")
            let order = try Self.choice(params["order"], as: Order.self, default: .desc, name: "order")
            let (templates, total) = service.templates.page(sortedBy: sort, ascending: order == .asc, from: page.start, count: page.size)
            return .object(["items": .array(templates.map { .object($0.json) }), "count": .integer(Int64(total))])
        }
    }

    /// A request whose signed params are in its query.
    private func signedQuery(
        _ request: HTTPRequest, urls: ServiceURLs, _ answer: ([String: JSONValue], Date) throws(APIError) -> JSONValue
    ) -> HTTPResponse {
        respond(to: request.query, urls: urls, answer)
    }

    /// A request whose signed params are in its body (or query).
    private func signedBody(
        urls: ServiceURLs, _ answer: @escaping ([String: JSONValue], Date) throws(APIError) -> JSONValue
    ) -> HTTPRequestPlan {
        .buffer(limit: CreateAssemblyHandler.formLimit) { request, body in
            do throws(APIError) {
                return respond(to: try FormBody.fields(of: request, body: body), urls: urls, answer)
            } catch {
                return error.response(urls: urls)
            }
        }
    }

    /// Verifies the fields' params and answers them, or answers the error.
    private func respond(
        to fields: [FormField], urls: ServiceURLs, _ answer: ([String: JSONValue], Date) throws(APIError) -> JSONValue
    ) -> HTTPResponse {
        let now = service.clock.now
        do throws(APIError) {
            let params = try service.verifier.verify(
                params: fields.firstValue(named: "params"), signature: fields.firstValue(named: "signature"),
                purpose: .account, now: now)
            return .json(try answer(params, now).serialized)
        } catch {
            return error.response(urls: urls)
        }
    }

    /// A Template's answer with its `ok` and message.
    private static func answer(_ template: ServiceTemplate, _ outcome: Outcome) -> JSONValue {
        var members = template.json
        members["ok"] = .string(outcome.rawValue)
        members["message"] = .string(outcome.message)
        return .object(members)
    }

    /// A listing's `sort` or `order`: one of `Choice`'s names, the default when absent.
    ///
    /// - Throws: `INVALID_PARAMS_FIELD` (400) for anything else.
    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ value: JSONValue?, as type: Choice.Type, default fallback: Choice, name: String
    ) throws(APIError) -> Choice where Choice.RawValue == String {
        guard let value, value != .null else { return fallback }
        guard let text = value.stringValue, let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw .validation(.invalidParamsField, "\(name) must be one of \(names).")
        }
        return choice
    }
}
