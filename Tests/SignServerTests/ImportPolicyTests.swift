import AssemblyLine
import ConfigFormat
import SignServer
import Testing

/// Import steps beside an allowed set, or as a Template's override: each checked against the policy's `imports`.
@Suite(.timeLimit(.minutes(3))) struct ImportPolicyTests {
    /// An allowed set whose resize uses `imported`, which the set itself does not define.
    static let resize = JSONValue.object(["robot": .string("/image/resize"), "use": .string("imported"), "width": .integer(200)])

    static func policy() throws -> SigningPolicy {
        var policy = try PolicyFixture.policy()
        policy.steps = [.object(["resize": resize])]
        policy.imports = [
            ImportRule(robot: .s3, credentials: ["night_bucket"], prefixes: ["photos/2026/"]),
            ImportRule(robot: .minio, credentials: ["lab"], prefixes: ["in/"], hosts: ["minio.internal:9000"]),
            ImportRule(robot: .http, urlPrefixes: ["https://cdn.example.com/media/", "https://img.example.com/media"]),
        ]
        return policy
    }

    /// Params of the allowed set plus `step` named `name`.
    static func steps(_ step: [String: JSONValue], named name: String = "imported") -> String {
        PolicyFixture.params { members, _ in
            members["template_id"] = nil
            members["steps"] = .object(["resize": resize, name: .object(step)])
        }
    }

    static func evaluate(_ params: String) throws -> PolicyDecision {
        try policy().evaluate(params, now: PolicyFixture.now)
    }

    static func s3(_ path: JSONValue, _ edit: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var step: [String: JSONValue] = ["robot": .string("/s3/import"), "credentials": .string("night_bucket"), "path": path]
        edit(&step)
        return step
    }

    static func http(_ url: JSONValue, _ edit: (inout [String: JSONValue]) -> Void = { _ in }) -> [String: JSONValue] {
        var step: [String: JSONValue] = ["robot": .string("/http/import"), "url": url]
        edit(&step)
        return step
    }

    @Test func anAllowedSetPlusAnAllowedImportStepIsSigned() throws {
        let allowed = [
            Self.s3(.array([.string("photos/2026/a.jpg"), .string("photos/2026/b/")]), { $0["recursive"] = .bool(true) }),
            Self.s3(.string("photos/2026/c.jpg")),
            ["robot": .string("/minio/import"), "credentials": .string("lab"), "path": .string("in/x.png"), "host": .string("minio.internal:9000")],
            Self.http(.array([.string("https://cdn.example.com/media/a.jpg?sig=1"), .string("https://CDN.example.com:443/media/b%20c.jpg")])),
            Self.http(.string("https://cdn.example.com/media/a.jpg|https://img.example.com/media/x.jpg")),
            Self.http(.string("https://img.example.com/media")),
        ]
        for step in allowed {
            guard case .allow = try Self.evaluate(Self.steps(step)) else {
                Issue.record("expected \(JSONValue.object(step).serialized) to be signed")
                continue
            }
        }
    }

    @Test(arguments: [
        (s3(.string("photos/2025/a.jpg")), ImportRefusal.outsidePrefixes(element: "path[0]")),
        (s3(.array([.string("photos/2026/a.jpg"), .string("photos/2026/../secret")])), .unsafe(element: "path[1]", .dotSegment)),
        (s3(.string("photos/2026/./a.jpg")), .unsafe(element: "path[0]", .dotSegment)),
        (s3(.string("photos/2026//a.jpg")), .unsafe(element: "path[0]", .dotSegment)),
        (s3(.string("/photos/2026/a.jpg")), .unsafe(element: "path[0]", .absolute)),
        (s3(.string("photos/2026/a\\..\\..\\x")), .unsafe(element: "path[0]", .ambiguous)),
        (s3(.string("photos/2026-private/a.jpg")), .outsidePrefixes(element: "path[0]")),
        (s3(.array([])), .wrongType("path", expected: "a string or a list of strings")),
        (s3(.string("photos/2026/a.jpg")) { $0["credentials"] = .string("other") }, .credentialsNotAllowed("other")),
        (s3(.string("photos/2026/a.jpg")) { $0["credentials"] = nil }, .credentialsNotAllowed(nil)),
        (s3(.string("photos/2026/a.jpg")) { $0["key"] = .string("AKIA-SECRET"); $0["secret"] = .string("s3cr3t") }, .inlineCredentials("key")),
        (s3(.string("photos/2026/a.jpg")) { $0["bucket"] = .string("other-bucket") }, .inlineCredentials("bucket")),
        (s3(.string("photos/2026/a.jpg")) { $0["host"] = .string("evil:9000") }, .unknownKey("host")),
        (s3(.string("photos/2026/a.jpg")) { $0["recursive"] = .string("yes") }, .wrongType("recursive", expected: "true or false")),
        (["robot": .string("/minio/import"), "credentials": .string("lab"), "path": .string("in/x"), "host": .string("evil:9000")],
         .hostNotAllowed("evil:9000")),
        (http(.string("https://cdn.example.com/media/@evil.com")), .unsafe(element: "url[0]", .ambiguous)),
        (http(.string("https://cdn.example.com\\@evil.com/media/x")), .unsafe(element: "url[0]", .ambiguous)),
        (http(.string("https://u:p@cdn.example.com/media/x")), .unsafe(element: "url[0]", .credentials)),
        (http(.string("https://img.example.com/media.evil.com/x")), .outsidePrefixes(element: "url[0]")),
        (http(.string("https://cdn.example.com.evil.com/media/x")), .outsidePrefixes(element: "url[0]")),
        (http(.string("http://cdn.example.com/media/x")), .outsidePrefixes(element: "url[0]")),
        (http(.string("https://cdn.example.com/media/%2e%2E/admin")), .unsafe(element: "url[0]", .dotSegment)),
        (http(.string("https://cdn.example.com/media/..%2fadmin")), .unsafe(element: "url[0]", .ambiguous)),
        (http(.string("https://cdn.example.com/media/a.jpg|https://evil.com/x")), .outsidePrefixes(element: "url[1]")),
        (http(.array([.string("https://cdn.example.com/media/a.jpg|https://evil.com/x")])), .outsidePrefixes(element: "url[1]")),
        (http(.string("https://cdn.example.com/media/a.jpg,https://evil.com/x")) { $0["url_delimiter"] = .string(",") },
         .outsidePrefixes(element: "url[1]")),
        (http(.string("https://cdn.example.com/media/a.jpg")) { $0["headers"] = .object(["Authorization": .string("Bearer x")]) }, .headersNotAllowed),
        (http(.string("https://cdn.example.com/media/a.jpg")) { $0["url_delimiter"] = .string("") },
         .wrongType("url_delimiter", expected: "a non-empty string")),
        (["robot": .string("/http/import")], .missing("url")),
    ] as [([String: JSONValue], ImportRefusal)])
    func anImportStepOutsideItsRuleIsRefusedNamingTheStepAndTheElement(step: [String: JSONValue], refusal: ImportRefusal) throws {
        let decision = try Self.evaluate(Self.steps(step))
        #expect(decision == .refuse(.importNotAllowed(step: "imported", refusal)))
        if case let .refuse(reason) = decision {
            #expect(reason.code == "IMPORT_NOT_ALLOWED")
            #expect(!reason.reason.contains("s3cr3t") && !reason.reason.contains("AKIA") && !reason.reason.contains("p@"), "no secret is echoed")
        }
    }

    @Test func onlyOneImportStepThatTheSetUsesMakesAnAllowedSetPlusAnImport() throws {
        let unused = try Self.evaluate(Self.steps(Self.s3(.string("photos/2026/a.jpg")), named: "elsewhere"))
        #expect(unused == .refuse(.stepsNotAllowed(#"step "elsewhere" is not in the allowed set"#)))
        let two = PolicyFixture.params { members, _ in
            members["template_id"] = nil
            members["steps"] = .object(["resize": Self.resize, "imported": .object(Self.s3(.string("photos/2026/a.jpg"))),
                                        "more": .object(Self.s3(.string("photos/2026/b.jpg")))])
        }
        guard case .refuse(.stepsNotAllowed) = try Self.evaluate(two) else {
            Issue.record("expected two import steps to be refused")
            return
        }
        var policy = try Self.policy()
        policy.imports = []
        #expect(policy.evaluate(Self.steps(Self.s3(.string("photos/2026/a.jpg"))), now: PolicyFixture.now)
                == .refuse(.importNotAllowed(step: "imported", .robotNotAllowed("/s3/import"))))
    }

    @Test func anyRuleOfTheRobotMayAllowTheStepAndARefusalGivesTheFirstRulesReason() throws {
        var policy = try Self.policy()
        policy.imports.append(ImportRule(robot: .s3, credentials: ["archive"], prefixes: ["old/"]))
        let archived = Self.steps(Self.s3(.string("old/a.jpg")) { $0["credentials"] = .string("archive") })
        guard case .allow = policy.evaluate(archived, now: PolicyFixture.now) else {
            Issue.record("expected the second rule to allow the step")
            return
        }
        let mixed = Self.steps(Self.s3(.string("photos/2026/a.jpg")) { $0["credentials"] = .string("archive") })
        #expect(policy.evaluate(mixed, now: PolicyFixture.now) == .refuse(.importNotAllowed(step: "imported", .credentialsNotAllowed("archive"))))
    }

    /// `use` names the import step as a name, in a list, or in `{steps: [{name, as}]}`.
    @Test(arguments: [JSONValue.array([.string("imported")]),
                      .object(["steps": .array([.object(["name": .string("imported"), "as": .string("image")])])])])
    func theSetMayUseTheImportStepInEveryFormOfUse(use: JSONValue) throws {
        var resize = Self.resize.objectValue!
        resize["use"] = use
        var policy = try Self.policy()
        policy.steps = [.object(["resize": .object(resize)])]
        let params = PolicyFixture.params { members, _ in
            members["template_id"] = nil
            members["steps"] = .object(["resize": .object(resize), "imported": .object(Self.s3(.string("photos/2026/a.jpg")))])
        }
        guard case .allow = policy.evaluate(params, now: PolicyFixture.now) else {
            Issue.record("expected \(use.serialized) to use the import step")
            return
        }
    }

    @Test func anAllowedTemplateMayBeSentWithAnOverrideOfOneAllowedImportStep() throws {
        func params(_ template: String, _ steps: [String: JSONValue]) -> String {
            PolicyFixture.params { members, _ in
                members["template_id"] = .string(template)
                members["steps"] = .object(steps.mapValues { .object($0.objectValue!) })
            }
        }
        let allowed = params("tpl-ok", [":original": .object(Self.http(.string("https://cdn.example.com/media/a.jpg")))])
        guard case .allow = try Self.evaluate(allowed) else {
            Issue.record("expected the Template with its import override to be signed")
            return
        }
        #expect(try Self.evaluate(params("tpl-ok", [":original": .object(Self.http(.string("https://evil.com/a.jpg")))]))
                == .refuse(.importNotAllowed(step: ":original", .outsidePrefixes(element: "url[0]"))))
        #expect(try Self.evaluate(params("tpl-evil", [":original": .object(Self.http(.string("https://cdn.example.com/media/a.jpg")))]))
                == .refuse(.templateWithStepsNotAllowed("tpl-evil")))
        #expect(try Self.evaluate(params("tpl-ok", [":original": .object(Self.http(.string("https://cdn.example.com/media/a.jpg"))),
                                                   "resize": Self.resize]))
                == .refuse(.templateWithStepsNotAllowed("tpl-ok")))
    }
}
