import AssemblyLine
import HTTPMessages
import TestSupport
import Testing

/// The client's reading of answers shaped like production's (node-sdk `assemblyStatus.ts` and its
/// fixtures, docs/transloadit-fidelity.md), against a scripted transport.
@Suite struct AssemblyAnswerTests {
    static let url = "https://api2.test/assemblies/0f9a3c5e7b1d4e2f8a6c9b0d1e3f5a7c"

    private func client(answering answer: ScriptedTransport.Answer) -> TransloaditClient {
        let transport = ScriptedTransport()
        transport.script(.get, "/assemblies/") { _ in answer }
        transport.script(.post, "/assemblies/") { _ in answer }
        return TransloaditClient(transport: transport, endpoint: "https://api2.test")
    }

    @Test(arguments: [
        (200, "ASSEMBLY_NOT_FOUND"), (404, "ASSEMBLY_NOT_FOUND"), (404, "ASSEMBLY_STATUS_NOT_FOUND"),
        (200, "ASSEMBLY_INSTANCE_NOT_FOUND"), (410, "ASSEMBLY_INSTANCE_NOT_FOUND"),
    ])
    func notFoundIsTheBodysWordWhateverTheStatus(status: Int, code: String) async throws {
        let client = client(answering: .json(status, #"{"error":"\#(code)","message":"not here"}"#))
        #expect(try await client.status(url: Self.url) == nil)
    }

    @Test func aBare404IsAnErrorNotANotFound() async throws {
        let client = client(answering: .response(status: 404, headers: ["Content-Type": "text/html"], body: Array("<h1>gone</h1>".utf8)))
        let error = await #expect(throws: TransloaditError.self) { try await client.status(url: Self.url) }
        #expect(error?.code == .http(404) && error?.httpStatus == 404)
    }

    @Test func aStatusAnswerWithAnAssemblyErrorIsTheAssemblysEndWhateverTheStatus() async throws {
        let body = #"{"error":"INTERNAL_COMMAND_ERROR","http_code":500,"message":"convert exited 1","assembly_id":"0f9a","#
            + #""assembly_ssl_url":"https://api2-m7.test/assemblies/0f9a"}"#
        let status = try #require(try await client(answering: .json(500, body)).status(url: Self.url))
        #expect(status.error == "INTERNAL_COMMAND_ERROR" && status.message == "convert exited 1" && !status.isRunning)
    }

    @Test func aStatusAnswerThatRefusesTheRequestStaysAnError() async throws {
        let body = #"{"error":"ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED","assembly_id":"0f9a","info":{"retryIn":3}}"#
        let error = await #expect(throws: TransloaditError.self) { try await client(answering: .json(200, body)).status(url: Self.url) }
        #expect(error?.isRateLimit == true && error?.retryIn == .seconds(3))
    }

    @Test func aCreationAnswered2xxWithAnErrorIsThatError() async throws {
        let body = #"{"error":"IMPORT_FILE_ERROR","message":"cannot import","assembly_id":"0f9a"}"#
        let client = client(answering: .json(200, body))
        let error = await #expect(throws: TransloaditError.self) {
            try await client.create(id: AssemblyID.generate(), params: "{}", signature: "sha384:00", uploads: [])
        }
        #expect(error?.code == "IMPORT_FILE_ERROR" && error?.isRetryable == false)
    }

    @Test(arguments: [(503, "false", false), (400, "true", true), (503, "null", true), (400, "null", false)])
    func anErrorBodysRetryableIsHonoured(status: Int, retryable: String, expected: Bool) async throws {
        let body = #"{"error":"SERVER_BUSY","retryable":\#(retryable)}"#
        let client = client(answering: .json(status, body))
        let error = await #expect(throws: TransloaditError.self) {
            try await client.create(id: AssemblyID.generate(), params: "{}", signature: "sha384:00", uploads: [])
        }
        #expect(error?.isRetryable == expected)
    }

    @Test func a413RateLimitCarriesItsRetryIn() async throws {
        let client = client(answering: .json(413, #"{"error":"RATE_LIMIT_REACHED","info":{"retryIn":2.5}}"#))
        let error = await #expect(throws: TransloaditError.self) {
            try await client.create(id: AssemblyID.generate(), params: "{}", signature: "sha384:00", uploads: [])
        }
        #expect(error?.isRateLimit == true && error?.isRetryable == true && error?.retryIn == .milliseconds(2_500))
    }

    @Test(arguments: [("ASSEMBLY_CRASHED", "null", true), ("REQUEST_ABORTED", "null", true), ("IMAGE_RESIZE_ERROR", "null", false),
                      ("IMAGE_RESIZE_ERROR", "true", true), ("ASSEMBLY_CRASHED", "false", false)])
    func whichAssemblyErrorsRunAgain(code: String, retryable: String, expected: Bool) {
        let said: Bool? = retryable == "null" ? nil : retryable == "true"
        #expect(Retryability.isRetryable(assemblyError: FailureCode(rawValue: code), said: said) == expected)
    }
}
