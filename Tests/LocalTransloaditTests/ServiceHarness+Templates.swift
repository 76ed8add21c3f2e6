import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages

/// Requests of the Template API and replays, signed as the official clients sign them.
extension ServiceHarness {
    /// How the signed params travel.
    enum Carrier: String, Sendable, CaseIterable {
        /// In the query (what a `GET` must use).
        case query
        /// In an `application/x-www-form-urlencoded` body (go-sdk, python-sdk, ruby-sdk).
        case urlencoded
        /// In a `multipart/form-data` body (node-sdk).
        case multipart
    }

    /// A request to `path` with params of `members` (expiring five minutes after `now`, the service's clock unless given)
    /// and their signature (unless `signature` is given; "" sends none), carried as `carrier` says
    /// (the query for a `GET`, an urlencoded body otherwise, unless told).
    func signed(
        _ method: HTTPMethod, _ path: String, _ members: [String: JSONValue] = [:], now: Date? = nil,
        signature: String? = nil, carrier: Carrier? = nil
    ) async throws -> Answer {
        let params = self.params(members, expires: Self.expiry(in: 300, after: now ?? clock.now))
        var fields = [(name: "params", value: params)]
        let signature = signature ?? sign(params)
        if !signature.isEmpty { fields.append((name: "signature", value: signature)) }
        switch carrier ?? (method == .get ? .query : .urlencoded) {
        case .query:
            return try await send(HTTPRequestSpec(method: method, url: "\(base)\(path)?\(FormURLEncoding.encode(fields))"))
        case .urlencoded:
            return try await send(.form(method, base + path, fields: fields))
        case .multipart:
            var form = MultipartFormBody()
            for field in fields { form.append(name: field.name, value: field.value) }
            return try await send(try HTTPRequestSpec.multipart(method, base + path, form: form))
        }
    }

    /// Creates a Template through the API and returns its ID.
    func createTemplate(
        name: String, content: [String: JSONValue], requireSignatureAuth: Bool = false, now: Date? = nil
    ) async throws -> String {
        let answer = try await signed(.post, "/templates", [
            "name": .string(name), "template": .object(content),
            "require_signature_auth": .integer(requireSignatureAuth ? 1 : 0),
        ], now: now)
        guard let id = answer["id"]?.stringValue else { throw TemplateRequestFailed(answer: answer.json) }
        return id
    }

    /// A replay of `id` with params of `members`, expiring five minutes after `now` (the service's clock unless given).
    func replay(_ id: String, _ members: [String: JSONValue] = [:], now: Date? = nil) async throws -> Answer {
        try await signed(.post, "/assemblies/\(id)/replay", members, now: now)
    }
}

/// A Template the harness could not create, with the service's answer.
struct TemplateRequestFailed: Error {
    var answer: JSONValue
}
