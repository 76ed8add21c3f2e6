import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// The Template API as production has it: create, retrieve, edit, delete and list, each signed, kept across restarts.
@Suite(.timeLimit(.minutes(3))) struct TemplateAPITests {
    static func resize(width: Int) -> [String: JSONValue] {
        ["steps": .object(["small": .object([
            "robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(Int64(width)),
        ])])]
    }

    /// A service on a manual clock, so that a Template's times are known to the second.
    static func harness(_ clock: ManualClock, directory: TemporaryDirectory? = nil,
                        configure: (inout LocalServiceConfiguration) -> Void = { _ in }) throws -> ServiceHarness {
        try ServiceHarness(directory: directory) {
            $0.clock = clock
            $0.credentials = ServiceCredentials(key: "template-key", secret: "template-secret")
            configure(&$0)
        }
    }

    @Test func aTemplateIsCreatedRetrievedEditedAndDeleted() async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        let content = Self.resize(width: 40).merging(["allow_steps_override": .bool(false)]) { $1 }
        let created = try await harness.signed(.post, "/templates", [
            "name": .string("thumbs-40"), "template": .object(content), "require_signature_auth": .integer(1),
        ])
        #expect(created.status == 200)
        #expect(created["ok"]?.stringValue == "TEMPLATE_CREATED")
        let id = try #require(created["id"]?.stringValue)
        #expect(id.count == 32 && id.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(created["name"]?.stringValue == "thumbs-40")
        #expect(created["content"] == .object(content))
        #expect(created["require_signature_auth"] == .integer(1))
        #expect(created["created"]?.stringValue == "2027-01-15T08:00:00.000Z")
        #expect(created["modified"]?.stringValue == "2027-01-15T08:00:00.000Z")
        #expect(created["last_used"] == .null)

        let fetched = try await harness.signed(.get, "/templates/\(id)")
        #expect(fetched.status == 200)
        #expect(fetched["ok"]?.stringValue == "TEMPLATE_FOUND")
        for key in ["id", "name", "content", "require_signature_auth", "created", "modified", "last_used"] {
            #expect(fetched[key] == created[key], "\(key)")
        }

        try await clock.sleep(for: .seconds(60))
        let renamed = try await harness.signed(.put, "/templates/\(id)", ["name": .string("thumbs-renamed")])
        #expect(renamed.status == 200)
        #expect(renamed["ok"]?.stringValue == "TEMPLATE_UPDATED")
        #expect(renamed["id"]?.stringValue == id)
        #expect(renamed["name"]?.stringValue == "thumbs-renamed")
        #expect(renamed["content"] == .object(content), "an edit without template keeps the content")
        #expect(renamed["require_signature_auth"] == .integer(1))
        #expect(renamed["created"] == created["created"])
        #expect(renamed["modified"]?.stringValue == "2027-01-15T08:01:00.000Z")

        let replaced = try await harness.signed(
            .put, "/templates/\(id)", ["template": .object(Self.resize(width: 20)), "require_signature_auth": .bool(false)])
        #expect(replaced["content"] == .object(Self.resize(width: 20)), "a new template replaces the content whole")
        #expect(replaced["require_signature_auth"] == .integer(0))

        let deleted = try await harness.signed(.delete, "/templates/\(id)")
        #expect(deleted.status == 200)
        #expect(deleted["ok"]?.stringValue == "TEMPLATE_DELETED")
        for method in [HTTPMethod.get, .put, .delete] {
            let gone = try await harness.signed(method, "/templates/\(id)", ["name": .string("thumbs-again")])
            #expect(gone.status == 404, "\(method.rawValue)")
            #expect(gone["error"]?.stringValue == "TEMPLATE_NOT_FOUND", "\(method.rawValue)")
        }
    }

    @Test(arguments: [ServiceHarness.Carrier.urlencoded, .multipart], [false, true])
    func theTemplateArrivesAsAnObjectOrAJSONStringInEitherBody(carrier: ServiceHarness.Carrier, asText: Bool) async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        let content = Self.resize(width: 40)
        let template: JSONValue = asText ? .string(JSONValue.object(content).serialized) : .object(content)
        let created = try await harness.signed(
            .post, "/templates", ["name": .string("either-way"), "template": template], carrier: carrier)
        #expect(created["ok"]?.stringValue == "TEMPLATE_CREATED")
        #expect(created["content"] == .object(content))
        let id = try #require(created["id"]?.stringValue)
        let edited = try await harness.signed(
            .put, "/templates/\(id)", ["template": template, "require_signature_auth": .string("1")], carrier: carrier)
        #expect(edited["ok"]?.stringValue == "TEMPLATE_UPDATED")
        #expect(edited["require_signature_auth"] == .integer(1))
        let deleted = try await harness.signed(.delete, "/templates/\(id)", carrier: carrier)
        #expect(deleted["ok"]?.stringValue == "TEMPLATE_DELETED")
    }

    /// One request of each endpoint, on a Template that exists.
    static let endpoints: [(HTTPMethod, String)] = [(.post, "/templates"), (.get, "/templates"), (.get, "/templates/ID"),
                                                    (.put, "/templates/ID"), (.delete, "/templates/ID")]

    @Test(arguments: 0..<5)
    func everyEndpointRefusesAMissingWrongOrExpiredSignature(endpoint: Int) async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        let id = try await harness.createTemplate(name: "kept-template", content: Self.resize(width: 40))
        let (method, pattern) = Self.endpoints[endpoint]
        let path = pattern.replacingOccurrences(of: "ID", with: id)
        let members: [String: JSONValue] = ["name": .string("other-template"), "template": .object(Self.resize(width: 10))]
        let unsigned = try await harness.signed(method, path, members, signature: "")
        #expect(unsigned.status == 400 && unsigned["error"]?.stringValue == "NO_SIGNATURE_FIELD")
        let wrong = try await harness.signed(method, path, members, signature: "sha384:" + String(repeating: "0", count: 96))
        #expect(wrong.status == 401 && wrong["error"]?.stringValue == "INVALID_SIGNATURE")
        let expired = try await harness.signed(method, path, members, now: clock.now.addingTimeInterval(-600))
        #expect(expired.status == 401 && expired["error"]?.stringValue == "AUTH_EXPIRED")
        let noParams = try await harness.send(HTTPRequestSpec(method: method, url: harness.base + path))
        #expect(noParams.status == 400 && noParams["error"]?.stringValue == "NO_PARAMS_FIELD")
        let kept = try await harness.signed(.get, "/templates/\(id)")
        #expect(kept["name"]?.stringValue == "kept-template" && kept["content"] == .object(Self.resize(width: 40)))
        let listed = try await harness.signed(.get, "/templates")
        #expect(listed["count"]?.intValue == 1, "no refused request created a Template")
    }

    @Test(arguments: [
        (#"{"name": "bad-template", "template": "{\"steps\": "}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template", "template": [1, 2]}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template", "template": "[1, 2]"}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template", "template": {"steps": [1]}}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template", "template": {"steps": {}, "allow_steps_override": "no"}}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template"}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"name": "bad-template", "steps": {"a": {"robot": "/upload/handle"}}}"#, "INVALID_TEMPLATE_FIELD"),
        (#"{"template": {"steps": {}}}"#, "INVALID_PARAMS_FIELD"),
        (#"{"name": "Bad_Name", "template": {"steps": {}}}"#, "INVALID_PARAMS_FIELD"),
        (#"{"name": "abcd", "template": {"steps": {}}}"#, "INVALID_PARAMS_FIELD"),
        (#"{"name": "bad-template", "template": {"steps": {}}, "require_signature_auth": 2}"#, "INVALID_PARAMS_FIELD"),
    ])
    func aMalformedCreationIsRefused(members: String, code: String) async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        let answer = try await harness.signed(.post, "/templates", try #require(JSONValue(parsing: members).objectValue))
        #expect(answer.status == 400)
        #expect(answer["error"]?.stringValue == code)
        #expect(answer["message"]?.stringValue?.isEmpty == false)
        #expect(try await harness.signed(.get, "/templates")["count"]?.intValue == 0)
    }

    @Test func aMalformedEditChangesNothing() async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        let id = try await harness.createTemplate(name: "steady-template", content: Self.resize(width: 40))
        let answer = try await harness.signed(.put, "/templates/\(id)", [
            "name": .string("changed-name"), "template": .string("{not json"),
        ])
        #expect(answer.status == 400 && answer["error"]?.stringValue == "INVALID_TEMPLATE_FIELD")
        let kept = try await harness.signed(.get, "/templates/\(id)")
        #expect(kept["name"]?.stringValue == "steady-template")
    }

    @Test func theListPagesAndSorts() async throws {
        let clock = ManualClock()
        let harness = try Self.harness(clock)
        var ids: [String] = []
        for name in ["delta-one", "alpha-two", "echo-three", "bravo-four", "charlie-five"] {
            ids.append(try await harness.createTemplate(name: name, content: Self.resize(width: 40)))
            try await clock.sleep(for: .seconds(1))
        }
        try await clock.sleep(for: .seconds(10))
        _ = try await harness.signed(.put, "/templates/\(ids[2])", ["name": .string("echo-edited")])

        func names(_ members: [String: JSONValue]) async throws -> [String] {
            let answer = try await harness.signed(.get, "/templates", members)
            #expect(answer.status == 200)
            #expect(answer["count"]?.intValue == 5)
            return try #require(answer["items"]?.arrayValue).compactMap { $0["name"]?.stringValue }
        }
        #expect(try await names([:]) == ["charlie-five", "bravo-four", "echo-edited", "alpha-two", "delta-one"])
        #expect(try await names(["sort": .string("created"), "order": .string("asc")])
            == ["delta-one", "alpha-two", "echo-edited", "bravo-four", "charlie-five"])
        #expect(try await names(["sort": .string("name"), "order": .string("asc")])
            == ["alpha-two", "bravo-four", "charlie-five", "delta-one", "echo-edited"])
        #expect(try await names(["sort": .string("modified"), "order": .string("desc")]).first == "echo-edited")
        let byID = try await harness.signed(.get, "/templates", ["sort": .string("id"), "order": .string("asc")])
        #expect(byID["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ids.sorted())

        var paged: [String] = []
        for page in 1...3 {
            paged += try await names(["sort": .string("name"), "order": .string("asc"), "page": .integer(Int64(page)), "pagesize": .integer(2)])
        }
        #expect(paged == ["alpha-two", "bravo-four", "charlie-five", "delta-one", "echo-edited"])
        let item = try #require(try await harness.signed(.get, "/templates")["items"]?[0])
        let keys = Set(item.objectValue.map { Array($0.keys) } ?? [])
        #expect(keys.isSuperset(of: [
            "id", "name", "content", "require_signature_auth", "created", "modified", "last_used",
        ]))
        for bad: [String: JSONValue] in [["sort": .string("size")], ["order": .string("up")], ["pagesize": .integer(0)]] {
            let refused = try await harness.signed(.get, "/templates", bad)
            #expect(refused.status == 400 && refused["error"]?.stringValue == "INVALID_PARAMS_FIELD")
        }
    }

    @Test func templatesSurviveARestartAndTheConfiguredOnesComeBackAsConfigured() async throws {
        let clock = ManualClock()
        let directory = try TemporaryDirectory()
        var library = TemplateLibrary()
        library.hold(TemplateLibrary.Template(name: "configured", content: Self.resize(width: 30)), as: "configured-id")
        var first: ServiceHarness? = try Self.harness(clock, directory: directory) { $0.templates = library }
        let id = try await first!.createTemplate(name: "made-by-api", content: Self.resize(width: 40))
        _ = try await first!.signed(.put, "/templates/\(id)", ["require_signature_auth": .integer(1)])
        _ = try await first!.signed(.put, "/templates/configured-id", ["name": .string("renamed-by-api")])
        first = nil

        try await clock.sleep(for: .seconds(60))
        let second = try Self.harness(clock, directory: directory) { $0.templates = library }
        let kept = try await second.signed(.get, "/templates/\(id)")
        #expect(kept["name"]?.stringValue == "made-by-api")
        #expect(kept["require_signature_auth"] == .integer(1))
        #expect(kept["content"] == .object(Self.resize(width: 40)))
        let configured = try await second.signed(.get, "/templates/configured-id")
        #expect(configured["name"]?.stringValue == "configured", "the configuration wins at a start")
        #expect(configured["modified"]?.stringValue == "2027-01-15T08:01:00.000Z")
        #expect(try await second.signed(.get, "/templates")["count"]?.intValue == 2)
    }
}
