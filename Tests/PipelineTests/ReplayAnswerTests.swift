import AssemblyLine
import HTTPMessages
import TestSupport
import Testing

/// The client's replay (`POST /assemblies/<id>/replay`): its request, and its answer read as untrusted input, as a
/// creation's is (docs/local-service.md, Replays; docs/transloadit-fidelity.md).
@Suite struct ReplayAnswerTests {
    static let parent = AssemblyID("0f9a3c5e7b1d4e2f8a6c9b0d1e3f5a7c")!
    static let replay = "fedcba9876543210fedcba9876543210"
    static let signed = SignedParams(params: #"{"auth":{},"reparse_template":1}"#, signature: "sha384:" + String(repeating: "0", count: 96))

    private func replaying(answer: ScriptedTransport.Answer) async throws(TransloaditError) -> (AssemblyStatus, [HTTPRequestSpec]) {
        let transport = ScriptedTransport()
        transport.script(.post, "/assemblies/") { _ in answer }
        let status = try await TransloaditClient(transport: transport, endpoint: "https://api2.test").replay(Self.parent, signed: Self.signed)
        return (status, transport.requests)
    }

    private static func answer(id: String = replay, url: String = "https://api2-m1.test/assemblies/\(replay)", parent: String = parent.rawValue) -> String {
        #"{"ok":"ASSEMBLY_REPLAYING","assembly_id":"\#(id)","assembly_ssl_url":"\#(url)","parent_id":null,"#
            + #""parent_assembly_status":{"assembly_id":"\#(parent)"},"bytes_received":0}"#
    }

    @Test func theReplayIsAFormPostOfTheSignedParamsToTheParentsReplayURL() async throws {
        let (status, requests) = try await replaying(answer: .json(200, Self.answer()))
        #expect(status.assemblyID == Self.replay && status.ok == .replaying && status.parentID == Self.parent.rawValue)
        let request = try #require(requests.first)
        #expect(request.method == .post && request.url == "https://api2.test/assemblies/\(Self.parent)/replay")
        #expect(request.headers.value(for: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test(arguments: [
        answer(id: "not-ours"), answer(id: parent.rawValue, url: "https://api2-m1.test/assemblies/\(parent)"),
        answer(url: "https://api2-m1.test/assemblies/0000"), answer(url: "file:///etc/passwd/\(replay)"),
        answer(parent: "ffffffffffffffffffffffffffffffff"),
    ])
    func anAnswerThatIsNoReplayOfOursIsRefused(_ body: String) async throws {
        let error = await #expect(throws: TransloaditError.self) { try await replaying(answer: .json(200, body)) }
        #expect(error?.code == .assemblyIDMismatch && error?.isRetryable == false)
    }

    @Test func theServicesRefusalIsItsError() async throws {
        let body = #"{"error":"ASSEMBLY_CANNOT_BE_REPLAYED","message":"uploads gone","assembly_id":"\#(Self.parent)"}"#
        let error = await #expect(throws: TransloaditError.self) { try await replaying(answer: .json(400, body)) }
        #expect(error?.code == .assemblyCannotBeReplayed && error?.httpStatus == 400)
    }
}
