import AssemblyLine
import SignServer
import ConfigFormat
import Foundation
import Testing

/// The policy of the evaluation table, and params built around one valid request.
enum PolicyFixture {
    static let now = Date(timeIntervalSince1970: 1_779_285_787)
    static let resizeSteps = JSONValue.object([
        ":original": .object(["robot": .string("/upload/handle")]),
        "resize": .object(["robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(200), "result": .bool(true)]),
    ])

    static func policy() throws -> SigningPolicy {
        SigningPolicy(
            key: "key-1", secret: .environment("S"), tokenHashes: [String(repeating: "a", count: 64)],
            maxExpiresIn: .seconds(3600), clockSkew: .seconds(30), templates: ["tpl-ok"], steps: [resizeSteps],
            fields: ["album": try FieldPattern("[a-z0-9_-]{1,32}"), "count": try FieldPattern("[0-9]+")],
            notifyURLs: ["https://example.com/hook"], requestsPerMinute: 60)
    }

    /// A valid params object (a Template), changed by `edit`, serialized.
    static func params(expiresIn seconds: Double = 600, _ edit: (inout [String: JSONValue], inout [String: JSONValue]) -> Void = { _, _ in }) -> String {
        var auth: [String: JSONValue] = [
            "key": .string("key-1"),
            "expires": .string(UTCDateTime(now.addingTimeInterval(seconds)).authExpiresText),
            "nonce": .string("0123456789abcdef0123456789abcdef"),
        ]
        var members: [String: JSONValue] = ["template_id": .string("tpl-ok"), "fields": .object(["album": .string("summer")])]
        edit(&members, &auth)
        members["auth"] = .object(auth)
        return JSONValue.object(members).serialized
    }

    static func steps(_ edit: (inout [String: JSONValue]) -> Void) -> JSONValue {
        var resize = resizeSteps.objectValue!["resize"]!.objectValue!
        edit(&resize)
        return .object([":original": .object(["robot": .string("/upload/handle")]), "resize": .object(resize)])
    }
}

@Suite(.timeLimit(.minutes(3))) struct SigningPolicyEvaluationTests {
    @Test func allowsTheValidTemplateRequest() async throws {
        let decision = try PolicyFixture.policy().evaluate(PolicyFixture.params(), now: PolicyFixture.now)
        #expect(decision == .allow(nonce: "0123456789abcdef0123456789abcdef", expires: PolicyFixture.now.addingTimeInterval(600), kind: .assembly))
    }

    @Test func allowsAPartitionsTagsInTheirFormsAlone() async throws {
        let tagged = PolicyFixture.params { members, _ in
            members["fields"] = .object(["assemblyline_batch": .string("nightly-2026-12-03"), "assemblyline_partition": .string("2/4")])
        }
        guard case .allow = try PolicyFixture.policy().evaluate(tagged, now: PolicyFixture.now) else {
            Issue.record("expected a partition's tags to be allowed")
            return
        }
        for (name, value) in [("assemblyline_batch", "../etc"), ("assemblyline_partition", "4/4"), ("assemblyline_partition", "1/x")] {
            let params = PolicyFixture.params { members, _ in members["fields"] = .object([name: .string(value)]) }
            #expect(try PolicyFixture.policy().evaluate(params, now: PolicyFixture.now) == .refuse(.fieldValueNotAllowed(name)), "\(name): \(value)")
        }
    }

    @Test func allowsTheExactStepsAndTheMaximumExpiry() async throws {
        let params = PolicyFixture.params(expiresIn: 3600) { members, _ in
            members["template_id"] = nil
            members["steps"] = PolicyFixture.resizeSteps
            members["fields"] = .object(["album": .string("a"), "count": .integer(12)])
            members["notify_url"] = .string("https://example.com/hook")
        }
        guard case .allow = try PolicyFixture.policy().evaluate(params, now: PolicyFixture.now) else {
            Issue.record("expected the params to be allowed")
            return
        }
    }

    static let refusals: [(name: String, params: String, refusal: PolicyRefusal)] = {
        typealias F = PolicyFixture
        return [
            ("not JSON", "{auth:1}", .malformedParams("params are not strict JSON: JSON at byte 1: expected a string key")),
            ("not an object", "[1]", .malformedParams("expected params to be a JSON object")),
            ("unknown key", F.params { members, _ in members["quiet"] = .bool(true) }, .unknownKey("quiet", in: .params(.assembly))),
            ("unknown auth key", F.params { _, auth in auth["max_size"] = .integer(1) }, .unknownKey("max_size", in: .auth)),
            ("no auth", F.params().replacingOccurrences(of: #""auth""#, with: #""x""#), .unknownKey("x", in: .params(.assembly))),
            ("other auth key", F.params { _, auth in auth["key"] = .string("key-2") }, .wrongAuthKey("key-2")),
            ("no expiry", F.params { _, auth in auth["expires"] = nil }, .missingExpires),
            ("expiry in the past", F.params(expiresIn: -1), .expired(UTCDateTime(F.now.addingTimeInterval(-1)).authExpiresText)),
            ("expiry too long", F.params(expiresIn: 3631), .expiresTooLate(UTCDateTime(F.now.addingTimeInterval(3631)).authExpiresText, maximum: .seconds(3600))),
            ("expiry of another form", F.params { _, auth in auth["expires"] = .string("in an hour") },
             .malformedParams("expected auth.expires to be a string of the form YYYY/MM/DD HH:MM:SS+00:00 (or ISO 8601 in UTC)")),
            ("no nonce", F.params { _, auth in auth["nonce"] = nil }, .missingNonce),
            ("empty nonce", F.params { _, auth in auth["nonce"] = .string("") },
             .malformedParams("expected auth.nonce to be 1 to 128 printable ASCII characters")),
            ("no instructions", F.params { members, _ in members["template_id"] = nil }, .noInstructions),
            ("other Template", F.params { members, _ in members["template_id"] = .string("tpl-other") }, .templateNotAllowed("tpl-other")),
            ("Template with any steps", F.params { members, _ in members["steps"] = .object(["x": .object(["robot": .string("/a")])]) },
             .templateWithStepsNotAllowed("tpl-ok")),
            ("an allowed Template with allowed steps", F.params { members, _ in members["steps"] = F.resizeSteps },
             .templateWithStepsNotAllowed("tpl-ok")),
            ("extra step", F.params { members, _ in
                var steps = PolicyFixture.resizeSteps.objectValue!
                steps["export"] = .object(["robot": .string("/s3/store")])
                members["template_id"] = nil
                members["steps"] = .object(steps)
            }, .stepsNotAllowed(#"step "export" is not in the allowed set"#)),
            ("changed width", F.params { members, _ in
                members["template_id"] = nil
                members["steps"] = F.steps { $0["width"] = .integer(201) }
            }, .stepsNotAllowed("resize.width is 201, allowed 200")),
            ("width as a float", F.params { members, _ in
                members["template_id"] = nil
                members["steps"] = F.steps { $0["width"] = .number(200.5) }
            }, .stepsNotAllowed("resize.width is 200.5, allowed 200")),
            ("extra option", F.params { members, _ in
                members["template_id"] = nil
                members["steps"] = F.steps { $0["zoom"] = .bool(false) }
            }, .stepsNotAllowed(#"option "resize.zoom" is not in the allowed set"#)),
            ("missing option", F.params { members, _ in
                members["template_id"] = nil
                members["steps"] = F.steps { $0["result"] = nil }
            }, .stepsNotAllowed(#"option "resize.result" of the allowed set is missing"#)),
            ("unknown field", F.params { members, _ in members["fields"] = .object(["secret_path": .string("x")]) }, .fieldNotAllowed("secret_path")),
            ("field value off its pattern", F.params { members, _ in members["fields"] = .object(["album": .string("Summer 2026")]) },
             .fieldValueNotAllowed("album")),
            ("field value partly matching", F.params { members, _ in members["fields"] = .object(["count": .string("12a")]) },
             .fieldValueNotAllowed("count")),
            ("field value an object", F.params { members, _ in members["fields"] = .object(["album": .object([:])]) },
             .fieldValueNotAllowed("album")),
            ("other notify URL", F.params { members, _ in members["notify_url"] = .string("https://evil.example/") },
             .notifyURLNotAllowed("https://evil.example/")),
            duplicateKey,
        ]
    }()

    /// A second `template_id` after the allowed one, as a parser that keeps the last value would read it.
    static var duplicateKey: (String, String, PolicyRefusal) {
        let params = PolicyFixture.params().replacingOccurrences(
            of: #""template_id":"tpl-ok""#, with: #""template_id":"tpl-ok","template_id":"tpl-other""#)
        let offset = params.utf8.count - #""template_id":"tpl-other"}"#.utf8.count
        return ("duplicate key", params, .malformedParams("params are not strict JSON: JSON at byte \(offset): a key appears twice in one object"))
    }

    @Test(arguments: refusals)
    func refuses(name: String, params: String, refusal: PolicyRefusal) async throws {
        #expect(try PolicyFixture.policy().evaluate(params, now: PolicyFixture.now) == .refuse(refusal), "\(name)")
    }

    @Test func aPairTheTemplateStepsNameIsSigned() async throws {
        var policy = try PolicyFixture.policy()
        policy.templateSteps = [SigningPolicy.TemplateSteps(template: "tpl-ok", steps: PolicyFixture.resizeSteps)]
        let pair = PolicyFixture.params { members, _ in members["steps"] = PolicyFixture.resizeSteps }
        guard case .allow = policy.evaluate(pair, now: PolicyFixture.now) else {
            Issue.record("expected the named pair to be allowed")
            return
        }
        let otherWidth = PolicyFixture.params { members, _ in members["steps"] = PolicyFixture.steps { $0["width"] = .integer(201) } }
        #expect(policy.evaluate(otherWidth, now: PolicyFixture.now) == .refuse(.templateWithStepsNotAllowed("tpl-ok")))
    }

    @Test func acceptsAnExpiryWithinTheClockSkew() async throws {
        guard case .allow = try PolicyFixture.policy().evaluate(PolicyFixture.params(expiresIn: 3629), now: PolicyFixture.now) else {
            Issue.record("expected an expiry within the clock skew to be allowed")
            return
        }
    }

    @Test func reasonsStayOnOneLine() async {
        let refusal = PolicyRefusal.templateNotAllowed("a\nb" + String(repeating: "x", count: 200))
        #expect(!refusal.reason.contains("\n"))
        #expect(refusal.reason.count < 150)
        #expect(refusal.code == "TEMPLATE_NOT_ALLOWED")
        #expect(PolicyRefusal.malformedParams("x").isMalformed && !refusal.isMalformed)
    }
}
