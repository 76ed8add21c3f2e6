import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import ImageRobot
import SQLiteLedger
import TestSupport
import Testing

/// The tus uploader against the real local service over loopback: uploads, resumes, new uploads, refusals.
@Suite(.timeLimit(.minutes(3))) struct TusUploaderTests {
    private struct Killed: Error {}

    @Test func aChunkedUploadCompletesTheAssemblyWithTheFile() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("clip.bin"), size: 300_000)
        let assembly = try await service.assembly(expecting: 1)
        let log = UploadLog()
        let outcome = try await service.uploader(chunkSize: 64 << 10).upload(try service.job(file, into: assembly, index: 7),
                                                                             onEvent: { log.record($0) }, onBytes: { log.count($0) })

        #expect(outcome.createdNew && outcome.resumedAt == 0 && outcome.retries == 0)
        #expect(outcome.bytesSent == 300_000 && log.bytes == 300_000 && outcome.length == 300_000)
        #expect(log.events.first == .created(url: outcome.url, length: 300_000))
        #expect(log.confirmedOffsets == [65_536, 131_072, 196_608, 262_144, 300_000])
        let done = try await service.expectCompleted(assembly, holding: file)
        let upload = try #require(done.uploads.first)
        #expect(upload.name == "clip.bin" && upload.field == "file_7")
        #expect(done.results[":original"]?.first?.md5hash == upload.md5hash)

        let methods = service.transport.requests.map(\.method.rawValue).filter { $0 != "GET" }
        #expect(methods == ["POST", "OPTIONS", "POST"] + Array(repeating: "PATCH", count: 5))
        let creation = try #require(service.transport.requests.first { $0.method == .post && $0.url == assembly.tusURL })
        let statusURL = try #require(assembly.statusURL)
        #expect(creation.headers.value(for: "Upload-Metadata")
            == "assembly_url \(Data(statusURL.utf8).base64EncodedString()),fieldname ZmlsZV83,filename Y2xpcC5iaW4=,"
            + "filetype YXBwbGljYXRpb24vb2N0ZXQtc3RyZWFt")
        #expect(creation.headers.value(for: "Tus-Resumable") == "1.0.0" && creation.headers.value(for: "Upload-Length") == "300000")
        let patches = service.transport.requests.filter { $0.method == .patch }
        #expect(patches.map { $0.headers.value(for: "Upload-Offset") } == ["0", "65536", "131072", "196608", "262144"])
        #expect(patches.allSatisfy { $0.headers.value(for: "Upload-Checksum")?.hasPrefix("sha1 ") == true })
        #expect(patches.allSatisfy { $0.headers.value(for: "Content-Type") == "application/offset+octet-stream" })
    }

    @Test func anImageSentInChunksIsResized() async throws {
        let service = try TusTestService()
        let path = service.directory.file("photo.jpg")
        try SampleImage.writeGradient(to: path, width: 400, height: 300, format: .jpg)
        let file = try TestFiles.planned(path)
        let steps = JSONValue.object(["thumb": .object(["robot": .string("/image/resize"), "use": .string(":original"),
                                                        "width": .integer(100), "height": .integer(100)])])
        let assembly = try await service.assembly(expecting: 1, steps: steps)
        let uploader = service.uploader(chunkSize: 4 << 10)
        let outcome = try await uploader.upload(try service.job(file, into: assembly), onEvent: { _ in })
        #expect(file.size > 3 * (4 << 10) && outcome.bytesSent == file.size)
        let done = try #require(try await service.waitForEnd(assembly))
        let thumb = try #require(done.results["thumb"]?.first)
        #expect(done.ok == "ASSEMBLY_COMPLETED" && thumb.width == 100 && thumb.height == 75)

        let second = try await service.assembly(expecting: 1, steps: steps)
        _ = try await uploader.upload(try service.job(file, into: second), onEvent: { _ in })
        #expect(service.transport.requests.filter { $0.method == .options }.count == 1)
    }

    /// A run killed after recording two chunks, whose process had sent more before it died, resumes from the ledger.
    @Test func aResumeContinuesFromTheServersOffsetThroughTheLedger() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("big.bin"), size: 400_000, seed: 3)
        let ledger = try await SQLiteLedger.open(stateDirectory: service.directory.file("state"))
        let run = RunID.generate(at: Date())
        try await ledger.createRun(NewRun(id: run, manifestPath: "/m.yaml", manifestName: "m", recipeFingerprint: "r",
                                          plan: Plan(shards: [Shard(index: 0, files: [file])]), createdAt: Date()))
        try await ledger.recordAttempt(run, shard: 0, assemblyID: .generate(), at: Date())
        let persist: @Sendable (TusUploadEvent) async throws -> Void = { event in
            switch event {
            case let .created(url, length):
                try await ledger.recordUpload(run, shard: 0, attempt: 1, file: 0, url: url, length: length, at: Date())
            case let .confirmed(url, offset):
                try await ledger.recordUploadOffset(run, shard: 0, attempt: 1, file: 0, url: url, offset: offset, at: Date())
            }
        }
        let assembly = try await service.assembly(expecting: 1)
        let job = try service.job(file, into: assembly)
        let first = UploadLog()
        await #expect(throws: Killed.self) {
            _ = try await service.uploader(chunkSize: 50_000).upload(job) { event in
                try await persist(event)
                first.record(event)
                if first.confirmedOffsets.count == 2 { throw Killed() }
            }
        }
        let stored = try #require(try await ledger.uploads(of: run, shard: 0).first)
        #expect(stored.offset == 100_000)
        #expect(try await service.patch(stored.url, file: file, offset: 100_000, length: 30_000).status == 204)

        let resumed = UploadLog()
        let outcome = try await service.uploader(chunkSize: 50_000).upload(job, resuming: TusUploadCheckpoint(stored)) { event in
            try await persist(event)
            resumed.record(event)
        } onBytes: { resumed.count($0) }
        #expect(!outcome.createdNew && outcome.url == stored.url && outcome.resumedAt == 130_000)
        #expect(outcome.bytesSent == 400_000 - 130_000 && resumed.bytes == outcome.bytesSent)
        #expect(resumed.confirmedOffsets == [130_000, 180_000, 230_000, 280_000, 330_000, 380_000, 400_000])
        #expect(try await ledger.uploads(of: run, shard: 0).map(\.offset) == [400_000])
        try await service.expectCompleted(assembly, holding: file)
    }

    enum Stale: String, CaseIterable { case forgotten, otherLength }

    @Test(arguments: Stale.allCases)
    func aStoredUploadThatNoLongerFitsIsReplaced(_ stale: Stale) async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("a.bin"), size: 70_000)
        let assembly = try await service.assembly(expecting: 1)
        let checkpoint: TusUploadCheckpoint
        switch stale {
        case .forgotten:
            checkpoint = TusUploadCheckpoint(url: try #require(assembly.tusURL) + AssemblyID.generate().rawValue, offset: 20_000)
        case .otherLength:
            let elsewhere = try await service.assembly(expecting: 1)
            checkpoint = TusUploadCheckpoint(url: try await service.createUpload(into: elsewhere, length: 70_001), offset: 0)
        }
        let log = UploadLog()
        let outcome = try await service.uploader(chunkSize: 32 << 10).upload(try service.job(file, into: assembly),
                                                                             resuming: checkpoint, onEvent: { log.record($0) })
        #expect(outcome.createdNew && outcome.url != checkpoint.url && outcome.bytesSent == 70_000)
        #expect(log.events.first == .created(url: outcome.url, length: 70_000))
        try await service.expectCompleted(assembly, holding: file)
    }

    @Test func aServerOffsetBehindTheCheckpointIsAnErrorNamingTheFile() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("behind.bin"), size: 10_000)
        let assembly = try await service.assembly(expecting: 1)
        let url = try await service.createUpload(into: assembly, length: 10_000)
        #expect(try await service.patch(url, file: file, offset: 0, length: 100).status == 204)
        let error = await #expect(throws: TransloaditError.self) {
            _ = try await service.uploader(chunkSize: 4_096).upload(try service.job(file, into: assembly),
                                                                   resuming: TusUploadCheckpoint(url: url, offset: 5_000), onEvent: { _ in })
        }
        #expect(error?.code == "TUS_OFFSET_BACKWARDS" && error?.isRetryable == false)
        #expect(error?.description == "TUS_OFFSET_BACKWARDS: \(file.path): the server's offset 100 is behind the confirmed 5000")
        #expect(try await service.serverOffset(url) == 100)
    }

    @Test func aFileChangedSinceThePlanFailsNamingItWithoutSendingAMix() async throws {
        let service = try TusTestService()
        let file = try TestFiles.random(service.directory.file("moving.bin"), size: 200_000)
        let assembly = try await service.assembly(expecting: 1)
        let uploader = service.uploader(chunkSize: 64 << 10)
        let log = UploadLog()
        let error = await #expect(throws: TransloaditError.self) {
            _ = try await uploader.upload(try service.job(file, into: assembly)) { event in
                log.record(event)
                if case .confirmed = event {
                    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file.path))
                    try handle.seekToEnd()
                    try handle.write(contentsOf: [1, 2, 3])
                    try handle.close()
                }
            }
        }
        #expect(error?.code == "INPUT_CHANGED" && error?.isRetryable == false)
        #expect(error?.description == "INPUT_CHANGED: \(file.path) changed since the plan (size or modification time)")
        guard case let .created(url, _)? = log.events.first else {
            Issue.record("no upload was created")
            return
        }
        #expect(log.confirmedOffsets == [65_536])
        #expect(try await service.serverOffset(url) == 65_536)

        let before = service.transport.requests.count
        await #expect(throws: TransloaditError.self) {
            _ = try await uploader.upload(try service.job(file, into: assembly), onEvent: { _ in })
        }
        #expect(service.transport.requests.count == before)
    }
}
