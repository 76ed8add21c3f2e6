import AssemblyLine
import CurlTransport
import Digests
import Foundation
import HTTPMessages
import TestSupport
import Testing

/// A 1 GiB upload and a 1 GiB download, each in a child process of its own (a Swift Testing exit test),
/// so that the peak resident memory measured (VmHWM) belongs to the transfer alone and not to tests
/// running in parallel. The bound: the peak stays within 64 MiB of the child's memory at its start.
/// One at a time: Swift Testing reads an exit test's back channel on a thread of the test pool, which it holds till the child ends.
@Suite(.serialized, .timeLimit(.minutes(3))) struct CurlTransportLargeFileTests {
    static let gibibyte: Int64 = 1 << 30
    static let memoryBound = 64 << 20

    @Test func oneGibibyteUploadStreamsFromDisk() async {
        await #expect(processExitsWith: .success) {
            try await CurlTransportLargeFileTests.upload()
        }
    }

    @Test func oneGibibyteDownloadStreamsToDisk() async {
        await #expect(processExitsWith: .success) {
            try await CurlTransportLargeFileTests.download()
        }
    }

    /// Sends a body of two byte segments around a 1 GiB file range; the server hashes what arrives.
    static func upload() async throws {
        let baseline = try ResidentMemory.bytes("VmRSS")
        let scratch = try TemporaryDirectory()
        let path = try sparseFile(in: scratch.path, length: gibibyte)
        let plan = BodyPlan([.bytes(Array("head".utf8)), .file(path: path, offset: 0, length: gibibyte), .bytes([0x0A])])
        let expected = try sha256(of: plan)

        let server = try await TestServer.start()
        let transport = CurlTransport()
        let response = try await transport.send(HTTPRequestSpec(method: .post, url: server.url("/echo"), body: .plan(plan)))

        let echo = try JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any]
        #expect(echo?["length"] as? Int == Int(plan.contentLength))
        #expect(echo?["sha256"] as? String == expected)
        #expect(response.bytesSent == plan.contentLength)
        let peak = try ResidentMemory.bytes("VmHWM")
        #expect(peak - baseline < memoryBound, "peak RSS grew by \(peak - baseline) bytes")
    }

    /// Receives 1 GiB of the server's pattern into a file and checks every byte.
    static func download() async throws {
        let baseline = try ResidentMemory.bytes("VmRSS")
        let scratch = try TemporaryDirectory()
        let path = scratch.path + "/download.bin"

        let server = try await TestServer.start()
        let transport = CurlTransport()
        let response = try await transport.send(.get(server.url("/bytes?n=\(gibibyte)")), to: .file(path: path))

        #expect(response.status == 200)
        #expect(response.body == .file(path: path, length: gibibyte))
        #expect(try Pattern.fileMatches(path, length: gibibyte))
        let peak = try ResidentMemory.bytes("VmHWM")
        #expect(peak - baseline < memoryBound, "peak RSS grew by \(peak - baseline) bytes")
    }

    /// A sparse file of `length` bytes with a distinct 4 KiB mark every 16 MiB, so that a misplaced range
    /// changes the hash; made in milliseconds, occupying almost no disk.
    static func sparseFile(in directory: String, length: Int64) throws -> String {
        let path = directory + "/sparse.bin"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(length))
        var offset: Int64 = 0
        while offset < length {
            try handle.seek(toOffset: UInt64(offset))
            let mark = Pattern.prefix(4096).map { $0 ^ UInt8(truncatingIfNeeded: offset >> 24) }
            try handle.write(contentsOf: Data(mark))
            offset += 16 << 20
        }
        return path
    }

    /// The SHA-256 hex of a plan's bytes, streamed through a `BodyPlanReader`.
    static func sha256(of plan: BodyPlan) throws -> String {
        let digest = Digest(.sha256)
        let reader = BodyPlanReader(plan: plan)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        while case let count = try reader.read(into: buffer), count > 0 {
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return Hex.encode(digest.finalize())
    }
}
