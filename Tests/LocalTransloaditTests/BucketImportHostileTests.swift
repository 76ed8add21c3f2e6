import AssemblyLine
import ConfigFormat
import Foundation
import HTTPServer
@testable import LocalTransloadit
import TestSupport
import Testing

/// Bucket imports from a hostile S3 imitation on loopback (moto answers honestly): bodies over the bound, cut short,
/// and `host`s the import rule refuses.
@Suite(.timeLimit(.minutes(3))) struct BucketImportHostileTests {
    /// A service holding `night_bucket` at `endpoint`, importing at most 1,000 bytes a file.
    static func harness(endpoint: String, allowsLocalImports: Bool = true) throws -> ServiceHarness {
        let credential = try TemplateCredential(endpoint: endpoint, region: "us-east-1", bucket: "night-bucket",
                                                keys: S3Credentials(accessKeyID: "AKIDNIGHT", secret: "night-secret-value"))
        return try ServiceHarness.importing(allowsLocalImports: allowsLocalImports) {
            $0.templateCredentials = ["night_bucket": credential]
            $0.maxImportSize = 1000
        }
    }

    static func step(_ key: String, robot: String = "/s3/import", host: String? = nil) -> [String: JSONValue] {
        var step: [String: JSONValue] = ["robot": .string(robot), "credentials": .string("night_bucket"), "path": .string(key)]
        if let host { step["host"] = .string(host) }
        return ["imported": .object(step)]
    }

    @Test func anAnswerOverTheBoundAndOneCutShortOfItsLengthFailWithoutAFile() async throws {
        let origin = try ImportOrigin([
            "/night-bucket/big.bin": ImportOrigin.body(Array(repeating: 1, count: 4000)),
            "/night-bucket/cut.bin": ImportOrigin.cut(Array(repeating: 1, count: 900), after: 10),
        ])
        let harness = try Self.harness(endpoint: origin.base)
        for (key, words) in [("big.bin", "larger than the 1000 bytes"), ("cut.bin", "broke")] {
            let done = try await harness.runImport(Self.step(key))
            #expect(done["error"]?.stringValue == "S3_IMPORT_ERROR", "\(done.json.serialized)")
            let message = try #require(done["message"]?.stringValue)
            #expect(message.contains(key) && message.contains(words), "\(message)")
            #expect(!done.json.serialized.contains("night-secret-value"))
            let id = try #require(done["assembly_id"]?.stringValue)
            #expect(try FileManager.default.contentsOfDirectory(atPath: harness.directory.file("data/assemblies/\(id)/files")).isEmpty)
        }
        #expect(origin.paths == ["/night-bucket/big.bin", "/night-bucket/cut.bin"])
    }

    @Test func aNotFoundAnswerWithoutABodyIsNotFound() async throws {
        let origin = try ImportOrigin([:])
        let harness = try Self.harness(endpoint: origin.base)
        let done = try await harness.runImport(Self.step("photos/gone.jpg"))
        #expect(done["error"]?.stringValue == "S3_IMPORT_NOT_FOUND")
        #expect(done["message"]?.stringValue?.contains("photos/gone.jpg") == true)
    }

    @Test(arguments: ["photos/../secret.jpg", "./a.jpg", "a/./"])
    func aKeyWithADotSegmentIsRefusedAtCreation(key: String) async throws {
        let harness = try Self.harness(endpoint: "http://127.0.0.1:1")
        let created = try await harness.create(params: harness.params(["steps": .object(Self.step(key))]))
        #expect(created.status == 400 && created["error"]?.stringValue == "S3_IMPORT_VALIDATION", "\(created.json.serialized)")
    }

    @Test(arguments: [("169.254.169.254", true, "cloud metadata"), ("10.0.0.7:9000", false, "private"), ("127.0.0.1:9", false, "this machine"),
                      ("user:pw@127.0.0.1:9", true, "credentials")])
    func aMinioHostTheRuleRefusesFailsTheAssembly(host: String, allowsLocal: Bool, saying words: String) async throws {
        let origin = try ImportOrigin([:])
        let harness = try Self.harness(endpoint: origin.base, allowsLocalImports: allowsLocal)
        let done = try await harness.runImport(Self.step("a.jpg", robot: "/minio/import", host: host))
        #expect(done["error"]?.stringValue == "IMPORT_URL_REFUSED", "\(done.json.serialized)")
        #expect(done["message"]?.stringValue?.contains(words) == true, "\(done.json.serialized)")
        #expect(origin.paths.isEmpty)
        #expect(done["message"]?.stringValue?.contains("pw@") == false)
    }
}
