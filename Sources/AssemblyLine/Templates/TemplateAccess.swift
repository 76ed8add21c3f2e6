package import ConfigFormat
package import Foundation

/// The account's Templates as one client sees them: every request signed (by the manifest's signer) with the Auth Key.
package struct TemplateAccess: Sendable {
    private let client: TransloaditClient
    private let signer: any Signer
    private let key: String
    private let expiresIn: Duration
    private let now: @Sendable () -> Date

    package init(client: TransloaditClient, signer: any Signer, key: String, expiresIn: Duration, now: @escaping @Sendable () -> Date) {
        self.client = client
        self.signer = signer
        self.key = key
        self.expiresIn = expiresIn
        self.now = now
    }

    /// The account's Template `id`.
    package func template(_ id: String) async throws -> AccountTemplate {
        try await client.template(id, signed: try await signed([:]))
    }

    /// Replaces the account's Template `id` with `document`.
    package func update(_ id: String, to document: TemplateDocument) async throws {
        try await client.updateTemplate(id, signed: try await signed(Self.members(of: document)))
    }

    /// Creates a Template from `document`; its ID.
    package func create(_ document: TemplateDocument) async throws -> String {
        try await client.createTemplate(signed: try await signed(Self.members(of: document)))
    }

    /// Page `page` (from 1) of the account's Templates, `pageSize` a page, newest first, and how many there are.
    package func list(page: Int, pageSize: Int) async throws -> (items: [AccountTemplate], count: Int) {
        try await client.templates(signed: try await signed([
            "page": .integer(Int64(page)), "pagesize": .integer(Int64(pageSize)), "sort": .string("created"), "order": .string("desc"),
        ]))
    }

    /// What a create or update sends: `name`, the content as `template`, and `require_signature_auth`.
    private static func members(of document: TemplateDocument) -> [String: JSONValue] {
        var members: [String: JSONValue] = [
            "template": .object(document.content),
            "require_signature_auth": .integer(document.requireSignatureAuth ? 1 : 0),
        ]
        if let name = document.name { members["name"] = .string(name) }
        return members
    }

    private func signed(_ members: [String: JSONValue]) async throws(SigningError) -> SignedParams {
        try await signer.signed(RequestParams(key: key, expiresIn: expiresIn, members: members).serialized(now: now()))
    }
}
