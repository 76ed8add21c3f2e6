import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import ImageRobot
@testable import LocalTransloadit
import TestSupport
import Testing

/// `/s3/import` and `/minio/import` through the whole service against moto, an S3-compatible server the project did not
/// write, seeded by boto3: moto checks every signature, so an object that arrives at all was signed right.
@Suite(.serialized, .timeLimit(.minutes(3))) struct BucketImportMotoTests {
    static let images = ["photos/a b.jpg", "photos/ü/c.png", "photos/d.jpg", "photos/nested/e.jpg"]
    static let keys = images + ["other/x.txt"]
    static let bodies = Result { try TemporaryDirectory() }
    static let server = Task { () async throws -> MotoS3Server in
        let directory = try bodies.get()
        var files: [String: String] = [:]
        for (index, key) in images.enumerated() {
            let path = directory.file("body-\(index)")
            try SampleImage.writeGradient(to: path, width: 120 + 40 * index, height: 90, format: key.hasSuffix(".png") ? .png : .jpg)
            files[key] = path
        }
        return try await MotoS3Server.start(bucket: "night-bucket", keys: keys, bodies: files)
    }

    /// The bytes moto holds for `key`.
    static func body(of key: String) throws -> [UInt8] {
        guard let index = images.firstIndex(of: key) else { return Array(key.utf8) }
        return Array(try Data(contentsOf: URL(fileURLWithPath: try bodies.get().file("body-\(index)"))))
    }

    /// A service holding `night_bucket` for moto's bucket (its endpoint `endpoint` unless moto's, its secret `secret` unless the right one).
    static func harness(_ server: MotoS3Server, endpoint: String? = nil, secret: String? = nil) throws -> ServiceHarness {
        let credential = try TemplateCredential(
            endpoint: endpoint ?? server.endpoint, region: server.region, bucket: "night-bucket",
            keys: S3Credentials(accessKeyID: server.accessKeyID, secret: secret ?? server.secret))
        return try ServiceHarness.importing { $0.templateCredentials = ["night_bucket": credential] }
    }

    static func step(_ path: JSONValue, robot: String = "/s3/import", extra: [String: JSONValue] = [:]) -> JSONValue {
        .object(["robot": .string(robot), "credentials": .string("night_bucket"), "path": path, "result": .bool(true)].merging(extra) { $1 })
    }

    @Test func keysWithSpacesAndNonASCIIAreImportedAndTheirResultsPointBackAtThem() async throws {
        let server = try await Self.server.value
        let harness = try Self.harness(server)
        let keys = ["photos/a b.jpg", "photos/ü/c.png"]
        let done = try await harness.runImport([
            "imported": Self.step(.array(keys.map(JSONValue.string))), "resized": ServiceHarness.resizeStep(of: "imported", width: 40),
        ])
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "\(done.json.serialized)")
        #expect(done["uploads"]?.arrayValue?.isEmpty == true)
        let imported = try #require(done["results"]?["imported"]?.arrayValue)
        #expect(imported.compactMap { $0["original_path"]?.stringValue } == keys)
        #expect(imported.compactMap { $0["name"]?.stringValue } == ["a b.jpg", "c.png"])
        for (file, key) in zip(imported, keys) {
            let bytes = try Self.body(of: key)
            #expect(file["size"]?.intValue == bytes.count)
            #expect(file["md5hash"]?.stringValue == Hex.encode(Digest.hash(.md5, bytes)))
            #expect(file["original_id"] == file["id"] && file["field"] == .null && file["from_batch_import"] == .bool(false))
            #expect(file["meta"]?["import_url"] == nil)
            #expect(file["mime"]?.stringValue == (key.hasSuffix(".png") ? "image/png" : "image/jpeg"))
        }
        let resized = try #require(done["results"]?["resized"]?.arrayValue)
        #expect(resized.count == 2)
        for result in resized {
            let original = try #require(imported.first { $0["id"] == result["original_id"] })
            #expect(result["original_path"] == original["original_path"])
            #expect(result["meta"]?["width"]?.intValue == 40)
        }
    }

    @Test func aDirectoryImportsTheObjectsUnderItAndRecursiveTheNestedOnesToo() async throws {
        let harness = try Self.harness(try await Self.server.value)
        let flat = try await harness.runImport(["imported": Self.step(.string("photos/"))])
        #expect(flat["results"]?["imported"]?.arrayValue?.compactMap { $0["original_path"]?.stringValue } == ["photos/a b.jpg", "photos/d.jpg"])
        #expect(flat["results"]?["imported"]?[0]?["from_batch_import"] == .bool(true))
        let deep = try await harness.runImport(["imported": Self.step(.string("photos/"), extra: ["recursive": .bool(true)])])
        #expect(Set(deep["results"]?["imported"]?.arrayValue?.compactMap { $0["original_path"]?.stringValue } ?? []) == Set(Self.images))
        let paged = try await harness.runImport(["imported": Self.step(.string("photos/"), extra: [
            "recursive": .bool(true), "files_per_page": .integer(3), "page_number": .integer(2),
        ])])
        #expect(paged["results"]?["imported"]?.arrayValue?.count == 1)
    }

    @Test func aMissingKeyFailsTheAssemblyNamingTheKey() async throws {
        let harness = try Self.harness(try await Self.server.value)
        let done = try await harness.runImport(["imported": Self.step(.array([.string("photos/d.jpg"), .string("photos/nö such.jpg")]))])
        #expect(done["error"]?.stringValue == "S3_IMPORT_NOT_FOUND", "\(done.json.serialized)")
        #expect(done["message"]?.stringValue?.contains("photos/nö such.jpg") == true)
        #expect(done["file"]?.stringValue == "photos/nö such.jpg")
        #expect(done["results"]?["imported"]?.arrayValue?.count == 1)
    }

    @Test func aWrongSecretIsAccessDeniedAndNoTextHoldsASecret() async throws {
        let server = try await Self.server.value
        let wrong = "wrong-" + String(server.secret.dropFirst(6))
        let harness = try Self.harness(server, secret: wrong)
        let done = try await harness.runImport(["imported": Self.step(.string("photos/d.jpg"))])
        #expect(done["error"]?.stringValue == "S3_IMPORT_ACCESS_DENIED", "\(done.json.serialized)")
        #expect(done["message"]?.stringValue?.contains("SignatureDoesNotMatch") == true)
        let listed = try await harness.runImport(["imported": Self.step(.string("photos/"))])
        #expect(listed["error"]?.stringValue == "S3_IMPORT_ACCESS_DENIED", "\(listed.json.serialized)")
        let texts = [done.json.serialized, listed.json.serialized] + harness.log
        for text in texts {
            #expect(!text.contains(wrong) && !text.contains(server.secret))
        }
    }

    @Test func minioImportReachesTheStepsHostAndS3ImportTheCredentialsEndpoint() async throws {
        let server = try await Self.server.value
        let harness = try Self.harness(server, endpoint: "http://127.0.0.1:1")
        let host = String(server.endpoint.dropFirst("http://".count))
        let minio = try await harness.runImport(["imported": Self.step(.string("photos/d.jpg"), robot: "/minio/import", extra: ["host": .string(host)])])
        #expect(minio["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "\(minio.json.serialized)")
        #expect(minio["results"]?["imported"]?[0]?["size"]?.intValue == (try Self.body(of: "photos/d.jpg").count))
        let s3 = try await harness.runImport(["imported": Self.step(.string("photos/d.jpg"), extra: ["host": .string(host)])])
        #expect(s3["error"]?.stringValue == "S3_IMPORT_ERROR", "\(s3.json.serialized)")
        #expect(s3["message"]?.stringValue?.contains("127.0.0.1:1") == true)
    }

    @Test func unknownCredentialsFailTheAssembly() async throws {
        let harness = try Self.harness(try await Self.server.value)
        let done = try await harness.runImport(["imported": .object([
            "robot": .string("/s3/import"), "credentials": .string("day_bucket"), "path": .string("photos/d.jpg"),
        ])])
        #expect(done["error"]?.stringValue == "S3_IMPORT_CREDENTIALS_NOT_FOUND")
        #expect(done["message"]?.stringValue?.contains("day_bucket") == true)
    }

    @Test func aTemplatesImportStepTakesTheRequestsPath() async throws {
        let harness = try Self.harness(try await Self.server.value)
        let template = try await harness.createTemplate(name: "night-import", content: ["steps": .object([
            "imported": Self.step(.string("other/x.txt")), "resized": ServiceHarness.resizeStep(of: "imported", width: 30),
        ])])
        let done = try await harness.runImport(["imported": .object(["path": .array([.string("photos/d.jpg")])])], templateID: template)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "\(done.json.serialized)")
        #expect(done["results"]?["imported"]?.arrayValue?.compactMap { $0["original_path"]?.stringValue } == ["photos/d.jpg"])
        #expect(done["results"]?["resized"]?[0]?["meta"]?["width"]?.intValue == 30)
    }
}
