@testable import AssemblyLine
import ConfigFormat
import CurlTransport
import Digests
import Foundation
import SignServer
import Synchronization
import TestSupport

/// A real sign-server on an ephemeral loopback port with a known policy, and signers that talk to it over libcurl.
final class SignServerFixture {
    static let key = "key-1"
    static let secret = "auth-secret-0123456789"
    static let token = "token-alpha-7f3e"
    static let otherToken = "token-bravo-91c2"
    static let notifyURL = "https://example.com/hook"
    /// One transport for every test, as the pipeline shares one.
    static let transport = CurlTransport()

    static let resize = ResizeSettings(width: 200, height: 200, strategy: .fit, format: nil, quality: nil, background: nil, zoom: true)

    static func policy(requestsPerMinute: Int = 600) throws -> SigningPolicy {
        SigningPolicy(
            key: key, secret: .environment("UNUSED"), tokenHashes: [Hex.encode(Digest.sha256(Array(token.utf8)))],
            maxExpiresIn: .seconds(3600), clockSkew: .seconds(5), templates: ["tpl-ok"], steps: [resize.steps],
            fields: ["album": try FieldPattern("[a-z0-9-]{1,32}")], notifyURLs: [notifyURL],
            requestsPerMinute: requestsPerMinute)
    }

    let log = Recorder<String>()
    let server: SignServer

    init(requestsPerMinute: Int = 600) throws {
        server = try SignServer(policy: try Self.policy(requestsPerMinute: requestsPerMinute), secret: Self.secret, log: log.sink)
    }

    deinit {
        server.stop()
    }

    func signer(token: String = SignServerFixture.token, timeout: Duration = .seconds(5)) throws -> BackendSigner {
        try BackendSigner(url: server.signURL, token: token, timeout: timeout, transport: Self.transport)
    }
}

/// Params texts for the tests, built as the pipeline builds them and then edited where a case needs it.
enum TestParams {
    static func template(_ id: String = "tpl-ok", expiresIn: Duration = .seconds(600), fields: [String: JSONValue] = [:]) -> String {
        AssemblyParams(key: SignServerFixture.key, expiresIn: expiresIn, instructions: .template(id: id, fields: fields)).serialized(now: Date())
    }

    static func resize(_ settings: ResizeSettings = SignServerFixture.resize, expiresIn: Duration = .seconds(600)) -> String {
        AssemblyParams(key: SignServerFixture.key, expiresIn: expiresIn, recipe: .resize(settings)).serialized(now: Date())
    }

    /// One Template params text with a slash in its expiry, fixed for the whole run, for backends that do not check nonces.
    static let fixedTemplate = template()

    /// `params` parsed, changed by `edit`, serialized again (canonically).
    static func edited(_ params: String, _ edit: (inout [String: JSONValue]) -> Void) -> String {
        var members = (try? JSONValue(parsing: params))?.objectValue ?? [:]
        edit(&members)
        return JSONValue.object(members).serialized
    }

    /// `params` with one `auth` member changed or removed.
    static func auth(_ params: String, _ key: String, _ value: JSONValue?) -> String {
        edited(params) { members in
            var auth = members["auth"]?.objectValue ?? [:]
            auth[key] = value
            members["auth"] = .object(auth)
        }
    }

    /// The `auth.expires` text of `params`.
    static func expires(_ params: String) -> String {
        (try? JSONValue(parsing: params))?.objectValue?["auth"]?.objectValue?["expires"]?.stringValue ?? ""
    }
}

/// Runs `signer` and returns its typed error, or nil when it signed.
func signingError(_ signer: some Signer, _ params: String) async -> SigningError? {
    do {
        _ = try await signer.sign(params)
        return nil
    } catch {
        return error
    }
}
