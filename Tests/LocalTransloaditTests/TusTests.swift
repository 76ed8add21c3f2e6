import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import ImageRobot
@testable import LocalTransloadit
import TestSupport
import Testing

/// tus 1.0.0 under /resumable/files/, tied to Assemblies.
@Suite(.timeLimit(.minutes(3))) struct TusTests {
    /// A tus client for one harness: creation, HEAD and PATCH of file ranges.
    struct Client {
        let harness: ServiceHarness

        func header(_ name: String, _ value: String) -> HTTPHeader { HTTPHeader(name: name, value: value) }

        /// An Assembly expecting `count` tus uploads, with resize steps (or, with `resizing` false, `:original` only).
        func assembly(expecting count: Int, resizing: Bool = true) async throws -> String {
            let original = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]
            let params = harness.params(resizing ? ServiceHarness.resizeSteps(["width": .integer(40)]) : original)
            let answer = try await harness.send(.form(.post, "\(harness.base)/assemblies", fields: [
                (name: "params", value: params), (name: "signature", value: harness.sign(params)),
                (name: "tus_num_expected_upload_files", value: String(count)),
            ]))
            #expect(answer["ok"]?.stringValue == "ASSEMBLY_UPLOADING")
            return try #require(answer["assembly_ssl_url"]?.stringValue)
        }

        func create(assemblyURL: String, length: Int64, filename: String, extra: [String: String] = [:]) async throws -> (status: Int, location: String?) {
            let pairs = ["assembly_url": assemblyURL, "fieldname": "file", "filename": filename].merging(extra) { $1 }
            let metadata = pairs.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }.joined(separator: ",")
            let response = try await harness.transport.send(HTTPRequestSpec(method: .post, url: "\(harness.base)/resumable/files/", headers: [
                header("Tus-Resumable", "1.0.0"), header("Upload-Length", String(length)), header("Upload-Metadata", metadata),
            ]))
            #expect(response.header("Tus-Resumable") == "1.0.0")
            return (response.status, response.header("Location"))
        }

        func head(_ url: String) async throws -> HTTPResponseInfo {
            try await harness.transport.send(HTTPRequestSpec(method: .head, url: url, headers: [header("Tus-Resumable", "1.0.0")]))
        }

        /// PATCHes `length` bytes of `path` from `offset`, announced at `declaredOffset` (default: the same).
        func patch(_ url: String, path: String, offset: Int64, length: Int64, declaredOffset: Int64? = nil,
                   checksum: String? = nil, contentType: String = "application/offset+octet-stream") async throws -> HTTPResponseInfo {
            var body = BodyPlan()
            body.appendFile(path: path, offset: offset, length: length)
            var headers: HTTPHeaders = [header("Tus-Resumable", "1.0.0"), header("Upload-Offset", String(declaredOffset ?? offset)), header("Content-Type", contentType)]
            if let checksum { headers.append(header("Upload-Checksum", checksum)) }
            return try await harness.transport.send(HTTPRequestSpec(method: .patch, url: url, headers: headers, body: .plan(body)))
        }

        static func sha1(of path: String, offset: Int64, length: Int64) throws -> String {
            "sha1 " + Data(try Digest.hashFile(.sha1, path: path, offset: offset, length: length)).base64EncodedString()
        }
    }

    static func size(_ path: String) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
    }

    @Test func optionsAnnounceTheExtensions() async throws {
        let harness = try ServiceHarness()
        let response = try await harness.transport.send(HTTPRequestSpec(method: .options, url: "\(harness.base)/resumable/files/"))
        #expect((200...204).contains(response.status))
        #expect(response.header("Tus-Resumable") == "1.0.0")
        #expect(response.header("Tus-Version") == "1.0.0")
        #expect(response.header("Tus-Extension") == "creation,termination,checksum")
        #expect(response.header("Tus-Checksum-Algorithm") == "sha1")
        #expect(response.header("Tus-Max-Size").flatMap { Int64($0) } ?? 0 > 0)
    }

    @Test func chunkedUploadsCompleteTheAssembly() async throws {
        let harness = try ServiceHarness()
        let client = Client(harness: harness)
        let first = try harness.image("first.png", width: 400, height: 300, format: .png)
        let second = try harness.image("second.jpg", width: 80, height: 80)
        let assemblyURL = try await client.assembly(expecting: 2)
        let id = try #require(ServiceURLs.assemblyID(inURL: assemblyURL))
        let length = try Self.size(first)

        let created = try await client.create(assemblyURL: assemblyURL, length: length, filename: "first.png", extra: ["owner": "me"])
        #expect(created.status == 201)
        let upload = try #require(created.location)
        #expect(upload.hasPrefix("\(harness.machine)/resumable/files/"))
        let fresh = try await client.head(upload)
        #expect(fresh.header("Upload-Offset") == "0")
        #expect(fresh.header("Upload-Length") == String(length))
        #expect(fresh.header("Cache-Control") == "no-store")

        let half = length / 2
        let chunk = try await client.patch(upload, path: first, offset: 0, length: half, checksum: try Client.sha1(of: first, offset: 0, length: half))
        #expect(chunk.status == 204)
        #expect(chunk.header("Upload-Offset") == String(half))
        #expect(chunk.header("Tus-Resumable") == "1.0.0")
        let progress = try await harness.get("/assemblies/\(id)")
        #expect(progress["tus_uploads"]?[0]?["offset"]?.intValue == Int(half))
        #expect(progress["started_tus_uploads"]?.intValue == 1)

        let conflict = try await client.patch(upload, path: first, offset: 0, length: 10)
        #expect(conflict.status == 409)
        let wrongType = try await client.patch(upload, path: first, offset: half, length: 10, contentType: "application/octet-stream")
        #expect(wrongType.status == 415)
        let mismatch = try await client.patch(upload, path: first, offset: half, length: length - half, checksum: try Client.sha1(of: first, offset: 0, length: 10))
        #expect(mismatch.status == 460)
        #expect(try await client.head(upload).header("Upload-Offset") == String(half))

        let rest = try await client.patch(upload, path: first, offset: half, length: length - half, checksum: try Client.sha1(of: first, offset: half, length: length - half))
        #expect(rest.header("Upload-Offset") == String(length))
        #expect(try await harness.get("/assemblies/\(id)")["ok"]?.stringValue == "ASSEMBLY_UPLOADING")

        let other = try #require(try await client.create(assemblyURL: assemblyURL.replacingOccurrences(of: "http:", with: "https:"), length: try Self.size(second), filename: "second.jpg").location)
        #expect(try await client.patch(other, path: second, offset: 0, length: try Self.size(second)).status == 204)
        let done = try await harness.waitForEnd(id)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["finished_tus_uploads"]?.intValue == 2)
        #expect(done["bytes_received"] == done["bytes_expected"])
        #expect(done["bytes_received"]?.intValue ?? 0 > Int(length + (try Self.size(second))))
        let uploads = try #require(done["uploads"]?.arrayValue)
        #expect(uploads.map { $0["name"]?.stringValue } == ["first.png", "second.jpg"])
        #expect(uploads[0]["is_tus_file"] == .bool(true))
        #expect(uploads[0]["tus_upload_url"]?.stringValue == upload)
        #expect(uploads[0]["user_meta"]?["owner"]?.stringValue == "me")
        #expect(uploads[0]["md5hash"]?.stringValue == Hex.encode(try Digest.hashFile(.md5, path: first)))
        #expect(done["results"]?["resized"]?.arrayValue?.count == 2)
        #expect(done["tus_uploads"]?[0]?["finished"] == .bool(true))
    }

    @Test func extraUploadsAreDroppedAndTerminationForgets() async throws {
        let harness = try ServiceHarness()
        let client = Client(harness: harness)
        let file = try harness.textFile("a.txt", "0123456789")
        let assemblyURL = try await client.assembly(expecting: 1, resizing: false)
        let id = try #require(ServiceURLs.assemblyID(inURL: assemblyURL))

        let dropped = try #require(try await client.create(assemblyURL: assemblyURL, length: 10, filename: "gone.txt").location)
        #expect(try await harness.transport.send(HTTPRequestSpec(method: .delete, url: dropped, headers: [client.header("Tus-Resumable", "1.0.0")])).status == 204)
        #expect(try await client.head(dropped).status == 404)
        #expect(try await harness.get("/assemblies/\(id)")["started_tus_uploads"]?.intValue == 0)

        let kept = try #require(try await client.create(assemblyURL: assemblyURL, length: 10, filename: "a.txt").location)
        let extra = try #require(try await client.create(assemblyURL: assemblyURL, length: 10, filename: "extra.txt").location)
        #expect(try await client.patch(extra, path: file, offset: 0, length: 10).status == 204)
        #expect(try await client.patch(kept, path: file, offset: 0, length: 10).status == 204)
        let done = try await harness.waitForEnd(id)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["uploads"]?.arrayValue?.map { $0["name"]?.stringValue } == ["a.txt"])
        #expect(done["results"]?[":original"]?[0]?["size"]?.intValue == 10)
    }

    @Test func refusesUnknownAssembliesAndOverlongBodies() async throws {
        let harness = try ServiceHarness()
        let client = Client(harness: harness)
        let unknown = try await client.create(assemblyURL: "\(harness.base)/assemblies/\(AssemblyID.generate().rawValue)", length: 5, filename: "x")
        #expect(unknown.status == 404)
        let file = try harness.textFile("a.txt", "0123456789")
        let assemblyURL = try await client.assembly(expecting: 1)
        let upload = try #require(try await client.create(assemblyURL: assemblyURL, length: 5, filename: "a.txt").location)
        #expect(try await client.patch(upload, path: file, offset: 0, length: 10).status == 413)
        #expect(try await client.head(upload).header("Upload-Offset") == "0")
        let oldVersion = try await harness.transport.send(HTTPRequestSpec(method: .post, url: "\(harness.base)/resumable/files/", headers: [
            client.header("Tus-Resumable", "0.2.2"), client.header("Upload-Length", "5"),
        ]))
        #expect(oldVersion.status == 412)
        #expect(oldVersion.header("Tus-Version") == "1.0.0")
    }

    @Test func uploadsResumeAcrossARestart() async throws {
        let directory = try TemporaryDirectory()
        let credentials = ServiceCredentials(key: "k", secret: "s")
        var first: ServiceHarness? = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let file = try first!.image("p.jpg", width: 300, height: 200)
        let length = try Self.size(file)
        let assemblyURL = try await Client(harness: first!).assembly(expecting: 1)
        let id = try #require(ServiceURLs.assemblyID(inURL: assemblyURL))
        let upload = try #require(try await Client(harness: first!).create(assemblyURL: assemblyURL, length: length, filename: "p.jpg").location)
        #expect(try await Client(harness: first!).patch(upload, path: file, offset: 0, length: 1000).status == 204)
        let uploadID = try #require(upload.split(separator: "/").last.map(String.init))
        first = nil

        let second = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let client = Client(harness: second)
        let moved = "\(second.base)/resumable/files/\(uploadID)"
        let head = try await client.head(moved)
        #expect(head.header("Upload-Offset") == "1000")
        let override = try await second.transport.send(HTTPRequestSpec(method: .post, url: moved, headers: [
            client.header("X-HTTP-Method-Override", "HEAD"), client.header("Tus-Resumable", "1.0.0"),
        ]))
        #expect(override.header("Upload-Offset") == "1000")
        #expect(try await client.patch(moved, path: file, offset: 1000, length: length - 1000).status == 204)
        let done = try await second.waitForEnd(id)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["uploads"]?[0]?["md5hash"]?.stringValue == Hex.encode(try Digest.hashFile(.md5, path: file)),
                "the MD5 of an upload begun before the restart comes from the file")
        let result = try #require(done["results"]?["resized"]?[0])
        let (_, path) = try await second.download(try #require(result["url"]?.stringValue))
        #expect(try ImageInspector.inspect(path).size == PixelSize(width: 40, height: 27))
    }
}
