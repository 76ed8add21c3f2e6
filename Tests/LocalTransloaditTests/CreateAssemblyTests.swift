import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import ImageRobot
@testable import LocalTransloadit
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct CreateAssemblyTests {
    @Test func multipartUploadIsResizedAndServed() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("photo.jpg", width: 400, height: 300)
        let created = try await harness.create(
            params: harness.params(ServiceHarness.resizeSteps(["width": .integer(100), "height": .integer(100)])),
            fields: [("shard", "7")], files: [("image", photo)])
        #expect(created.status == 200)
        let id = try #require(created["assembly_id"]?.stringValue)
        #expect(AssemblyID(id) != nil)
        #expect(harness.machine != harness.base)
        #expect(created["assembly_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
        #expect(created["assembly_ssl_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
        #expect(created["tus_url"]?.stringValue == "\(harness.machine)/resumable/files/")

        let done = try await harness.waitForEnd(id)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["error"] == nil)
        #expect(done["fields"]?["shard"]?.stringValue == "7")
        #expect(done["execution_start"]?.stringValue != nil)
        #expect(done["bytes_received"]?.intValue == done["bytes_expected"]?.intValue)
        let upload = try #require(done["uploads"]?[0])
        #expect(upload["field"]?.stringValue == "image")
        #expect(upload["name"]?.stringValue == "photo.jpg")
        #expect(upload["meta"]?["width"]?.intValue == 400)
        let result = try #require(done["results"]?["resized"]?[0])
        #expect(result["original_id"] == upload["id"])
        #expect(result["field"]?.stringValue == "image")
        #expect(result["name"]?.stringValue == "photo.jpg")
        #expect(result["mime"]?.stringValue == "image/jpeg")
        #expect(result["meta"]?["width"]?.intValue == 100)
        #expect(result["meta"]?["height"]?.intValue == 75)

        let url = try #require(result["ssl_url"]?.stringValue)
        #expect(url.hasPrefix(harness.base + "/files/\(id)/"))
        let (response, path) = try await harness.download(url)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "image/jpeg")
        #expect(Int64(result["size"]?.intValue ?? -1) == response.bytesReceived)
        #expect(Hex.encode(try Digest.hashFile(.md5, path: path)) == result["md5hash"]?.stringValue)
        let info = try ImageInspector.inspect(path)
        #expect(info.size == PixelSize(width: 100, height: 75))
    }

    @Test func originalStepServesTheUploadsThemselves() async throws {
        let harness = try ServiceHarness()
        let first = try harness.textFile("a.txt", "first file")
        let second = try harness.textFile("b.txt", "second")
        let params = harness.params(["steps": .object([":original": .object(["robot": .string("/upload/handle")])])])
        let created = try await harness.create(params: params, files: [("file_1", first), ("file_2", second)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let results = try #require(done["results"]?[":original"]?.arrayValue)
        #expect(results.map { $0["name"]?.stringValue } == ["a.txt", "b.txt"])
        #expect(results[0]["md5hash"]?.stringValue == Hex.encode(Digest.md5(Array("first file".utf8))))
        #expect(results[0]["mime"]?.stringValue == "text/plain")
        let (response, path) = try await harness.download(try #require(results[1]["url"]?.stringValue))
        #expect(response.status == 200)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
    }

    @Test func largeUploadIsStreamedIntact() async throws {
        let harness = try ServiceHarness()
        let path = harness.directory.file("big.bin")
        var block = [UInt8](repeating: 0, count: 1 << 20)
        for index in block.indices { block[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        for round in 0..<12 {
            block[round] ^= 0xFF
            try handle.write(contentsOf: Data(block))
        }
        try handle.close()
        let params = harness.params(["steps": .object([":original": .object(["robot": .string("/upload/handle")])])])
        let created = try await harness.create(params: params, files: [("big", path)])
        #expect(created.status == 200)
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        let result = try #require(done["results"]?[":original"]?[0])
        #expect(result["size"]?.intValue == 12 << 20)
        #expect(result["md5hash"]?.stringValue == Hex.encode(try Digest.hashFile(.md5, path: path)))
        #expect(result["mime"]?.stringValue == "application/octet-stream")
    }

    @Test func queryFieldsAndFieldsAfterTheFilesCount() async throws {
        let harness = try ServiceHarness()
        let params = harness.params(["steps": .object([":original": .object(["robot": .string("/upload/handle")])])])
        var form = MultipartFormBody()
        form.append(name: "params", value: params)
        form.append(name: "signature", value: harness.sign(params))
        form.append(name: "f", bytes: Array("data".utf8), filename: "a.txt")
        form.append(name: "late", value: "yes")
        let answer = try await harness.send(try HTTPRequestSpec.multipart(.post, "\(harness.base)/assemblies?early=1", form: form))
        #expect(answer["fields"]?["late"]?.stringValue == "yes")
        #expect(answer["fields"]?["early"]?.stringValue == "1")
    }

    @Test func clientChosenIDIsUsedOnceOnly() async throws {
        let harness = try ServiceHarness()
        let id = AssemblyID.generate().rawValue
        let steps = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]
        let first = try await harness.create(params: harness.params(steps), id: id)
        #expect(first.status == 200)
        #expect(first["assembly_id"]?.stringValue == id)
        let again = try await harness.create(params: harness.params(steps), id: id)
        #expect(again.status == 409)
        #expect(again["error"]?.stringValue == "DO_NOT_REUSE_ASSEMBLY_IDS")
        #expect(again["assembly_id"]?.stringValue == id)
        let status = try await harness.get("/assemblies/\(id)")
        #expect(status.status == 200)
        #expect(status["assembly_id"]?.stringValue == id)
    }

    @Test func urlencodedCreationWithoutFilesCompletes() async throws {
        let harness = try ServiceHarness()
        let params = harness.params(ServiceHarness.resizeSteps(["width": .integer(10)]))
        let answer = try await harness.send(.form(.post, "\(harness.base)/assemblies", fields: [
            (name: "params", value: params), (name: "signature", value: harness.sign(params)), (name: "note", value: "x y"),
        ]))
        #expect(answer.status == 200)
        let done = try await harness.waitForEnd(try #require(answer["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["fields"]?["note"]?.stringValue == "x y")
        #expect(done["results"]?["resized"]?.arrayValue?.isEmpty == true)
        #expect(done["params"]?.stringValue == params)
    }

    @Test(arguments: ["/nowhere", "/assemblies/x/y/z", "/resumable"])
    func unknownRoutesAnswerServer404(path: String) async throws {
        let harness = try ServiceHarness()
        let answer = try await harness.get(path)
        #expect(answer.status == 404)
        #expect(answer.json == .object([
            "error": .string("SERVER_404"), "message": .string("unknown method / url"), "http_code": .integer(404),
        ]))
    }

    @Test func unknownAssemblyIsNotFound() async throws {
        let harness = try ServiceHarness()
        let missing = try await harness.get("/assemblies/\(AssemblyID.generate().rawValue)")
        #expect(missing.status == 404)
        #expect(missing["error"]?.stringValue == "ASSEMBLY_NOT_FOUND")
        let malformed = try await harness.get("/assemblies/not-an-id")
        #expect(malformed.status == 404)
        #expect(malformed["error"]?.stringValue == "ASSEMBLY_NOT_FOUND")
    }

    @Test func undecodableImageFailsWithImageResizeError() async throws {
        let harness = try ServiceHarness()
        let good = try harness.image("good.png", width: 40, height: 30, format: .png)
        let broken = try harness.textFile("broken.jpg", "this is not a JPEG")
        let done = try await harness.resize([("good", good), ("broken", broken)], options: ["width": .integer(20)])
        #expect(done.status == 200)
        #expect(done["ok"] == .null)
        #expect(done["error"]?.stringValue == "IMAGE_RESIZE_ERROR")
        #expect(done["file"]?.stringValue == "broken.jpg")
        #expect(done["step"]?.stringValue == "resized")
        let kept = try #require(done["results"]?["resized"]?.arrayValue)
        #expect(kept.map { $0["name"]?.stringValue } == ["good.png"])
    }
}
