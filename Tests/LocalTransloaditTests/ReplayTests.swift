import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// `POST /assemblies/<id>/replay` as production has it: the parent named, its uploads reused, its Template read again on request,
/// and the window in which it can be replayed.
@Suite(.timeLimit(.minutes(3))) struct ReplayTests {
    @Test func aReplayNamesItsParentAndHasItsUploadsWithNothingReceived() async throws {
        let harness = try ServiceHarness()
        let photos = [try harness.image("a.jpg", width: 400, height: 300), try harness.image("b.jpg", width: 300, height: 400)]
        let parent = try await harness.resize([("first", photos[0]), ("second", photos[1])], options: ["width": .integer(100)])
        let parentID = try #require(parent["assembly_id"]?.stringValue)

        let replay = try await harness.replay(parentID)
        #expect(replay.status == 200)
        #expect(replay["ok"]?.stringValue == "ASSEMBLY_REPLAYING")
        #expect(replay["success"] == .bool(true))
        let id = try #require(replay["assembly_id"]?.stringValue)
        #expect(id != parentID)
        #expect(replay["assembly_ssl_url"]?.stringValue == "\(harness.machine)/assemblies/\(id)")
        #expect(replay["assembly_url"] == replay["assembly_ssl_url"])
        let parentStatus: JSONValue = .object([
            "assembly_id": .string(parentID), "assembly_url": .string("\(harness.machine)/assemblies/\(parentID)"),
            "assembly_ssl_url": .string("\(harness.machine)/assemblies/\(parentID)"),
        ])
        #expect(replay["parent_assembly_status"] == parentStatus, "an object, as go-sdk decodes it (AssemblyInfo)")
        #expect(replay["parent_assembly_status"]?["assembly_ssl_url"] == parent["assembly_ssl_url"])
        #expect(replay["bytes_received"]?.intValue == 0, "nothing new was sent")

        let done = try await harness.waitForEnd(id)
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["parent_id"]?.stringValue == parentID)
        #expect(done["parent_assembly_status"] == parentStatus)
        #expect(done["replay_of"] == nil)
        #expect(done["bytes_received"]?.intValue == 0)
        let keys = ["id", "field", "name", "basename", "ext", "size", "md5hash", "mime"]
        let uploads = try #require(done["uploads"]?.arrayValue), parentUploads = try #require(parent["uploads"]?.arrayValue)
        #expect(uploads.count == 2)
        for (upload, original) in zip(uploads, parentUploads) {
            for key in keys { #expect(upload[key] == original[key], "\(key)") }
        }
        let results = try #require(done["results"]?["resized"]?.arrayValue)
        #expect(Set(results.compactMap { $0["field"]?.stringValue }) == ["first", "second"])
        #expect(Set(results.compactMap { $0["original_id"]?.stringValue }) == Set(parentUploads.compactMap { $0["id"]?.stringValue }))
        let parentNow = try await harness.get("/assemblies/\(parentID)")
        #expect(parentNow["parent_id"] == .null && parentNow["parent_assembly_status"] == .null)
    }

    @Test func reparseTemplateTakesTheTemplatesCurrentContentAndWithoutItTheParentsInstructionsRunAgain() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("p.jpg", width: 400, height: 300)
        let templateID = try await harness.createTemplate(name: "replayed-recipe", content: TemplateAPITests.resize(width: 40))
        let parent = try await TemplateUseTests.run(harness, templateID: templateID, photo: photo)
        let parentID = try #require(parent["assembly_id"]?.stringValue)
        #expect(parent["results"]?["small"]?[0]?["meta"]?["width"]?.intValue == 40)
        _ = try await harness.signed(.put, "/templates/\(templateID)", ["template": .object(TemplateAPITests.resize(width: 20))])

        func width(_ members: [String: JSONValue]) async throws -> Int? {
            let replay = try await harness.replay(parentID, members)
            #expect(replay.status == 200, "\(members)")
            #expect(replay["notify_url"] == members["notify_url"] ?? .null, "the answer echoes notify_url")
            let done = try await harness.waitForEnd(try #require(replay["assembly_id"]?.stringValue))
            #expect(done["template_id"]?.stringValue == templateID)
            return done["results"]?["small"]?[0]?["meta"]?["width"]?.intValue
        }
        #expect(try await width([:]) == 40)
        #expect(try await width(["reparse_template": .integer(0)]) == 40)
        #expect(try await width(["reparse_template": .integer(1)]) == 20)
        #expect(try await width(["reparse_template": .bool(true)]) == 20)
        // go-sdk's StartAssemblyReplay sends `steps: {}` when no step was added: that brings no Steps of its own
        #expect(try await width(["steps": .object([:])]) == 40)
        #expect(try await width([
            "steps": .object([:]), "reparse_template": .integer(1), "notify_url": .string("https://example.com/"),
        ]) == 20)
        let bad = try await harness.replay(parentID, ["reparse_template": .integer(2)])
        #expect(bad.status == 400 && bad["error"]?.stringValue == "INVALID_PARAMS_FIELD")

        _ = try await harness.signed(.delete, "/templates/\(templateID)")
        let gone = try await harness.replay(parentID, ["reparse_template": .integer(1)])
        #expect(gone.status == 404 && gone["error"]?.stringValue == "TEMPLATE_NOT_FOUND")
        #expect(try await width([:]) == 40, "without reparse_template the parent's instructions need no Template")
    }

    /// The embedded service drops a completed Assembly's uploads once its results are fetched; a failed one keeps
    /// them for their lifetime, so that the client can replay it instead of uploading again.
    @Test(arguments: [false, true])
    func anAssemblyThatFailedWhileExecutingIsReplayedUntilItsUploadsExpire(embedded: Bool) async throws {
        let clock = ManualClock()
        let harness = try ServiceHarness {
            $0.clock = clock
            $0.resultTTL = .seconds(3_600)
            $0.dropsUploadsOnceFetched = embedded
        }
        let good = try harness.image("good.jpg", width: 400, height: 300)
        let broken = try harness.textFile("broken.jpg", "not an image")
        let params = harness.params(ServiceHarness.resizeSteps(["width": .integer(100)]), expires: ServiceHarness.expiry(in: 300, after: clock.now))
        let created = try await harness.create(params: params, files: [("good", good), ("broken", broken)])
        let parent = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(parent["error"]?.stringValue == "IMAGE_RESIZE_ERROR")
        let parentID = try #require(parent["assembly_id"]?.stringValue)
        for result in parent["results"]?["resized"]?.arrayValue ?? [] {
            #expect(try await harness.download(try #require(result["ssl_url"]?.stringValue)).response.status == 200)
        }
        #expect(try await harness.get("/assemblies/\(parentID)")["uploads"]?.arrayValue?.count == 2)

        let steps: [String: JSONValue] = ["steps": .object([":original": .object(["robot": .string("/upload/handle")])])]
        try await clock.sleep(for: .seconds(3_599))
        let replay = try await harness.replay(parentID, steps)
        #expect(replay.status == 200)
        let done = try await harness.waitForEnd(try #require(replay["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["results"]?[":original"]?.arrayValue?.count == 2)

        try await clock.sleep(for: .seconds(1))
        let late = try await harness.replay(parentID, steps)
        #expect(late.status == 400 && late["error"]?.stringValue == "ASSEMBLY_CANNOT_BE_REPLAYED")
        #expect(late["assembly_id"]?.stringValue == parentID)
    }

    @Test func anAssemblyThatRunsOrNeverReceivedItsUploadsIsNotReplayed() async throws {
        let harness = try ServiceHarness()
        let waiting = try await harness.create(params: harness.params(AssemblyLifecycleTests.original), fields: [("tus_num_expected_upload_files", "1")])
        let id = try #require(waiting["assembly_id"]?.stringValue)
        let running = try await harness.replay(id)
        #expect(running.status == 400 && running["error"]?.stringValue == "ASSEMBLY_CANNOT_BE_REPLAYED")
        #expect(running["message"]?.stringValue?.contains("still running") == true)
        _ = try await harness.send(HTTPRequestSpec(method: .delete, url: "\(harness.base)/assemblies/\(id)"))
        let canceled = try await harness.replay(id)
        #expect(canceled.status == 400 && canceled["error"]?.stringValue == "ASSEMBLY_CANNOT_BE_REPLAYED")
        #expect(canceled["message"]?.stringValue?.contains("never received all its uploads") == true)
        let missing = try await harness.replay(AssemblyID.generate().rawValue)
        #expect(missing.status == 404 && missing["error"]?.stringValue == "ASSEMBLY_NOT_FOUND")
    }
}
