@testable import AssemblyLine
import ConfigFormat
import Foundation
import TestSupport
import Testing
import YAMLReader

/// A manifest's `template: {file:, id:}`: the file read strictly, the recipe made of its steps, the embedded default fed from it.
@Suite struct TemplateFileTests {
    static let thumbs = """
        {
          "name": "thumbs",
          "require_signature_auth": 1,
          "steps": {
            ":original": {"robot": "/upload/handle"},
            "thumb": {"robot": "/image/resize", "use": ":original", "width": 64, "format": "webp"}
          }
        }

        """

    static let account = "endpoint: https://api2.transloadit.com\nauth: {key: k}\nsigner: {kind: local, secret_env: S}\n"

    /// The manifest `yaml` in `directory`, decoded as the CLI does.
    func decode(_ yaml: String, in directory: TemporaryDirectory, pull: Bool = false) throws -> Manifest {
        let path = try directory.write("m.yaml", "version: 1\nname: t\ninputs: {include: \"*.png\"}\n" + yaml).path
        var decoder = ManifestDecoder(displayPath: "m.yaml", absolutePath: path, environment: [:])
        decoder.templateFileMayBeMissing = pull
        return try decoder.decode(try YAMLReader.parse(try String(contentsOfFile: path, encoding: .utf8), file: "m.yaml"))
    }

    @Test func theFileGivesTheStepsSoExtensionsAndResultStepsAreKnown() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("templates/thumbs.json", Self.thumbs)
        let manifest = try decode(Self.account + "template: {id: abc, file: templates/thumbs.json}\n", in: directory)
        guard case .template(let recipe) = manifest.recipe else { Issue.record("not a Template: \(manifest.recipe)"); return }
        #expect(recipe.id == "abc" && recipe.file?.document.name == "thumbs" && recipe.file?.document.requireSignatureAuth == true)
        #expect(manifest.recipe.formatsByStep == ["thumb": "webp"])
        #expect(manifest.recipe.stepsDownloaded(by: manifest.output.steps) == ["thumb"])
        #expect(AssemblyInstructions(manifest.recipe) == .template(id: "abc", fields: [:]), "with an ID the Assemblies name the account's Template")
    }

    @Test func outputStepsAreCheckedAgainstTheFilesStepsAndItsExportRobotsKnown() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("t.json", Self.thumbs.replacingOccurrences(of: "\"thumb\":", with: "\"store\": {\"robot\": \"/s3/store\", \"use\": \"thumb\"}, \"thumb\":"))
        let manifest = try decode(Self.account + "template: {id: abc, file: t.json}\n", in: directory)
        #expect(manifest.output.steps.exported == ["store"] && manifest.recipe.stepsDownloaded(by: manifest.output.steps).isEmpty)
        let issues = try configIssues { _ = try decode(Self.account + "template: {id: abc, file: t.json}\noutput: {steps: [thumbs]}\n", in: directory) }
        #expect(issues.count == 1 && issues[0].contains("thumbs") && issues[0].contains("output.steps"), "\(issues)")
    }

    @Test func theRecipeIsTheStepsAndFieldsSoARenameIsNoneAndAnEditIsANewOne() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("t.json", Self.thumbs)
        let yaml = Self.account + "template: {id: abc, file: t.json, fields: {size: 64}}\n"
        let before = try decode(yaml, in: directory).recipe.fingerprint
        _ = try directory.write("t.json", Self.thumbs.replacingOccurrences(of: "\"thumbs\"", with: "\"renamed\""))
        #expect(try decode(yaml, in: directory).recipe.fingerprint == before)
        _ = try directory.write("t.json", Self.thumbs.replacingOccurrences(of: "64", with: "65"))
        #expect(try decode(yaml, in: directory).recipe.fingerprint != before)
        #expect(try decode(yaml.replacingOccurrences(of: "64", with: "32"), in: directory).recipe.fingerprint != before, "fields too")
        #expect(before != Recipe.template(id: "abc", fields: ["size": .integer(64)]).fingerprint, "no longer the ID alone")
    }

    @Test func theEmbeddedDefaultRunsTheFilesStepsAndRefusesATemplateWithoutOne() throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("t.json", Self.thumbs)
        let manifest = try decode("template: {id: abc, file: t.json}\n", in: directory)
        guard case .steps(let steps, _) = AssemblyInstructions(manifest.recipe) else { Issue.record("\(manifest.recipe)"); return }
        #expect(steps.objectValue?["thumb"]?.objectValue?["format"] == .string("webp"))
        let issues = try configIssues { _ = try decode("template: {id: abc}\n", in: directory) }
        #expect(issues.first?.hasPrefix("m.yaml:4:11: template: the embedded service knows a Template only from its file") == true, "\(issues)")
    }

    @Test(arguments: [
        ("{\"steps\": {\"a\": {\"robot\": \"/image/resize\"},}}", "t.json:1:44: expected a Template as JSON: expected a string key"),
        ("[1]", "t.json: expected an object with steps"),
        ("{\"steps\": {\"a\": {\"use\": \":original\"}}}", "t.json: steps.a.robot: "),
        ("{\"modified\": \"2026-01-01\", \"steps\": {}}", "t.json: modified: "),
        ("{\"name\": 3, \"steps\": {}}", "t.json: name: "),
    ])
    func aBadFileIsReportedAtItsPlaceInTheManifest(text: String, expected: String) throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("t.json", text)
        let issues = try configIssues { _ = try decode(Self.account + "template: {id: abc, file: t.json}\n", in: directory) }
        #expect(issues.count == 1 && issues[0].hasPrefix("m.yaml:7:27: template.file: \(expected)"), "\(issues.first ?? "")")
    }

    @Test func aMissingFileIsAnErrorExceptForThePullThatWritesIt() throws {
        let directory = try TemporaryDirectory()
        let yaml = Self.account + "template: {id: abc, file: new.json}\n"
        let issues = try configIssues { _ = try decode(yaml, in: directory) }
        #expect(issues.first?.contains("new.json: no such file; `assemblyline templates pull` writes it") == true, "\(issues)")
        guard case .template(let recipe) = try decode(yaml, in: directory, pull: true).recipe else { Issue.record("not a Template"); return }
        #expect(recipe.file?.document.content.isEmpty == true && recipe.file?.path == directory.file("new.json"))
    }

    @Test func theFilesTextIsStableAndReadsBackTheSame() throws {
        let document = try TemplateDocument(try JSONValue(parsing: Array(Self.thumbs.utf8)), file: "t.json")
        let text = document.text
        #expect(text.hasPrefix("{\n  \"name\": \"thumbs\",\n  \"require_signature_auth\": 1,\n  \"steps\": {\n    \":original\": {"))
        #expect(try TemplateDocument(try JSONValue(parsing: Array(text.utf8)), file: "t.json") == document)
        #expect(try TemplateDocument(try JSONValue(parsing: Array(text.utf8)), file: "t.json").text == text)
    }

    @Test func theDifferenceNamesEachChangedMemberByItsPath() throws {
        let left = try JSONValue(parsing: Array(#"{"steps": {"thumb": {"width": 64, "use": [":original"]}, "a.b": {"x": 1}}}"#.utf8))
        let right = try JSONValue(parsing: Array(#"{"steps": {"thumb": {"width": 64.0, "use": [":original", "x"], "height": 9}}}"#.utf8))
        #expect(TemplateDifference.between(left, right).map(\.description) == [
            #"- steps["a.b"]: {"x":1}"#, "+ steps.thumb.height: 9", #"+ steps.thumb.use[1]: "x""#,
        ])
        #expect(TemplateDifference.between(left, left).isEmpty)
    }
}

/// `validate`'s warnings about known steps: Robots the client does not know, uploads no step takes, no step with results.
@Suite struct StepsReviewTests {
    func warnings(_ json: String) throws -> [String] {
        StepsReview.warnings(of: try JSONValue(parsing: Array(json.utf8)), at: "t.json")
    }

    @Test func aSoundRecipeGetsNoWarning() throws {
        #expect(try warnings(#"{"thumb": {"robot": "/image/resize", "use": ":original"}, "out": {"robot": "/s3/store", "use": ["thumb"]}}"#).isEmpty)
        #expect(try warnings(#"{"in": {"robot": "/upload/handle"}, "a": {"robot": "/image/resize", "use": {"steps": [{"name": "in"}]}}}"#).isEmpty)
    }

    @Test func anUnknownRobotUnusedUploadsAndNoResultAreEachNamed() throws {
        #expect(try warnings(#"{"thumb": {"robot": "/image/resise", "use": ":original"}}"#) == [
            "t.json: steps.thumb.robot: /image/resise is no Robot this client knows; the service decides (a typo fails every Assembly)",
        ])
        #expect(try warnings(#"{"get": {"robot": "/http/import", "url": "https://x"}, "a": {"robot": "/image/resize", "use": "get"}}"#).first?
            .hasPrefix("t.json: steps: no step uses the uploaded files") == true)
        let circular = try warnings(#"{"a": {"robot": "/image/resize", "use": [":original", "b"]}, "b": {"robot": "/image/resize", "use": "a"}}"#)
        #expect(circular == ["t.json: steps: no step has results (result: true, or used by no other step); a night would make nothing"])
    }
}
