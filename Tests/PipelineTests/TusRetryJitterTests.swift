import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// A tus upload's retries wait a jitter fixed by the uploader's seed: the same faults give the same waits.
@Suite struct TusRetryJitterTests {
    static let endpoint = "https://tus.test/resumable/files/"

    /// The waits of one upload whose OPTIONS fails three times with 503, on a manual clock.
    static func waits(seed: UInt64, in directory: TemporaryDirectory) async throws -> [Duration] {
        let file = try TestFiles.planned(try directory.write("a.bin", Array(repeating: 7, count: 100)))
        let transport = ScriptedTransport()
        transport.script(.options, endpoint, times: 3) { _ in .response(status: 503, headers: [:], body: []) }
        transport.script(.options, endpoint) { _ in .response(status: 204, headers: ["Tus-Version": "1.0.0", "Tus-Extension": "creation"], body: []) }
        transport.script(.post, endpoint) { _ in .response(status: 201, headers: ["Location": "\(endpoint)f1"], body: []) }
        transport.script(.patch, "\(endpoint)f1") { _ in .response(status: 204, headers: ["Upload-Offset": "100"], body: []) }
        let clock = ManualClock()
        let uploader = TusUploader(transport: transport, digester: LibcryptoFileDigester(), chunkSize: 1 << 20,
                                   retry: RetryPolicy(attempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(8)), clock: clock, seed: seed)
        let job = TusUploadJob(file: file, endpoint: endpoint, assemblyURL: "https://api.test/assemblies/a", fieldname: "file_0", filename: "a.bin")
        #expect(try await uploader.upload(job, onEvent: { _ in }).url == "\(endpoint)f1")
        return clock.waits
    }

    @Test func theSameSeedGivesTheSameWaitsAndAnotherSeedOthers() async throws {
        let directory = try TemporaryDirectory()
        let first = try await Self.waits(seed: 1, in: directory)
        #expect(first.count == 3)
        #expect(try await Self.waits(seed: 1, in: directory) == first)
        #expect(try await Self.waits(seed: 2, in: directory) != first)
    }
}
