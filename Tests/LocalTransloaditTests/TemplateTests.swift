import AssemblyLine
import ConfigFormat
import Foundation
import ImageRobot
@testable import LocalTransloadit
import Testing
import YAMLReader

@Suite(.timeLimit(.minutes(3))) struct TemplateTests {
    static let file = """
        thumbs:
          allow_steps_override: false
          steps:
            small: {robot: /image/resize, use: ":original", width: 40, height: 40, resize_strategy: fit}
        open:
          fields: {size: medium}
          steps:
            small: {robot: /image/resize, use: ":original", width: 40, height: 40, resize_strategy: fit, format: png}
        """

    static func library() throws -> TemplateLibrary {
        try TemplateLibrary.decode(try YAMLReader.parse(file, file: "templates.yaml"), file: "templates.yaml")
    }

    @Test func templateStepsRunAndRequestValuesWinInTheMerge() async throws {
        let harness = try ServiceHarness { $0.templates = try! Self.library() }
        let photo = try harness.image("p.jpg", width: 400, height: 300)
        let override: [String: JSONValue] = [
            "template_id": .string("open"),
            "steps": .object(["small": .object(["width": .integer(20), "format": .null])]),
            "fields": .object(["extra": .string("yes")]),
        ]
        let created = try await harness.create(params: harness.params(override), files: [("image", photo)])
        #expect(created.status == 200)
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(done["template_id"]?.stringValue == "open")
        #expect(done["fields"]?["size"]?.stringValue == "medium")
        #expect(done["fields"]?["extra"]?.stringValue == "yes")
        let result = try #require(done["results"]?["small"]?[0])
        #expect(result["meta"]?["width"]?.intValue == 20)
        #expect(result["meta"]?["height"]?.intValue == 15)
        #expect(result["ext"]?.stringValue == "png")
        let merged = try JSONValue(parsing: try #require(done["merged_params"]?.stringValue))
        #expect(merged["steps"]?["small"]?["height"]?.intValue == 40)
    }

    @Test func templateThatDeniesOverrideRefusesSteps() async throws {
        let harness = try ServiceHarness { $0.templates = try! Self.library() }
        let denied = try await harness.create(params: harness.params([
            "template_id": .string("thumbs"), "steps": .object(["small": .object(["width": .integer(5)])]),
        ]))
        #expect(denied.status == 400)
        #expect(denied["error"]?.stringValue == "TEMPLATE_DENIES_STEPS_OVERRIDE")
        let plain = try await harness.create(params: harness.params(["template_id": .string("thumbs")]))
        #expect(plain.status == 200)
    }

    @Test func unknownTemplateIsNotFound() async throws {
        let harness = try ServiceHarness { $0.templates = try! Self.library() }
        let answer = try await harness.create(params: harness.params(["template_id": .string("nope")]))
        #expect(answer.status == 404)
        #expect(answer["error"]?.stringValue == "TEMPLATE_NOT_FOUND")
    }

    @Test func deepMergeKeepsTemplateValuesUnderNullAndMergesObjects() async {
        let template: [String: JSONValue] = ["a": .object(["x": .integer(1), "y": .integer(2)]), "b": .string("t"), "c": .integer(3)]
        let request: [String: JSONValue] = ["a": .object(["y": .integer(9)]), "b": .null, "d": .bool(true)]
        #expect(ServiceTemplate.deepMerge(template, under: request) == [
            "a": .object(["x": .integer(1), "y": .integer(9)]), "b": .string("t"), "c": .integer(3), "d": .bool(true),
        ])
    }

    @Test func templateFileErrorsNameTheirPlace() async throws {
        let text = """
            broken:
              allow_steps_override: maybe
              stepz: {}
            nosteps:
              fields: {a: 1}
            """
        let node = try YAMLReader.parse(text, file: "t.yaml")
        let error = try #require(throws: ConfigError.self) { try TemplateLibrary.decode(node, file: "t.yaml") }
        let lines = error.description.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("t.yaml:2:25: broken.allow_steps_override: expected true or false") })
        #expect(lines.contains { $0.hasPrefix("t.yaml:3:3: broken.stepz: unknown key 'stepz'") })
        #expect(lines.contains { $0.hasPrefix("t.yaml:5:3: nosteps.steps: missing") })
    }

    @Test(arguments: [
        ("{\"robot\": \"/video/encode\"}", "ASSEMBLY_STEP_UNKNOWN_ROBOT"),
        ("{\"robot\": \"/image/resize\", \"use\": \"missing\"}", "ASSEMBLY_STEP_UNKNOWN_USE"),
        ("{\"robot\": \"/image/resize\", \"use\": 5}", "ASSEMBLY_STEP_INVALID_USE"),
        ("{\"robot\": \"/image/resize\", \"width\": 0}", "IMAGE_RESIZE_VALIDATION"),
        ("{\"robot\": \"/image/resize\", \"resize_strategy\": \"squash\"}", "IMAGE_RESIZE_VALIDATION"),
        ("{\"use\": \":original\"}", "ASSEMBLY_INVALID_STEPS"),
    ])
    func invalidInstructionsAreRefusedAtCreation(step: String, code: String) async throws {
        let harness = try ServiceHarness()
        let params = harness.params(["steps": .object(["one": try JSONValue(parsing: step)])])
        let answer = try await harness.create(params: params)
        #expect(answer.status == 400)
        #expect(answer["error"]?.stringValue == code)
    }

    @Test func useChainsRunInOrder() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("p.png", width: 400, height: 300, format: .png)
        let steps: JSONValue = .object([
            "big": .object(["robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(200)]),
            "small": .object(["robot": .string("/image/resize"), "use": .object(["steps": .array([.string("big")])]), "width": .integer(50), "format": .string("webp")]),
            "both": .object(["robot": .string("/image/resize"), "use": .array([.string("big"), .object(["name": .string(":original")])]), "width": .integer(10)]),
        ])
        let created = try await harness.create(params: harness.params(["steps": steps]), files: [("f", photo)])
        let done = try await harness.waitForEnd(try #require(created["assembly_id"]?.stringValue))
        #expect(done["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let results = try #require(done["results"]?.objectValue)
        #expect(Set(results.keys) == ["small", "both"])
        #expect(done["results"]?["small"]?[0]?["meta"]?["height"]?.intValue == 38)
        #expect(done["results"]?["small"]?[0]?["mime"]?.stringValue == "image/webp")
        #expect(done["results"]?["both"]?.arrayValue?.count == 2)
        #expect(done["results"]?["small"]?[0]?["original_id"] == done["uploads"]?[0]?["id"])
    }
}
