import AssemblyLine
import Digests
import Foundation
import HTTPMessages
import LocalTransloadit
import Synchronization
import TestSupport
import Testing

/// The tus uploader survives what a real network and server do: dropped and cut connections, 5xx, slow answers,
/// conflicts and checksum mismatches, against the local service's fault modes.
@Suite(.timeLimit(.minutes(3))) struct TusUploaderFaultTests {
    /// libcrypto's digests, with the SHA-1 of the first `corrupt` chunks altered, as a flipped bit on the way would.
    /// Gives wrong SHA-1s: the first one of each chunk at `once` offsets, or every one (`always`).
    final class CorruptingDigester: FileDigester {
        private let real = LibcryptoFileDigester()
        private let always: Bool
        /// The chunk offsets whose next digest is still to be corrupted.
        private let pending: Mutex<Set<Int64>>

        init(once offsets: Set<Int64>) {
            always = false
            pending = Mutex(offsets)
        }

        init(always: Bool) {
            self.always = always
            pending = Mutex([])
        }

        func md5Hex(ofFile path: String) throws -> String {
            try real.md5Hex(ofFile: path)
        }

        func md5Hex(ofOpenFile descriptor: Int32, length: Int64, path: String) throws -> String {
            try real.md5Hex(ofOpenFile: descriptor, length: length, path: path)
        }

        func sha1(ofFile path: String, offset: Int64, length: Int64) throws -> [UInt8] {
            var digest = try real.sha1(ofFile: path, offset: offset, length: length)
            let corrupt = always || pending.withLock { $0.remove(offset) != nil }
            if corrupt { digest[0] ^= 0xFF }
            return digest
        }

        func sha256Hex(of text: String) -> String {
            real.sha256Hex(of: text)
        }
    }

    static func faults(seed: UInt64) -> FaultPlan {
        FaultPlan(seed: seed, routes: [
            .tusOptions: .init(fail: 0.5, statuses: [503]),
            .tusCreate: .init(fail: 0.3, statuses: [500, 502]),
            .tusHead: .init(fail: 0.2, statuses: [503], slow: 0.1, delay: .milliseconds(100)),
            .tusPatch: .init(fail: 0.12, statuses: [500, 502, 503], drop: 0.12, cut: 0.12, slow: 0.1, delay: .milliseconds(150)),
        ])
    }

    @Test(arguments: [true, false])
    func faultsOfTheServiceAreSurvived(checksums: Bool) async throws {
        let service = try TusTestService(faults: Self.faults(seed: checksums ? 11 : 12))
        let file = try TestFiles.random(service.directory.file("faulty.bin"), size: 1 << 20, seed: 5)
        let assembly = try await service.assembly(expecting: 1)
        let log = UploadLog()
        let outcome = try await service.uploader(chunkSize: 64 << 10, useChecksums: checksums)
            .upload(try service.job(file, into: assembly), onEvent: { log.record($0) }, onBytes: { log.count($0) })

        let patchFaults = service.log.all.filter { $0.hasPrefix("fault: tus_patch") }
        for kind in ["answered 5", "connection dropped", "connection cut", "answer delayed"] {
            #expect(patchFaults.contains { $0.contains(kind) }, "no PATCH got the fault '\(kind)'")
        }
        #expect(outcome.retries > 0)
        #expect(outcome.bytesSent >= 1 << 20 && log.bytes == outcome.bytesSent)
        let offsets = log.confirmedOffsets
        #expect(offsets.last == 1 << 20 && zip(offsets, offsets.dropFirst()).allSatisfy { $0 < $1 })
        let patches = service.transport.requests.filter { $0.method == .patch }
        #expect(patches.allSatisfy { ($0.headers.value(for: "Upload-Checksum") != nil) == checksums })
        try await service.expectCompleted(assembly, holding: file)
    }

    @Test func aConflictingOffsetIsResolvedByAskingTheServer() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("raced.bin"), size: 150_000, seed: 9)
        let assembly = try await service.assembly(expecting: 1)
        let log = UploadLog()
        let outcome = try await service.uploader(chunkSize: 50_000).upload(try service.job(file, into: assembly)) { event in
            log.record(event)
            if case let .confirmed(url, 50_000) = event {
                let answer = try await service.patch(url, file: file, offset: 50_000, length: 20_000)
                #expect(answer.status == 204)
            }
        }
        #expect(outcome.retries == 1 && outcome.createdNew && outcome.bytesSent >= 150_000 - 20_000)
        #expect(log.confirmedOffsets == [50_000, 70_000, 120_000, 150_000])
        let statuses = service.transport.requests.filter { $0.method == .patch || $0.method == .head }.map(\.method.rawValue)
        #expect(statuses == ["PATCH", "PATCH", "HEAD", "PATCH", "PATCH"])
        try await service.expectCompleted(assembly, holding: file)
    }

    @Test func aChecksumMismatchSendsTheChunkAgain() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("flipped.bin"), size: 100_000, seed: 4)
        let assembly = try await service.assembly(expecting: 1)
        let outcome = try await service.uploader(chunkSize: 40_000, digester: CorruptingDigester(once: [0, 40_000]))
            .upload(try service.job(file, into: assembly), onEvent: { _ in })
        #expect(outcome.retries == 2 && outcome.bytesSent == 100_000 + 2 * 40_000)
        // The first digests of chunks 0 and 1 are wrong, whenever each is computed: each chunk is sent twice.
        let offsets = service.transport.requests.filter { $0.method == .patch }.map { $0.headers.value(for: "Upload-Offset") }
        #expect(offsets == ["0", "0", "40000", "40000", "80000"])
        try await service.expectCompleted(assembly, holding: file)
    }

    @Test func checksumsThatNeverMatchFailNamingTheFile() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("broken.bin"), size: 10_000)
        let assembly = try await service.assembly(expecting: 1)
        let error = await #expect(throws: TransloaditError.self) {
            _ = try await service.uploader(chunkSize: 4_096, digester: CorruptingDigester(always: true))
                .upload(try service.job(file, into: assembly), onEvent: { _ in })
        }
        #expect(error?.code == "TUS_CHECKSUM_MISMATCH" && error?.isRetryable == true)
        #expect(error?.description == "TUS_CHECKSUM_MISMATCH: \(file.path): the chunk at byte 0 failed its checksum (HTTP 460)")
        #expect(service.transport.requests.filter { $0.method == .patch }.count == TusTestService.retry.attempts)

        let plain = try await service.uploader(chunkSize: 4_096, digester: CorruptingDigester(always: true), useChecksums: false)
            .upload(try service.job(file, into: assembly), onEvent: { _ in })
        #expect(plain.retries == 0)
    }
}
