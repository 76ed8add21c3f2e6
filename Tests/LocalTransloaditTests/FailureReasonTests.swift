import ConfigFormat
import Foundation
import ImageRobot
@testable import LocalTransloadit
import TestSupport
import Testing

/// The reasons the service gives a client say what failed by the names the client knows, never by the data directory's paths.
@Suite(.timeLimit(.minutes(3))) struct FailureReasonTests {
    @Test func aResizeThatCannotReadItsInputNamesTheUploadNotTheStoredFile() async throws {
        let harness = try ServiceHarness()
        let broken = try harness.textFile("broken.png", "not a png")
        let done = try await harness.resize([("image", broken)], options: ["width": .integer(10), "format": .string("jpg")])
        #expect(done["error"]?.stringValue == "IMAGE_RESIZE_ERROR", "\(done.json.serialized)")
        let reason = try #require(done["reason"]?.stringValue)
        #expect(reason.hasPrefix("image 'broken.png': not a decodable image (") && reason.contains("\"broken.png\""), "\(reason)")
        #expect(!reason.contains(harness.directory.path) && !reason.contains("assemblies/"), "\(reason)")
    }

    @Test func anExportRobotThatCannotWriteSaysTheSystemsReasonWithoutAPath() async throws {
        let harness = try ServiceHarness()
        _ = try harness.textFile("data/storage", "a file where the storage folder goes: no export can be written")
        let photo = try harness.image("in.png", width: 40, height: 30, format: .png)
        let steps: JSONValue = .object(["exported": .object(["robot": .string("/s3/store"), "use": .string(":original")])])
        let created = try await harness.create(params: harness.params(["steps": steps]), files: [("image", photo)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["error"]?.stringValue == "S3_STORE_ERROR", "\(done.json.serialized)")
        #expect(done["reason"]?.stringValue == "Not a directory", "\(done.json.serialized)")
        #expect(done["message"]?.stringValue == "Step 'exported' could not store in.png.")
    }

    @Test func whateverPathOfTheDataDirectoryIsLeftIsSaidAsAFileOfTheService() {
        let text = FileFailureText(root: "/srv/data")
        #expect(text.scrubbed("cannot open '/srv/data/assemblies/ab/files/cd' or /srv/data/tmp/x, nor /srv/database",
                              naming: [("/srv/data/assemblies/ab/files/cd", "in.png")])
                == "cannot open 'in.png' or a file of the service, nor /srv/database")
        #expect(FileFailureText.reason(of: CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/srv/data/x",
                                                                                    NSUnderlyingErrorKey: POSIXError(.ENOSPC)]))
                == "No space left on device")
    }
}
