import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// The Template API's answers are untrusted input: another Template, a content that is no Template, a setting that is
/// neither 0 nor 1, a missing ID or list, a name with control characters; none passes, and no signature is echoed.
@Suite struct TemplateAnswerTests {
    /// Signs every params with the same signature, which no answer or error may echo.
    struct EchoedSigner: Signer {
        static let signature = "sha384:" + String(repeating: "5e", count: 48)
        func sign(_ params: String) async throws(SigningError) -> String { Self.signature }
    }

    static let id = "0123456789abcdef0123456789abcdef"

    /// Template access over a transport answering `body` (with `status`) to every Template request.
    func access(answering body: String, status: Int = 200) -> (TemplateAccess, ScriptedTransport) {
        let transport = ScriptedTransport()
        for method in [HTTPMethod.get, .post, .put] {
            transport.script(method, "/templates", times: 5) { _ in
                .response(status: status, headers: ["Content-Type": "application/json"], body: Array(body.utf8))
            }
        }
        let client = TransloaditClient(transport: transport, endpoint: "https://api.test")
        return (TemplateAccess(client: client, signer: EchoedSigner(), key: "k", expiresIn: .seconds(600), now: { Date(timeIntervalSince1970: 0) }), transport)
    }

    @Test(arguments: [
        (#"{"id":"ffffffffffffffffffffffffffffffff","content":{"steps":{}}}"#, "the answer is about another Template"),
        (#"{"id":"0123456789abcdef0123456789abcdef","content":"{\"steps\": "}"#, "content: expected the Template's JSON"),
        (#"{"id":"0123456789abcdef0123456789abcdef"}"#, "content: expected the Template's content"),
        (#"{"content":{"steps":{}}}"#, "id: expected the Template's ID"),
        (#"{"id":"0123456789abcdef0123456789abcdef","content":{"steps":{},"modified":"x"}}"#, "modified: the account sets it by itself"),
        (#"{"id":"0123456789abcdef0123456789abcdef","content":{"steps":{"a":{"use":":original"}}}}"#, "steps.a.robot"),
        (#"{"id":"0123456789abcdef0123456789abcdef","require_signature_auth":7,"content":{"steps":{}}}"#, "require_signature_auth"),
        ("[]", "the Template API's answer is not a JSON object"),
        ("not json", "the Template API's answer is not a JSON object"),
    ])
    func aTemplateAnswerThatIsNotOneIsRefused(answer: String, expected: String) async throws {
        let (access, _) = access(answering: answer)
        do {
            let template = try await access.template(Self.id)
            Issue.record("accepted \(template)")
        } catch let error as TransloaditError {
            #expect(error.code == .malformedAnswer && error.message.contains(expected), "\(error.message)")
            #expect(!error.message.contains(EchoedSigner.signature))
        }
    }

    @Test func anotherTemplatesIDWithControlCharactersIsEscapedInTheError() async throws {
        let (access, _) = access(answering: #"{"id":"evil\u001b[2J\nid","content":{"steps":{}}}"#)
        await #expect(throws: TransloaditError.self) { _ = try await access.template(Self.id) }
        do { _ = try await access.template(Self.id) } catch let error as TransloaditError {
            #expect(!error.message.contains("\u{1B}") && !error.message.contains("\n") && error.message.contains("evil"), "\(error.message)")
        }
    }

    @Test func aCreationWithoutAnIDAndAListWithoutItemsAreRefused() async throws {
        for body in [#"{"ok":"TEMPLATE_CREATED"}"#, #"{"id":""}"#, #"{"id":"\#(String(repeating: "a", count: 129))"}"#] {
            let (access, _) = access(answering: body)
            await #expect(throws: TransloaditError.self, "\(body)") { _ = try await access.create(TemplateDocument(name: "n", content: ["steps": .object([:])])) }
        }
        let (lister, _) = access(answering: #"{"count":3}"#)
        await #expect(throws: TransloaditError.self) { _ = try await lister.list(page: 1, pageSize: 50) }
    }

    @Test func theServicesRefusalIsItsErrorAndTheRequestCarriesNoSecretButItsSignature() async throws {
        let (access, transport) = access(answering: #"{"error":"TEMPLATE_NOT_FOUND","message":"no such Template"}"#, status: 404)
        do {
            _ = try await access.template(Self.id)
            Issue.record("a 404 was accepted")
        } catch let error as TransloaditError {
            #expect(error.code.rawValue == "TEMPLATE_NOT_FOUND" && !error.message.contains(EchoedSigner.signature))
        }
        let url = try #require(transport.requests(.get, "/templates").first?.url)
        #expect(url.hasPrefix("https://api.test/templates/\(Self.id)?params=") && url.contains("&signature=sha384%3A"))
    }
}
