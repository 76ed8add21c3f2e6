import AssemblyLine
import ConfigFormat
import Foundation
import HTTPMessages
@testable import LocalTransloadit
import TestSupport
import Testing

/// Assemblies that name a Template of the store: its content as it is now, its signature setting, the Templates held from the start.
@Suite(.timeLimit(.minutes(3))) struct TemplateUseTests {
    /// Creates an Assembly of `photo` naming `templateID` and waits for its end.
    static func run(_ harness: ServiceHarness, templateID: String, photo: String, signature: String? = nil) async throws -> Answer {
        let params = harness.params(["template_id": .string(templateID)])
        let created = try await harness.create(params: params, signature: signature, files: [("image", photo)])
        guard created.status == 200, let id = created["assembly_id"]?.stringValue else { return created }
        return try await harness.waitForEnd(id)
    }

    @Test func anEditIsSeenByTheNextAssembly() async throws {
        let harness = try ServiceHarness()
        let photo = try harness.image("p.jpg", width: 400, height: 300)
        let id = try await harness.createTemplate(name: "edited-template", content: TemplateAPITests.resize(width: 40))

        let before = try await Self.run(harness, templateID: id, photo: photo)
        #expect(before["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        #expect(before["template_id"]?.stringValue == id)
        #expect(before["results"]?["small"]?[0]?["meta"]?["width"]?.intValue == 40)
        let used = try await harness.signed(.get, "/templates/\(id)")
        #expect(used["last_used"]?.stringValue != nil, "an Assembly that names the Template sets last_used")

        let edited = try await harness.signed(.put, "/templates/\(id)", ["template": .object(TemplateAPITests.resize(width: 20))])
        #expect(edited["ok"]?.stringValue == "TEMPLATE_UPDATED")
        let after = try await Self.run(harness, templateID: id, photo: photo)
        #expect(after["results"]?["small"]?[0]?["meta"]?["width"]?.intValue == 20)

        _ = try await harness.signed(.delete, "/templates/\(id)")
        let gone = try await harness.create(params: harness.params(["template_id": .string(id)]))
        #expect(gone.status == 404 && gone["error"]?.stringValue == "TEMPLATE_NOT_FOUND")
    }

    @Test func aTemplateOfTheAPIDeniesStepsOverrideAsItsContentSays() async throws {
        let harness = try ServiceHarness()
        let content = TemplateAPITests.resize(width: 40).merging(["allow_steps_override": .bool(false)]) { $1 }
        let id = try await harness.createTemplate(name: "strict-template", content: content)
        let denied = try await harness.create(params: harness.params([
            "template_id": .string(id), "steps": .object(["small": .object(["width": .integer(5)])]),
        ]))
        #expect(denied.status == 400 && denied["error"]?.stringValue == "TEMPLATE_DENIES_STEPS_OVERRIDE")
    }

    /// On a service that requires no signatures, a Template with `require_signature_auth` still refuses an unsigned Assembly.
    @Test func requireSignatureAuthRefusesAnAssemblyWithoutAValidSignature() async throws {
        let harness = try ServiceHarness { $0.requireSignature = false }
        let photo = try harness.image("p.jpg", width: 40, height: 30)
        let strict = try await harness.createTemplate(name: "signed-only", content: TemplateAPITests.resize(width: 20), requireSignatureAuth: true)
        let open = try await harness.createTemplate(name: "open-to-all", content: TemplateAPITests.resize(width: 20))

        let unsigned = try await Self.run(harness, templateID: strict, photo: photo, signature: "")
        #expect(unsigned.status == 400 && unsigned["error"]?.stringValue == "NO_SIGNATURE_FIELD")
        let wrong = try await Self.run(harness, templateID: strict, photo: photo, signature: "sha384:" + String(repeating: "0", count: 96))
        #expect(wrong.status == 401 && wrong["error"]?.stringValue == "INVALID_SIGNATURE")
        let signed = try await Self.run(harness, templateID: strict, photo: photo)
        #expect(signed["ok"]?.stringValue == "ASSEMBLY_COMPLETED")
        let unsignedOpen = try await Self.run(harness, templateID: open, photo: photo, signature: "")
        #expect(unsignedOpen["ok"]?.stringValue == "ASSEMBLY_COMPLETED")

        let parent = try #require(signed["assembly_id"]?.stringValue)
        let unsignedReplay = try await harness.signed(.post, "/assemblies/\(parent)/replay", signature: "")
        #expect(unsignedReplay["error"]?.stringValue == "NO_SIGNATURE_FIELD", "a replay of its Assembly names it too")
        _ = try await harness.signed(.put, "/templates/\(strict)", ["require_signature_auth": .integer(0)], signature: "")
        let relaxed = try await Self.run(harness, templateID: strict, photo: photo, signature: "")
        #expect(relaxed["ok"]?.stringValue == "ASSEMBLY_COMPLETED", "the setting is read at each Assembly")
    }

    /// The package API the CLI gives the embedded service a manifest's Template with.
    @Test func aTemplateHeldFromTheStartRunsUnderItsIDAndShowsInTheAPI() async throws {
        let id = "5b2a3c4d5e6f40718293a4b5c6d7e8f9"
        var library = TemplateLibrary()
        library.hold(
            TemplateLibrary.Template(name: "manifest-recipe", content: TemplateAPITests.resize(width: 25), requireSignatureAuth: true),
            as: id)
        let harness = try ServiceHarness {
            $0.templates = library
            $0.requireSignature = false
        }
        let shown = try await harness.signed(.get, "/templates/\(id)")
        #expect(shown["name"]?.stringValue == "manifest-recipe")
        #expect(shown["content"] == .object(TemplateAPITests.resize(width: 25)))
        #expect(shown["require_signature_auth"] == .integer(1))
        let photo = try harness.image("p.jpg", width: 100, height: 50)
        let done = try await Self.run(harness, templateID: id, photo: photo)
        #expect(done["results"]?["small"]?[0]?["meta"]?["width"]?.intValue == 25)
        let unsigned = try await Self.run(harness, templateID: id, photo: photo, signature: "")
        #expect(unsigned["error"]?.stringValue == "NO_SIGNATURE_FIELD")
    }
}
