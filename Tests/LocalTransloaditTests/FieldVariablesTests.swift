import ConfigFormat
import Foundation
import ImageRobot
@testable import LocalTransloadit
import Testing

/// `${fields.NAME}` in a step: the Assembly's field put in, as production's Assembly Variables are.
@Suite(.timeLimit(.minutes(2))) struct FieldVariablesTests {
    @Test func aWholeValueTakesTheFieldsOwnTypeTextTakesItsTextAndTheRestStaysAsWritten() {
        let steps: JSONValue = .object(["thumb": .object([
            "robot": .string("/image/resize"), "use": .string("${fields.w}"),
            "width": .string("${fields.w}"), "background": .string("#${fields.shade}ff"),
            "name": .string("${file.name}-${fields.missing}-${fields.tag}"), "list": .array([.string("${fields.tag}")]),
        ])])
        let fields: [String: JSONValue] = ["w": .integer(30), "shade": .string("00ff"), "tag": .bool(true)]
        let thumb = FieldVariables.interpolate(steps, fields: fields).objectValue?["thumb"]?.objectValue
        #expect(thumb?["width"] == .integer(30))
        #expect(thumb?["background"] == .string("#00ffff"))
        #expect(thumb?["name"] == .string("${file.name}-${fields.missing}-true"))
        #expect(thumb?["list"] == .array([.bool(true)]))
        #expect(thumb?["use"] == .string("${fields.w}"))
        #expect(thumb?["robot"] == .string("/image/resize"))
    }

    @Test func anAssemblysFieldsSetItsResizeWidth() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("in.png", width: 200, height: 100, format: .png)
        let params = harness.params([
            "fields": .object(["w": .integer(40)]),
            "steps": .object(["thumb": .object(["robot": .string("/image/resize"), "use": .string(":original"),
                                                "width": .string("${fields.w}"), "resize_strategy": .string("fit")])]),
        ])
        let created = try await harness.create(params: params, files: [("image", photo)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "\(done.json.serialized)")
        let thumb = try #require(done["results"]?["thumb"]?[0])
        let (info, _) = try await ResizeThroughServiceTests.decode(thumb, with: harness)
        #expect(info.width == 40 && info.height == 20)
    }
}
