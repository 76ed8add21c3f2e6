import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import SQLiteLedger
import Testing
import TestSupport

/// Nights whose inputs are a bucket's keys (`inputs.s3`): listed by the run, imported by the service, never uploaded.
@Suite struct BucketNightTests {
    static let store = SQLiteLedgerStore()
    static let endpoint = "http://127.0.0.1:9"

    /// A harness whose bucket `night-bucket` holds `objects` (key: content) under `bucket/`, listed by the scripted transport
    /// unless the test scripts the listing itself (`listed: false`).
    static func harness(_ objects: [String: String], extra: String = "", listed: Bool = true) throws -> SessionHarness {
        let harness = try SessionHarness(files: [:], bucket: true)
        for (key, text) in objects { _ = try harness.directory.write("bucket/\(key)", text) }
        let bucket = harness.directory.file("bucket")
        if listed {
            harness.service.transport.script(.get, "\(endpoint)/night-bucket?", times: 1000) { request in
                .bytes(200, Array(listing(of: bucket, url: request.url).utf8))
            }
        }
        try harness.writeRemoteManifest(name: "bucket-night", inputs: """
              s3: {endpoint: "\(endpoint)", bucket: night-bucket, prefix: photos/, access_key_id_env: S3_KEY_ID,
                   secret_access_key_env: S3_SECRET, template_credentials: night}
              include: "**/*.txt"
              exclude: "drafts"
            """, extra: extra)
        return harness
    }

    /// A ListObjectsV2 answer of every file under `directory` whose key starts with the request's prefix, in one page.
    static func listing(of directory: String, url: String) -> String {
        let query = url.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        let prefix = query.split(separator: "&").first { $0.hasPrefix("prefix=") }.map { String($0.dropFirst(7)).removingPercentEncoding ?? "" } ?? ""
        let keys = (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? [])
            .filter { !isDirectory(directory + "/" + $0) && $0.hasPrefix(prefix) }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let contents = keys.map { key in
            let bytes = Array(FileManager.default.contents(atPath: directory + "/" + key) ?? Data())
            let escaped = key.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            return "<Contents><Key>\(escaped)</Key><LastModified>2026-12-05T01:00:00.000Z</LastModified>"
                + "<ETag>&quot;\(Hex.encode(Digest.md5(bytes)))&quot;</ETag><Size>\(bytes.count)</Size></Contents>"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><ListBucketResult><Name>night-bucket</Name><Prefix>\(prefix)</Prefix>"
            + "<KeyCount>\(keys.count)</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>"
            + contents.joined() + "</ListBucketResult>"
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static let objects = [
        "photos/a.txt": "first\n", "photos/nested/deep/b.txt": "second\n", "photos/über straße/c.txt": "third\n",
        "photos/drafts/d.txt": "left out\n", "photos/e.jpg": "not matched\n", "other/f.txt": "not under the prefix\n",
    ]

    @Test func aNightImportsEachKeyOnceAndUploadsNothing() async throws {
        let harness = try Self.harness(Self.objects)
        let outcome = try await harness.run()

        #expect(outcome.state == .finished)
        #expect(harness.service.uploaded.isEmpty)
        #expect(harness.service.imported.flatMap(\.self).sorted() == ["photos/a.txt", "photos/nested/deep/b.txt", "photos/über straße/c.txt"])
        #expect(try String(contentsOfFile: harness.outputDirectory + "/a.txt", encoding: .utf8) == "first\n")
        #expect(try String(contentsOfFile: harness.outputDirectory + "/nested/deep/b.txt", encoding: .utf8) == "second\n")
        #expect(try String(contentsOfFile: harness.outputDirectory + "/über straße/c.txt", encoding: .utf8) == "third\n")
        let files = try await harness.ledger { try await $0.files(of: outcome.runID) }
        #expect(files.map(\.file.path).sorted() == ["s3://night-bucket/photos/a.txt", "s3://night-bucket/photos/nested/deep/b.txt",
                                                    "s3://night-bucket/photos/über straße/c.txt"])
    }

    @Test func theNextNightsSendOnlyWhatChanged() async throws {
        let harness = try Self.harness(Self.objects)
        _ = try await harness.run()
        let second = try await harness.run()
        #expect(second.summary.filesByState[.skipped] == 3)
        #expect(harness.service.imported.count == 2)

        _ = try harness.directory.write("bucket/photos/a.txt", "first, edited\n")
        _ = try harness.directory.write("bucket/photos/new.txt", "a new key\n")
        let third = try await harness.run()
        #expect(third.state == .finished)
        #expect(harness.service.imported.dropFirst(2).flatMap(\.self).sorted() == ["photos/a.txt", "photos/new.txt"])
        #expect(try String(contentsOfFile: harness.outputDirectory + "/a.txt", encoding: .utf8) == "first, edited\n")
    }

    @Test func aCorruptObjectFailsAloneAndIsKnownBadUntilItChanges() async throws {
        let harness = try Self.harness(Self.objects)
        harness.service.fail("a.txt")
        let first = try await harness.run()
        #expect(first.summary.filesByState[.failed] == 1 && first.summary.filesByState[.done] == 2)
        let failed = try await harness.ledger { try await $0.files(of: first.runID) }.filter { $0.state == .failed }
        #expect(failed.map(\.file.path) == ["s3://night-bucket/photos/a.txt"] && failed.first?.failure?.code == "IMAGE_RESIZE_ERROR")
        let firstNight = harness.service.imported.count

        let second = try await harness.run()
        #expect(second.summary.filesByState[.knownBad] == 1 && second.summary.filesByState[.skipped] == 2)
        #expect(harness.service.imported.count == firstNight, "nothing sent the second night")
        _ = try harness.directory.write("bucket/photos/a.txt", "first, mended\n")
        _ = try await harness.run()
        #expect(harness.service.imported.last == ["photos/a.txt"], "a new ETag: made again")
    }

    @Test func aDeletedObjectIsReportedNotFailed() async throws {
        let harness = try Self.harness(Self.objects)
        _ = try await harness.run()
        try FileManager.default.removeItem(atPath: harness.directory.file("bucket/photos/a.txt"))
        let next = try await harness.run()
        #expect(next.state == .finished)
        #expect(next.failures.isEmpty)

        let locator = LedgerLocator(scope: .stateDirectory(harness.stateDirectory), store: Self.store)
        let audit = try await OutputAudit.of(try harness.manifest(), at: locator, check: OutputCheck(checksums: nil), remote: harness.remoteInputs)
        #expect(audit.orphans.map(\.input) == ["s3://night-bucket/photos/a.txt"])
        #expect(audit.findings.isEmpty)
    }

    @Test func hostileKeysOfAListingAreLeftOutWithAWarningAndTheNightGoesOn() async throws {
        let harness = try Self.harness(["photos/a.txt": "first\n"], listed: false)
        let page = "<?xml version=\"1.0\"?><ListBucketResult><KeyCount>4</KeyCount><IsTruncated>false</IsTruncated>"
            + "<Contents><Key>photos/../../etc/passwd.txt</Key><ETag>&quot;1&quot;</ETag><Size>5</Size></Contents>"
            + "<Contents><Key>photos/a.txt</Key><ETag>&quot;2&quot;</ETag><Size>6</Size></Contents>"
            + "<Contents><Key>photos/b&#x1B;[2J.txt</Key><ETag>&quot;3&quot;</ETag><Size>5</Size></Contents>"
            + "<Contents><Key>photos/c.txt</Key><ETag>&quot;4&quot;</ETag><Size>-5</Size></Contents></ListBucketResult>"
        harness.service.transport.script(.get, "\(Self.endpoint)/night-bucket?", times: 1) { _ in .bytes(200, Array(page.utf8)) }
        let outcome = try await harness.run()

        #expect(outcome.state == .finished)
        #expect(harness.service.imported == [["photos/a.txt"]])
        let warnings = harness.observer.warnings.all.map(\.description)
        #expect(warnings.count == 3)
        #expect(warnings.contains { $0.contains("etc/passwd") && $0.contains("`..` path segment") })
        #expect(warnings.contains { $0.contains("control character") } && warnings.allSatisfy { !$0.contains("\u{1B}") })
        #expect(warnings.contains { $0.contains("photos/c.txt") && $0.contains("size") })
    }

    @Test func aListingTheBucketRefusesStopsTheNightBeforeAnythingIsSent() async throws {
        let harness = try Self.harness(["photos/a.txt": "first\n"], listed: false)
        let refusal = "<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code><Message>no</Message></Error>"
        harness.service.transport.script(.get, "\(Self.endpoint)/night-bucket?", times: 1) { _ in .bytes(403, Array(refusal.utf8)) }
        await #expect(throws: S3ListingError.self) { _ = try await harness.run() }
        #expect(harness.service.created.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: harness.stateDirectory + "/ledger.sqlite"))
    }

    @Test func partsOfABucketNightTakeEachKeyOnceAndFilesFromNamesKeysBelowThePrefix() async throws {
        let harness = try Self.harness(Self.objects)
        let adapters = ScriptedAdapters(transport: harness.service.transport, clock: harness.clock, embedded: true, statements: harness.statements)
        let whole = try harness.manifest()
        var taken: [String] = []
        for index in 0..<2 {
            let part = try #require(Partition(index: index, count: 2))
            let session = RunSession(manifest: whole.partitioned(part), stateDirectory: harness.directory.file("parts/\(index)"), adapters: adapters)
            let outcome = try await session.run(force: false, checksums: false, maxDuration: nil, observer: harness.observer, stop: RunStop())
            #expect(outcome.state == .finished)
            let files = try await harness.ledger(in: harness.directory.file("parts/\(index)")) { try await $0.files(of: outcome.runID) }
            #expect(files.allSatisfy { part.contains($0.file.relativePath) })
            taken += files.map(\.file.relativePath)
        }
        #expect(taken.sorted() == ["a.txt", "nested/deep/b.txt", "über straße/c.txt"])

        var named = whole
        named.onlyFiles = [PathKey("über straße/c.txt")]
        let session = RunSession(manifest: named, stateDirectory: harness.directory.file("named"), adapters: adapters)
        let outcome = try await session.run(force: false, checksums: false, maxDuration: nil, observer: harness.observer, stop: RunStop())
        let files = try await harness.ledger(in: harness.directory.file("named")) { try await $0.files(of: outcome.runID) }
        #expect(files.map(\.file.path) == ["s3://night-bucket/photos/über straße/c.txt"])
    }

    @Test func theImportStepNamesTheKeysAsAnArrayAndTheStepsReadIt() throws {
        let harness = try Self.harness(Self.objects)
        let manifest = try harness.manifest()
        let step = try #require(manifest.inputs.bucket?.importStep)
        #expect(step.robot == .minio)
        #expect(step.host == "127.0.0.1:9")
        let params = AssemblyParams(key: "k", expiresIn: .seconds(60), recipe: manifest.recipe, importStep: step)
        let value = params.value(now: Date(timeIntervalSince1970: 0), nonce: "n", importing: ["photos/a|b.txt"])
        let steps = try #require(value.objectValue?["steps"]?.objectValue)
        #expect(steps["imported"] == .object(["robot": .string("/minio/import"), "result": .bool(true), "credentials": .string("night"),
                                              "host": .string("127.0.0.1:9"), "path": .array([.string("photos/a|b.txt")])]))
        #expect(steps["copy"]?.objectValue?["use"] == .string("imported"))
        #expect(manifest.recipe.fingerprint == Recipe.steps(manifest.recipe.knownSteps!).fingerprint)
    }
}
