import AssemblyLine
import ConfigFormat
import Foundation
import SignServer
import Testing

/// Params of Template requests and replays (issue 34), judged by the evaluation table's policy with each setting.
@Suite(.timeLimit(.minutes(3))) struct RequestKindPolicyTests {
    typealias F = PolicyFixture

    /// Params of the fixture's `auth` and `members` alone.
    static func params(_ members: [String: JSONValue], expiresIn seconds: Double = 600) -> String {
        F.params(expiresIn: seconds) { all, _ in all = members }
    }

    static func policy(_ access: SigningPolicy.TemplateAccess) throws -> SigningPolicy {
        var policy = try F.policy()
        policy.templateAccess = access
        return policy
    }

    static func evaluate(_ params: String, _ access: SigningPolicy.TemplateAccess = .write) throws -> PolicyDecision {
        try policy(access).evaluate(params, now: F.now)
    }

    static func allowed(_ kind: ParamsKind, expiresIn seconds: Double = 600) -> PolicyDecision {
        .allow(nonce: "0123456789abcdef0123456789abcdef", expires: F.now.addingTimeInterval(seconds), kind: kind)
    }

    static let list: [String: JSONValue] = [
        "page": .integer(2), "pagesize": .integer(5000), "sort": .string("modified"), "order": .string("desc"),
        "keywords": .array([.string("resize")]), "fromdate": .string("2026-05-01 00:00:00"), "todate": .string("2026-05-20 00:00:00"),
    ]

    static func write(_ content: JSONValue = .object(["steps": F.resizeSteps]), signatureAuth: JSONValue? = .integer(1)) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["name": .string("nightly-resize"), "template": content]
        members["require_signature_auth"] = signatureAuth
        return members
    }

    // MARK: - The default policy

    @Test func theDefaultPolicySignsReadsAndReplaysAndRefusesWrites() throws {
        let policy = try F.policy()
        #expect(policy.templateAccess == .read)
        #expect(policy.evaluate(Self.params([:]), now: F.now) == Self.allowed(.templateRead), "one Template")
        #expect(policy.evaluate(Self.params(Self.list), now: F.now) == Self.allowed(.templateRead), "a list")
        #expect(policy.evaluate(Self.params(["reparse_template": .integer(1)]), now: F.now) == Self.allowed(.replay))
        #expect(policy.evaluate(Self.params(Self.write()), now: F.now) == .refuse(.templateWriteNotAllowed(.read)))
    }

    // MARK: - Template reads

    @Test(arguments: [SigningPolicy.TemplateAccess.denied, .read, .write])
    func aReadOfAuthAloneOrAListIsSignedUnlessTemplateAPIIsNone(access: SigningPolicy.TemplateAccess) throws {
        let expected = access == .denied ? .refuse(.templateReadNotAllowed) : Self.allowed(.templateRead)
        #expect(try Self.evaluate(Self.params([:]), access) == expected, "auth alone")
        #expect(try Self.evaluate(Self.params(Self.list), access) == expected, "a list with every key")
        #expect(try Self.evaluate(Self.params(["page": .integer(1)]), access) == expected, "a list's first page")
    }

    static let readRefusals: [(String, [String: JSONValue], PolicyRefusal)] = [
        ("page 0", ["page": .integer(0)], .malformedParams("expected page to be a whole number from 1")),
        ("pagesize over 5000", ["pagesize": .integer(5001)], .malformedParams("expected pagesize to be a whole number from 1 to 5000")),
        ("pagesize as text", ["pagesize": .string("50")], .malformedParams("expected pagesize to be a whole number from 1 to 5000")),
        ("order sideways", ["order": .string("up")], .malformedParams("expected order to be asc or desc")),
        ("keywords as text", ["keywords": .string("a")], .malformedParams("expected keywords to be a list of strings")),
        ("sort as a number", ["sort": .integer(1)], .malformedParams("expected sort to be a string")),
        ("a list with a Template", ["page": .integer(1), "template_id": .string("tpl-ok")], .mixedKinds("template_id", with: "page", kind: .templateRead)),
        ("a list with fields", ["sort": .string("id"), "fields": .object(["album": .string("a")])], .mixedKinds("fields", with: "sort", kind: .templateRead)),
        ("a list with an unknown key", ["page": .integer(1), "zone": .string("x")], .unknownKey("zone", in: .params(.templateRead))),
    ]

    @Test(arguments: readRefusals)
    func aReadIsRefused(name: String, members: [String: JSONValue], refusal: PolicyRefusal) throws {
        #expect(try Self.evaluate(Self.params(members)) == .refuse(refusal), "\(name)")
    }

    @Test func aReadKeepsTheAuthRules() throws {
        #expect(try Self.evaluate(Self.params([:], expiresIn: 3631)) == .refuse(.expiresTooLate(
            UTCDateTime(F.now.addingTimeInterval(3631)).authExpiresText, maximum: .seconds(3600))))
        #expect(try Self.evaluate(F.params { all, auth in all = [:]; auth["max_size"] = .integer(1) }) == .refuse(.unknownKey("max_size", in: .auth)))
        #expect(try Self.evaluate(F.params { all, auth in all = [:]; auth["nonce"] = nil }) == .refuse(.missingNonce))
    }

    // MARK: - Template writes

    @Test(arguments: [SigningPolicy.TemplateAccess.denied, .read, .write])
    func aWriteIsSignedOnlyWithTemplateAPIWrite(access: SigningPolicy.TemplateAccess) throws {
        let expected = access == .write ? Self.allowed(.templateWrite) : .refuse(.templateWriteNotAllowed(access))
        let asText = JSONValue.string(JSONValue.object(["steps": F.resizeSteps]).serialized)
        #expect(try Self.evaluate(Self.params(Self.write()), access) == expected, "the content as an object")
        #expect(try Self.evaluate(Self.params(Self.write(asText)), access) == expected, "the content as JSON text")
        let noOverride = JSONValue.object(["steps": F.resizeSteps, "allow_steps_override": .bool(false)])
        #expect(try Self.evaluate(Self.params(Self.write(noOverride)), access) == expected, "allow_steps_override")
        var contentAlone = Self.write()
        contentAlone["name"] = nil
        #expect(try Self.evaluate(Self.params(contentAlone), access) == expected, "an update of the content alone")
        var nameAlone = Self.write()
        nameAlone["template"] = nil
        #expect(try Self.evaluate(Self.params(nameAlone), access) == expected, "a rename")
    }

    static let writeRefusals: [(String, [String: JSONValue], PolicyRefusal)] = [
        ("other Steps", write(.object(["steps": F.steps { $0["width"] = .integer(201) }])),
         .templateContentNotAllowed("resize.width is 201, allowed 200")),
        ("an extra Step", write(.object(["steps": .object(F.resizeSteps.objectValue!.merging(["export": .object(["robot": .string("/s3/store")])]) { $1 })])),
         .templateContentNotAllowed(#"step "export" is not in the allowed set"#)),
        ("other Steps as text", write(.string(#"{"steps":{"export":{"robot":"/s3/store"}}}"#)),
         .templateContentNotAllowed(#"step "export" is not in the allowed set"#)),
        ("no signature auth", write(signatureAuth: .integer(0)), .signatureAuthRequired),
        ("signature auth left out", write(signatureAuth: nil), .signatureAuthRequired),
        ("signature auth as text", write(signatureAuth: .string("1")), .malformedParams("expected require_signature_auth to be 0 or 1")),
        ("an unknown content key", write(.object(["steps": F.resizeSteps, "notify_url": .string("https://evil.example/")])),
         .unknownKey("notify_url", in: .templateContent)),
        ("content without steps", write(.object(["allow_steps_override": .bool(false)])), .malformedParams("expected template.steps to be an object of Steps")),
        ("content as a list", write(.array([])), .malformedParams("expected template to be an object with steps, or its JSON text")),
        ("content text with a key twice", write(.string(#"{"steps":{},"steps":{}}"#)),
         .malformedParams("template is not strict JSON: JSON at byte 12: a key appears twice in one object")),
        ("override as text", write(.object(["steps": F.resizeSteps, "allow_steps_override": .string("no")])),
         .malformedParams("expected template.allow_steps_override to be true or false")),
        ("an empty name", write().merging(["name": .string("")]) { $1 }, .malformedParams("expected name to be a non-empty string")),
        ("Steps beside the content", write().merging(["steps": F.resizeSteps]) { $1 }, .mixedKinds("steps", with: "name", kind: .templateWrite)),
        ("a write with reparse_template", write().merging(["reparse_template": .integer(1)]) { $1 },
         .mixedKinds("reparse_template", with: "name", kind: .templateWrite)),
        ("a write with an unknown key", write().merging(["x_quiet": .bool(true)]) { $1 }, .unknownKey("x_quiet", in: .params(.templateWrite))),
    ]

    @Test(arguments: writeRefusals)
    func aWriteIsRefused(name: String, members: [String: JSONValue], refusal: PolicyRefusal) throws {
        #expect(try Self.evaluate(Self.params(members)) == .refuse(refusal), "\(name)")
    }

    @Test func aWriteNeedsStepsThePolicyAllows() throws {
        var policy = try Self.policy(.write)
        policy.steps = []
        #expect(policy.evaluate(Self.params(Self.write()), now: F.now) == .refuse(.templateContentNotAllowed("this policy allows no steps")))
    }

    // MARK: - Replays

    @Test(arguments: [JSONValue.integer(0), .integer(1)])
    func aReplayIsTheParamsWithReparseTemplate(reparse: JSONValue) throws {
        let bare = Self.params(["reparse_template": reparse])
        let full = Self.params([
            "reparse_template": reparse, "fields": .object(["album": .string("summer")]), "notify_url": .string("https://example.com/hook"),
        ])
        for access in SigningPolicy.TemplateAccess.allCases {
            #expect(try Self.evaluate(bare, access) == Self.allowed(.replay), "\(access)")
            #expect(try Self.evaluate(full, access) == Self.allowed(.replay), "\(access)")
        }
        // Without reparse_template, its fields and notify URL are an Assembly without instructions
        let withoutReparse = Self.params(["fields": .object(["album": .string("summer")]), "notify_url": .string("https://example.com/hook")])
        #expect(try Self.evaluate(withoutReparse) == .refuse(.noInstructions))
    }

    static let replayCases: [(String, [String: JSONValue], PolicyDecision)] = [
        ("allowed Steps", ["reparse_template": .integer(0), "steps": F.resizeSteps], allowed(.replay)),
        ("an allowed Template", ["reparse_template": .integer(1), "template_id": .string("tpl-ok")], allowed(.replay)),
        ("other Steps", ["reparse_template": .integer(0), "steps": F.steps { $0["width"] = .integer(201) }],
         .refuse(.stepsNotAllowed("resize.width is 201, allowed 200"))),
        ("other Template", ["reparse_template": .integer(1), "template_id": .string("tpl-other")], .refuse(.templateNotAllowed("tpl-other"))),
        ("a Template with Steps", ["reparse_template": .integer(1), "template_id": .string("tpl-ok"), "steps": F.resizeSteps],
         .refuse(.templateWithStepsNotAllowed("tpl-ok"))),
        ("unknown field", ["reparse_template": .integer(0), "fields": .object(["path": .string("x")])], .refuse(.fieldNotAllowed("path"))),
        ("field off its pattern", ["reparse_template": .integer(0), "fields": .object(["album": .string("A B")])], .refuse(.fieldValueNotAllowed("album"))),
        ("other notify URL", ["reparse_template": .integer(0), "notify_url": .string("https://evil.example/")],
         .refuse(.notifyURLNotAllowed("https://evil.example/"))),
        ("reparse_template 2", ["reparse_template": .integer(2)], .refuse(.malformedParams("expected reparse_template to be 0 or 1"))),
        ("reparse_template true", ["reparse_template": .bool(true)], .refuse(.malformedParams("expected reparse_template to be 0 or 1"))),
        ("a replay with a list key", ["reparse_template": .integer(0), "page": .integer(1)], .refuse(.mixedKinds("page", with: "reparse_template", kind: .replay))),
        ("a replay with an unknown key", ["reparse_template": .integer(0), "x_quiet": .bool(true)], .refuse(.unknownKey("x_quiet", in: .params(.replay)))),
    ]

    @Test(arguments: replayCases)
    func aReplaySendsItsInstructionsFieldsAndNotifyURLThroughTheRules(name: String, members: [String: JSONValue], decision: PolicyDecision) throws {
        #expect(try Self.evaluate(Self.params(members)) == decision, "\(name)")
    }

    @Test func reasonsNameTheSettingAndTheKind() {
        #expect(PolicyRefusal.unknownKey("zone", in: .params(.templateRead)).reason
            == #"unknown key "zone" in the params of a Template read; expected only auth, fromdate, keywords, order, page, pagesize, sort and todate"#)
        #expect(PolicyRefusal.unknownKey("max_size", in: .auth).reason == #"unknown key "auth.max_size" in auth; expected only expires, key and nonce"#)
        #expect(PolicyRefusal.unknownKey("notify_url", in: .templateContent).reason
            == #"unknown key "template.notify_url" in a written Template; expected only allow_steps_override and steps"#)
        #expect(PolicyRefusal.templateWriteNotAllowed(.read).reason.hasSuffix("signed only with template_api: write; this policy has read"))
        #expect(PolicyRefusal.templateReadNotAllowed.reason.contains("(template_api: none)"))
        #expect(PolicyRefusal.mixedKinds("steps", with: "name", kind: .templateWrite).reason
            == #"key "steps" cannot go with "name", which makes these the params of a Template write: params are for one kind of request"#)
        let codes = [PolicyRefusal.mixedKinds("a", with: "b", kind: .replay), .templateReadNotAllowed, .templateWriteNotAllowed(.denied),
                     .templateContentNotAllowed("x"), .signatureAuthRequired].map(\.code)
        #expect(codes == ["MIXED_REQUEST_KINDS", "TEMPLATE_READ_NOT_ALLOWED", "TEMPLATE_WRITE_NOT_ALLOWED",
                          "TEMPLATE_CONTENT_NOT_ALLOWED", "SIGNATURE_AUTH_REQUIRED"])
    }
}
