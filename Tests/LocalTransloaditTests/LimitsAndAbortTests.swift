import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// Rate limits, and uploads that never finish.
@Suite(.timeLimit(.minutes(3))) struct LimitsAndAbortTests {
    static let original = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]

    /// A creation of a new Assembly that announces 4 MiB of file and carries 300,000 bytes of it.
    static func cutOffCreation(_ harness: ServiceHarness) -> (id: String, bytes: [UInt8]) {
        let id = AssemblyID.generate().rawValue
        let params = harness.params(original)
        return (id, RawHTTP.truncatedCreation(path: "/assemblies/\(id)", params: params, signature: harness.sign(params),
                                              declaredFileSize: 4 << 20, sentFileBytes: 300_000))
    }

    /// The Assembly's status once `waiting` no longer holds for it (5 s at most).
    static func status(of id: String, in harness: ServiceHarness, while waiting: (Answer) -> Bool) async throws -> Answer {
        var answer = try await harness.get("/assemblies/\(id)")
        for _ in 0..<250 where waiting(answer) {
            try await Task.sleep(for: .milliseconds(20))
            answer = try await harness.get("/assemblies/\(id)")
        }
        return answer
    }

    @Test func creationsPerMinuteAreLimited() async throws {
        let harness = try ServiceHarness { $0.creationsPerMinute = 2 }
        for _ in 0..<2 {
            #expect(try await harness.create(params: harness.params(Self.original)).status == 200)
        }
        let params = harness.params(Self.original)
        let limited = try await harness.create(params: params)
        #expect(limited.status == 413)
        #expect(limited["error"]?.stringValue == "RATE_LIMIT_REACHED")
        // Its signed params were seen, rate-limited or not: sent again, they are refused as reused.
        let again = try await harness.create(params: params)
        #expect(again["error"]?.stringValue == "SIGNATURE_REUSE_DETECTED")
        let retryIn = try #require(limited["info"]?["retryIn"])
        let seconds = try #require(retryIn.intValue)
        #expect((1...60).contains(seconds))
        let header = try #require(limited.headers.value(for: "Retry-After").flatMap { Int($0) })
        #expect((1...60).contains(header))
    }

    @Test func statusRequestsPerAssemblyPerSecondAreLimited() async throws {
        let harness = try ServiceHarness { $0.statusRequestsPerSecond = 3 }
        let first = try #require(try await harness.create(params: harness.params(Self.original))["assembly_id"]?.stringValue)
        let second = try #require(try await harness.create(params: harness.params(Self.original))["assembly_id"]?.stringValue)
        let answers = try await withThrowingTaskGroup(of: Answer.self) { group in
            for _ in 0..<8 {
                group.addTask { try await harness.get("/assemblies/\(first)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.filter { $0.status == 200 }.count >= 3)
        let limited = try #require(answers.first { $0.status == 429 })
        #expect(limited["error"]?.stringValue == "ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED")
        #expect(limited["assembly_id"]?.stringValue == first)
        let retryIn = try #require(limited["info"]?["retryIn"])
        let seconds: Double = switch retryIn {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: -1
        }
        #expect(seconds > 0 && seconds <= 1)
        #expect(limited.headers.value(for: "Retry-After") == "1")
        #expect(try await harness.get("/assemblies/\(second)").status == 200)
        try await Task.sleep(for: .seconds(1))
        #expect(try await harness.get("/assemblies/\(first)").status == 200)
    }

    @Test func uploadCutOffAfterItsParamsIsRequestAborted() async throws {
        let harness = try ServiceHarness()
        let (id, bytes) = Self.cutOffCreation(harness)
        try await RawHTTP.sendAndHangUp(bytes, port: harness.service.port)
        let answer = try await Self.status(of: id, in: harness) { $0["ok"]?.stringValue == "ASSEMBLY_UPLOADING" }
        #expect(answer.status == 200)
        #expect(answer["ok"]?.stringValue == "REQUEST_ABORTED")
        #expect(answer["uploads"]?.arrayValue?.isEmpty == true)
        #expect((answer["bytes_received"]?.intValue ?? 0) > 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: harness.directory.file("data/tmp"))
        #expect(leftovers.isEmpty)
    }

    @Test func aCreationStillArrivingIsUploadingWithTheBytesReceived() async throws {
        let harness = try ServiceHarness()
        let (id, bytes) = Self.cutOffCreation(harness)
        let connection = try #require(RawConnection(port: harness.service.port))
        #expect(connection.send(bytes))
        let headEnd = try #require((0..<bytes.count - 3).first { Array(bytes[$0..<$0 + 4]) == Array("\r\n\r\n".utf8) })
        let body = bytes.count - headEnd - 4
        let answer = try await Self.status(of: id, in: harness) { $0["bytes_received"]?.intValue != body }
        #expect(answer.status == 200 && answer["ok"]?.stringValue == "ASSEMBLY_UPLOADING")
        #expect(answer["bytes_received"]?.intValue == body)
        #expect(answer["assembly_ssl_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
        #expect((answer["bytes_expected"]?.intValue ?? 0) > 4 << 20)
        connection.closeWriting()
    }

    @Test func uploadCutOffBeforeItsParamsLeavesNothing() async throws {
        let harness = try ServiceHarness()
        let id = AssemblyID.generate().rawValue
        let request = "POST /assemblies/\(id) HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000\r\n\r\n--b\r\nContent-Disposition: form-data; name=\"par"
        try await RawHTTP.sendAndHangUp(Array(request.utf8), port: harness.service.port)
        // The service lets the ID go once it sees the connection end: 404 within a few seconds at most.
        var status = try await harness.get("/assemblies/\(id)").status
        for _ in 0..<100 where status != 404 {
            try await Task.sleep(for: .milliseconds(50))
            status = try await harness.get("/assemblies/\(id)").status
        }
        #expect(status == 404)
        #expect(try await harness.create(params: harness.params(Self.original), id: id).status == 200)
    }

    @Test func malformedMultipartIsInvalidFormData() async throws {
        let harness = try ServiceHarness()
        let body = Array("--b\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n{}\r\n--b-- but no end".utf8)
        var spec = HTTPRequestSpec(method: .post, url: "\(harness.base)/assemblies", body: .bytes(Array("garbage".utf8)))
        spec.headers = [HTTPHeader(name: "Content-Type", value: "multipart/form-data; boundary=b")]
        let noBoundary = try await harness.send(spec)
        #expect(noBoundary.status == 400)
        #expect(noBoundary["error"]?.stringValue == "INVALID_FORM_DATA")
        spec.body = .bytes(Array(body.prefix(40)))
        let truncated = try await harness.send(spec)
        #expect(truncated["error"]?.stringValue == "INVALID_FORM_DATA")
    }
}
