import AssemblyLine
import ConfigFormat
import CurlTransport
import Digests
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// Listing, cancelling, replaying, and what survives a restart.
@Suite(.timeLimit(.minutes(3))) struct AssemblyLifecycleTests {
    static let original = ["steps": JSONValue.object([":original": .object(["robot": .string("/upload/handle")])])]

    /// A signed `GET /assemblies` with these params members.
    static func list(_ harness: ServiceHarness, _ members: [String: JSONValue]) async throws -> Answer {
        let params = harness.params(members)
        let query = FormURLEncoding.encode([(name: "params", value: params), (name: "signature", value: harness.sign(params))])
        return try await harness.get("/assemblies?\(query)")
    }

    @Test func listPagesNewestFirst() async throws {
        let harness = try ServiceHarness()
        var ids: [String] = []
        for index in 0..<5 {
            let created = try await harness.create(params: harness.params(Self.original), fields: [("n", String(index))])
            ids.append(try #require(created["assembly_id"]?.stringValue))
        }
        var seen: [String] = []
        for page in 1...3 {
            let answer = try await Self.list(harness, ["page": .integer(Int64(page)), "pagesize": .integer(2)])
            #expect(answer.status == 200)
            #expect(answer["count"]?.intValue == 5)
            let items = try #require(answer["items"]?.arrayValue)
            #expect(items.count == (page == 3 ? 1 : 2))
            seen += items.compactMap { $0["id"]?.stringValue }
            #expect(items.allSatisfy { $0["assembly_ssl_url"]?.stringValue?.hasPrefix(harness.machine) == true })
        }
        #expect(seen == ids.reversed())
        let first = try await Self.list(harness, [:])
        #expect(first["items"]?[0]?["fields"]?["n"]?.stringValue == "4")
        let unsigned = try await harness.get("/assemblies")
        #expect(unsigned.status == 400)
        #expect(unsigned["error"]?.stringValue == "NO_PARAMS_FIELD")
        let badPage = try await Self.list(harness, ["pagesize": .integer(0)])
        #expect(badPage.status == 400)
    }

    @Test func deleteCancelsARunningAssemblyOnly() async throws {
        let harness = try ServiceHarness()
        let waiting = try await harness.create(params: harness.params(Self.original), fields: [("tus_num_expected_upload_files", "1")])
        #expect(waiting["ok"]?.stringValue == "ASSEMBLY_UPLOADING")
        #expect(waiting["expected_tus_uploads"]?.intValue == 1)
        let id = try #require(waiting["assembly_id"]?.stringValue)
        let canceled = try await harness.send(HTTPRequestSpec(method: .delete, url: "\(harness.base)/assemblies/\(id)"))
        #expect(canceled.status == 200)
        #expect(canceled["ok"]?.stringValue == "ASSEMBLY_CANCELED")
        #expect(try await harness.get("/assemblies/\(id)")["ok"]?.stringValue == "ASSEMBLY_CANCELED")

        let finished = try await harness.create(params: harness.params(Self.original))
        let finishedID = try #require(finished["assembly_id"]?.stringValue)
        _ = try await harness.waitForEnd(finishedID)
        let kept = try await harness.send(.form(.delete, "\(harness.base)/assemblies/\(finishedID)", fields: [(name: "params", value: "{}")]))
        #expect(kept["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let missing = try await harness.send(HTTPRequestSpec(method: .delete, url: "\(harness.base)/assemblies/\(AssemblyID.generate().rawValue)"))
        #expect(missing.status == 404)
    }

    @Test func replayRunsTheUploadsAgain() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("p.jpg", width: 400, height: 300)
        let first = try await harness.resize([("image", photo)], options: ["width": .integer(100)])
        let firstID = try #require(first["assembly_id"]?.stringValue)
        #expect(first["results"]?["resized"]?[0]?["meta"]?["width"]?.intValue == 100)

        let params = harness.params(ServiceHarness.resizeSteps(["width": .integer(30)]))
        let replay = try await harness.send(.form(.post, "\(harness.base)/assemblies/\(firstID)/replay", fields: [
            (name: "params", value: params), (name: "signature", value: harness.sign(params)),
        ]))
        #expect(replay.status == 200)
        #expect(replay["ok"]?.stringValue == "ASSEMBLY_REPLAYING")
        #expect(replay["success"] == .bool(true))
        let replayID = try #require(replay["assembly_id"]?.stringValue)
        #expect(replayID != firstID)
        let done = try await harness.waitForEnd(replayID)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["parent_id"]?.stringValue == firstID)
        #expect(done["results"]?["resized"]?[0]?["meta"]?["width"]?.intValue == 30)
        #expect(done["uploads"]?[0]?["md5hash"] == first["uploads"]?[0]?["md5hash"])

        let same = harness.params([:])
        let again = try await harness.send(.form(.post, "\(harness.base)/assemblies/\(firstID)/replay", fields: [
            (name: "params", value: same), (name: "signature", value: harness.sign(same)),
        ]))
        let repeated = try await harness.waitForEnd(try #require(again["assembly_id"]?.stringValue))
        #expect(repeated["results"]?["resized"]?[0]?["meta"]?["width"]?.intValue == 100)
    }

    @Test(arguments: [false, true])
    func uploadsGoOnceEachResultIsFetchedOnlyWhenTheServiceIsToldSo(drops: Bool) async throws {
        let directory = try TemporaryDirectory()
        let harness = try ServiceHarness(directory: directory) { $0.dropsUploadsOnceFetched = drops }
        let photo = try harness.image("p.jpg", width: 400, height: 300)
        let done = try await harness.resize([("image", photo)], options: ["width": .integer(100)])
        let id = try #require(done["assembly_id"]?.stringValue)
        let uploads = directory.file("data/assemblies/\(id)/files/\(try #require(done["uploads"]?[0]?["id"]?.stringValue))")
        #expect(FileManager.default.fileExists(atPath: uploads), "the upload is kept while its result is not fetched")

        let result = try await harness.download(try #require(done["results"]?["resized"]?[0]?["ssl_url"]?.stringValue))

        #expect(result.response.status == 200)
        #expect(FileManager.default.fileExists(atPath: uploads) == !drops)
        let again = try await harness.download(try #require(done["results"]?["resized"]?[0]?["ssl_url"]?.stringValue))
        #expect(again.response.status == 200, "the result keeps its lifetime")
    }

    @Test func stateSurvivesARestart() async throws {
        let directory = try TemporaryDirectory()
        let credentials = ServiceCredentials(key: "restart-key", secret: "restart-secret")
        var first: ServiceHarness? = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let photo = try first!.image("p.jpg", width: 40, height: 30)
        let done = try await first!.resize([("image", photo)], options: ["width": .integer(20)])
        let id = try #require(done["assembly_id"]?.stringValue)
        let waiting = try await first!.create(params: first!.params(Self.original), fields: [("tus_num_expected_upload_files", "2")])
        let waitingID = try #require(waiting["assembly_id"]?.stringValue)
        first = nil

        let second = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let status = try await second.get("/assemblies/\(id)")
        #expect(status.status == 200)
        #expect(status["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let url = try #require(status["results"]?["resized"]?[0]?["url"]?.stringValue)
        #expect(url.hasPrefix(second.base))
        let (response, path) = try await second.download(url)
        #expect(response.status == 200)
        #expect(Hex.encode(try Digest.hashFile(.md5, path: path)) == status["results"]?["resized"]?[0]?["md5hash"]?.stringValue)
        #expect(try await second.get("/assemblies/\(waitingID)")["ok"]?.stringValue == "ASSEMBLY_UPLOADING")
        let reused = try await second.create(params: second.params(Self.original), id: id)
        #expect(reused["error"]?.stringValue == "DO_NOT_REUSE_ASSEMBLY_IDS")
        let newer = try await second.create(params: second.params(Self.original))
        let listed = try await Self.list(second, [:])
        #expect(listed["count"]?.intValue == 3)
        #expect(listed["items"]?[0]?["id"] == newer["assembly_id"])
    }

    @Test func executionCutShortByAStopRunsOnTheNextStart() async throws {
        let directory = try TemporaryDirectory()
        let credentials = ServiceCredentials(key: "k", secret: "s")
        var first: ServiceHarness? = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let photo = try first!.image("p.jpg", width: 60, height: 40)
        let done = try await first!.resize([("image", photo)], options: ["width": .integer(30)])
        let id = try #require(done["assembly_id"]?.stringValue)
        first = nil
        let record = directory.file("data/assemblies/\(id)/assembly.json")
        let stored = try String(contentsOfFile: record, encoding: .utf8)
        #expect(stored.contains("\"state\":\"ASSEMBLY_COMPLETED\""))
        try stored.replacingOccurrences(of: "\"state\":\"ASSEMBLY_COMPLETED\"", with: "\"state\":\"ASSEMBLY_EXECUTING\"")
            .write(toFile: record, atomically: true, encoding: .utf8)
        // A stop during the execution leaves no line in `ended.log` (here its only line), appended after the ending record.
        try FileManager.default.removeItem(atPath: directory.file("data/ended.log"))

        let second = try ServiceHarness(directory: directory) { $0.credentials = credentials }
        let again = try await second.waitForEnd(id)
        #expect(again["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let result = try #require(again["results"]?["resized"]?[0])
        #expect(result["id"] != done["results"]?["resized"]?[0]?["id"])
        #expect(try await second.download(try #require(result["url"]?.stringValue)).response.status == 200)
    }

    /// Timed against the service's clock from both sides, so a slow machine cannot make it flaky:
    /// before `created + ttl` the file must be served, after `finished + ttl` it must be gone.
    @Test func resultsExpireAfterTheirLifetime() async throws {
        let ttl = 2.0
        let harness = try ServiceHarness { $0.resultTTL = .seconds(2) }
        let file = try harness.textFile("a.txt", "short-lived")
        let beforeCreation = Date()
        let created = try await harness.create(params: harness.params(Self.original), files: [("f", file)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        let afterCompletion = Date()
        let url = try #require(done["results"]?[":original"]?[0]?["url"]?.stringValue)
        let early = try await harness.download(url).response.status
        if Date() < beforeCreation.addingTimeInterval(ttl) {
            #expect(early == 200)
        }
        let wait = afterCompletion.addingTimeInterval(ttl + 0.2).timeIntervalSinceNow
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
        let late = try await harness.get(url)
        #expect(late.status == 404)
        #expect(late["error"]?.stringValue == "FILE_EXPIRED")
        #expect(try await harness.get("/assemblies/\(try #require(done["assembly_id"]?.stringValue))").status == 200)
    }
}
