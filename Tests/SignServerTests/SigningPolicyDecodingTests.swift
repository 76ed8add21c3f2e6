import AssemblyLine
import SignServer
import ConfigFormat
import TestSupport
import Testing
import YAMLReader

/// Decodes policy text as the CLI does, with the policy at `/etc/al/policy.yaml`.
private func decodePolicy(_ yaml: String) throws -> SigningPolicy {
    let node = try YAMLReader.parse(yaml, file: "policy.yaml")
    return try SigningPolicyDecoder(displayPath: "policy.yaml", absolutePath: "/etc/al/policy.yaml", environment: ["KEY": "k-env"]).decode(node)
}

private func policyIssues(_ yaml: String) throws -> [String] {
    try configIssues { _ = try decodePolicy(yaml) }
}

private let hash = String(repeating: "ab", count: 32)

@Suite(.timeLimit(.minutes(3))) struct SigningPolicyDecodingTests {
    @Test func decodesEveryKey() async throws {
        let policy = try decodePolicy("""
            key: ${KEY}
            secret_file: secrets/auth
            tokens_sha256: [\(hash.uppercased())]
            max_expires_in: 30m
            clock_skew: 5s
            templates: [tpl-1, tpl-2]
            steps:
              - ":original": {robot: /upload/handle}
                resize: {robot: /image/resize, use: ":original", width: 200, zoom: false, quality: 0.5}
            fields:
              album: "[a-z]+"
            notify_urls: https://example.com/hook
            requests_per_minute: 30
            template_api: write
            """)
        #expect(policy.key == "k-env")
        #expect(policy.secret == .file("/etc/al/secrets/auth"))
        #expect(policy.tokenHashes == [hash])
        #expect(policy.maxExpiresIn == .seconds(1800))
        #expect(policy.clockSkew == .seconds(5))
        #expect(policy.templates == ["tpl-1", "tpl-2"])
        #expect(policy.steps == [.object([
            ":original": .object(["robot": .string("/upload/handle")]),
            "resize": .object(["robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(200),
                               "zoom": .bool(false), "quality": .number(0.5)]),
        ])])
        #expect(policy.fields.mapValues(\.pattern) == ["album": "[a-z]+"])
        #expect(policy.notifyURLs == ["https://example.com/hook"])
        #expect(policy.requestsPerMinute == 30)
        #expect(policy.templateAccess == .write)
    }

    @Test(arguments: [("none", SigningPolicy.TemplateAccess.denied), ("read", .read), ("write", .write)])
    func decodesEachTemplateAccess(name: String, access: SigningPolicy.TemplateAccess) throws {
        #expect(try decodePolicy("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\ntemplate_api: \(name)\n").templateAccess == access)
    }

    @Test func decodesImportRules() async throws {
        let policy = try decodePolicy("""
            key: k
            secret_env: S
            tokens_sha256: [\(hash)]
            steps:
              - resize: {robot: /image/resize, use: imported}
            imports:
              - robot: /s3/import
                credentials: [night_bucket]
                prefixes: ["photos/2026/"]
              - {robot: /minio/import, credentials: lab, prefixes: [in/, out/], hosts: ["minio.internal:9000"]}
              - {robot: /http/import, url_prefixes: ["https://cdn.example.com/media/"], allow_headers: true}
            """)
        #expect(policy.imports == [
            ImportRule(robot: .s3, credentials: ["night_bucket"], prefixes: ["photos/2026/"]),
            ImportRule(robot: .minio, credentials: ["lab"], prefixes: ["in/", "out/"], hosts: ["minio.internal:9000"]),
            ImportRule(robot: .http, urlPrefixes: ["https://cdn.example.com/media/"], allowsHeaders: true),
        ])
    }

    @Test(arguments: [
        ("- {robot: /ftp/import}", ["policy.yaml:6:13: imports[0].robot: expected one of /s3/import, /minio/import, /http/import, found '/ftp/import'"]),
        ("- {robot: /s3/import, prefixes: [a/]}", ["policy.yaml:6:5: imports[0].credentials: missing; expected a string or a list of strings"]),
        ("- {robot: /s3/import, credentials: c, prefixes: [../a/]}",
         ["policy.yaml:6:51: imports[0].prefixes: expected a key prefix without a leading /, empty, . or .. segment; '../a/' has an empty, . or .. segment"]),
        ("- {robot: /s3/import, credentials: c, prefixes: [a/], url_prefixes: [https://x.com/]}",
         ["policy.yaml:6:71: imports[0].url_prefixes: /s3/import takes no url_prefixes; expected only credentials, prefixes"]),
        ("- {robot: /minio/import, credentials: c, prefixes: [a/]}", ["policy.yaml:6:5: imports[0].hosts: missing; expected a string or a list of strings"]),
        ("- {robot: /http/import, url_prefixes: [\"ftp://x.com/\"]}",
         ["policy.yaml:6:41: imports[0].url_prefixes: expected an absolute http(s) URL; 'ftp://x.com/' is not an absolute http(s) URL"]),
        ("[]", ["policy.yaml:6:3: imports: expected a list of import rules, each a robot and where its steps may read"]),
    ])
    func reportsEachImportRuleProblem(rules: String, expected: [String]) throws {
        let issues = try policyIssues("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\nimports:\n  \(rules)\n")
        #expect(issues == expected)
    }

    @Test func anEmptyFlowListIsAnEmptyList() async throws {
        let policy = try decodePolicy("""
            key: k
            secret_env: S
            tokens_sha256: [\(hash)]
            templates: []
            notify_urls: []
            steps:
              - resize: {robot: /image/resize}
            """)
        #expect(policy.templates.isEmpty && policy.notifyURLs.isEmpty)
        let issues = try policyIssues("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [\"\"]\n")
        #expect(issues.contains("policy.yaml:4:12: templates: expected a string or a list of strings, found an empty value"), "\(issues)")
    }

    @Test func decodesTemplateAndStepsPairs() async throws {
        let policy = try decodePolicy("""
            key: k
            secret_env: S
            tokens_sha256: [\(hash)]
            template_steps:
              - template: tpl-1
                steps:
                  export: {robot: /s3/store, use: ":original", bucket: b}
            """)
        #expect(policy.templateSteps == [SigningPolicy.TemplateSteps(template: "tpl-1", steps: .object([
            "export": .object(["robot": .string("/s3/store"), "use": .string(":original"), "bucket": .string("b")]),
        ]))])
        #expect(policy.templates.isEmpty && policy.steps.isEmpty)
        #expect(try policyIssues("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplate_steps:\n  - template: tpl-1\n")
            == ["policy.yaml:5:5: template_steps[0].steps: missing; expected a mapping of Step names to Steps"])
    }

    @Test func appliesDefaults() async throws {
        let policy = try decodePolicy("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\n")
        #expect(policy.secret == .environment("S"))
        #expect(policy.maxExpiresIn == SigningPolicy.defaultMaxExpiresIn)
        #expect(policy.clockSkew == SigningPolicy.defaultClockSkew)
        #expect(policy.requestsPerMinute == SigningPolicy.defaultRequestsPerMinute)
        #expect(policy.templateAccess == .read)
        #expect(policy.steps.isEmpty && policy.fields.isEmpty && policy.notifyURLs.isEmpty)
    }

    @Test(arguments: [
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\nmax_expire_in: 1h\n",
         ["policy.yaml:5:1: max_expire_in: unknown key 'max_expire_in'; expected one of: key, secret_env, secret_file, secret, tokens_sha256, max_expires_in, clock_skew, templates, steps, template_steps, fields, notify_urls, requests_per_minute, template_api, imports (did you mean 'max_expires_in'?)"]),
        ("key: k\nsecret_env: S\nsecret_file: f\ntokens_sha256: [\(hash)]\ntemplates: [t]\n",
         ["policy.yaml:3:14: secret_file: secret_env and secret_file are mutually exclusive; expected exactly one"]),
        ("key: k\nsecret: hunter2\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\n",
         ["policy.yaml:2:9: secret: a literal secret in a policy file is refused: such files end up in version control, backups and logs; use secret_env or secret_file instead"]),
        ("key: k\nsecret_env: S\ntokens_sha256:\n  - \(hash)\n  - my-plain-token\ntemplates: [t]\n",
         ["policy.yaml:5:5: tokens_sha256[1]: expected a SHA-256 digest of 64 hex digits, found 14 characters that are not one"]),
        ("key: k\nsecret_env: S\ntokens_sha256: \(hash)\ntemplates: [t]\n",
         ["policy.yaml:3:16: tokens_sha256: expected a list of SHA-256 digests of the accepted tokens, each 64 hex digits (printf %s TOKEN | sha256sum)"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\nsteps:\n  - resize: {use: \":original\"}\n",
         ["policy.yaml:5:13: steps[0].resize: expected a Step: a mapping with robot (such as /image/resize) and its options"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\nfields:\n  album: \"[a-\"\n",
         ["policy.yaml:6:10: fields.album: expected a regular expression that matches in linear time; '[a-' at offset 0: expected ']' to close the class"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\nfields:\n  album: \"(?=a)\\\\w+\"\n",
         ["policy.yaml:6:10: fields.album: expected a regular expression that matches in linear time; '(?=a)\\w+' at offset 0: lookaround cannot be matched in linear time"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\nmax_expires_in: 2d\nrequests_per_minute: 0\n",
         ["policy.yaml:5:17: max_expires_in: out of range; expected a duration such as 500ms, 90s, 5m, 1h or 1h30m, from 10s to 1d",
          "policy.yaml:6:22: requests_per_minute: out of range; expected a whole number from 1 to 100000"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\ntemplate_api: readwrite\n",
         ["policy.yaml:5:15: template_api: expected one of none, read, write, found 'readwrite'"]),
        ("key: k\nsecret_env: S\ntokens_sha256: [\(hash)]\ntemplates: [t]\ntemplate_api: [read]\n",
         ["policy.yaml:5:15: template_api: expected one of none, read, write, found a list"]),
        ("secret_env: S\ntokens_sha256: [\(hash)]\n",
         ["policy.yaml:1:1: key: missing; expected the Auth Key this service signs for",
          "policy.yaml:1:1: missing templates and steps; expected templates, steps or both: a policy that allows neither signs nothing"]),
        ("key: k\ntemplates: [t]\n",
         ["policy.yaml:1:1: secret_env: missing; expected secret_env (an environment variable's name) or secret_file (a file's path)",
          "policy.yaml:1:1: tokens_sha256: missing; expected a list of SHA-256 digests of the accepted tokens, each 64 hex digits (printf %s TOKEN | sha256sum)"]),
    ])
    func reportsEachProblemWithItsPlace(yaml: String, expected: [String]) throws {
        #expect(try policyIssues(yaml) == expected)
    }
}
