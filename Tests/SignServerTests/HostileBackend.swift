import AssemblyLine
import ConfigFormat
import Digests
import HTTPServer

/// A signing backend that misbehaves on purpose: each answer is made from the params it received.
final class HostileBackend {
    let server: HTTPServer

    /// - Parameter answer: the response to a request whose body held `params` (empty when it held none).
    init(_ answer: @escaping @Sendable (String) -> HTTPResponse) throws {
        server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { _ in
            .buffer(limit: 1 << 20) { _, body in
                let params = (try? JSONValue(parsing: body))?.objectValue?["params"]?.stringValue ?? ""
                return answer(params)
            }
        }
    }

    deinit {
        server.stop()
    }

    var url: String { server.baseURL + "/sign" }

    /// A 200 JSON answer with these members.
    static func answer(params: String, signature: String) -> HTTPResponse {
        .json(JSONValue.object(["params": .string(params), "signature": .string(signature)]).serialized)
    }

    /// A well-formed signature of `params` under the fixture's secret.
    static func signature(_ params: String) -> String {
        HMAC.transloaditSignature(params: params, secret: SignServerFixture.secret)
    }
}
