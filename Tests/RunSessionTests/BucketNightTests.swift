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

    /// A harness whose bucket `night-bucket` holds `objects` (key: content) under `bucket/`, listed by the scripted transport.
    static func harness(_ objects: [String: String], extra: String = "") throws -> SessionHarness {
        let harness = try SessionHarness(files: [:], bucket: true)
        for (key, text) in objects { _ = try harness.directory.write("bucket/\(key)", text) }
        let bucket = harness.directory.file("bucket")
        harness.service.transport.script(.get, "\(endpoint)/night-bucket?", times: 1000) { request in
            .bytes(200, Array(listing(of: bucket, url: request.url).utf8))
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

    @Test func theImportStepNamesTheKeysAsAnArrayAndTheStepsReadIt() throws {
        let harness = try Self.harness(Self.objects)
        let manifest = try harness.manifest()
        let step = try #require(manifest.inputs.bucket?.importStep)
        #expect(step.robot == .minio)
        #expect(step.host == "127.0.0.1:9")
        let params = AssemblyParams(key: "k", expiresIn: .seconds(60), recipe: manifest.recipe, importStep: step)
        let value = params.value(now: Date(timeIntervalSince1970: 0), nonce: "n", importing: ["photos/a|b.txt"])
        let steps = try #require(value.objectValue?["steps"]?.objectValue)
        #expect(steps["imported"] == .object(["robot": .string("/minio/import"), "credentials": .string("night"),
                                              "host": .string("127.0.0.1:9"), "path": .array([.string("photos/a|b.txt")])]))
        #expect(steps["copy"]?.objectValue?["use"] == .string("imported"))
        #expect(manifest.recipe.fingerprint == Recipe.steps(manifest.recipe.knownSteps!).fingerprint)
    }
}
