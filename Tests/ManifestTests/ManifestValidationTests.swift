@testable import AssemblyLine
import Foundation
import Testing

/// One bad manifest and the exact issue it must give.
struct BadManifest: CustomTestStringConvertible, Sendable {
    var yaml: String
    var issue: String
    var environment: [String: String] = [:]

    var testDescription: String { issue }
}

@Suite struct ManifestValidationTests {
    static let cases: [BadManifest] = [
        BadManifest(yaml: "name: a\ninputs: {include: x}\nresize: {width: 1}\n",
                    issue: "m.yaml:1:1: version: missing; expected 1, the manifest format's version"),
        BadManifest(yaml: "version: 2\nname: a\ninputs: {include: x}\nresize: {width: 1}\n",
                    issue: "m.yaml:1:10: version: expected 1, the only manifest version this AssemblyLine reads, found '2'"),
        BadManifest(yaml: minimalManifest + "shard:\n  files: 3\n",
                    issue: "m.yaml:8:1: shard: unknown key 'shard'; expected one of: version, name, endpoint, auth, signer, inputs, template, resize, steps, notify_url, shards, concurrency, upload, retry, poll, limits, output, state_dir, monitoring (did you mean 'shards'?)"),
        BadManifest(yaml: "version: 1\nname: my thumbs\ninputs: {include: x}\nresize: {width: 1}\n",
                    issue: "m.yaml:2:7: name: expected a name of letters, digits, '.', '_' and '-' (at most 64), found 'my thumbs'"),
        BadManifest(yaml: minimalManifest + "endpoint: ftp://api2.transloadit.com\n",
                    issue: "m.yaml:8:11: endpoint: expected an https:// URL or embedded, found 'ftp://api2.transloadit.com'"),
        BadManifest(yaml: minimalManifest + "endpoint: http://api2.transloadit.com\nauth: {key: k}\nsigner: {kind: local, secret_env: S}\n",
                    issue: "m.yaml:8:11: endpoint: plain http is allowed only to a loopback host (127.0.0.1, localhost, [::1]); expected an https:// URL, found 'http://api2.transloadit.com'"),
        BadManifest(yaml: minimalManifest + "endpoint: https://api2.transloadit.com\nsigner: {kind: local, secret_env: S}\n",
                    issue: "m.yaml:1:1: auth: missing; expected a mapping with the Auth Key (auth.key), needed with an endpoint URL"),
        BadManifest(yaml: minimalManifest + "endpoint: https://api2.transloadit.com\nauth: {key: k}\n",
                    issue: "m.yaml:1:1: signer: missing; expected a mapping with kind: backend or local (needed with an endpoint URL)"),
        BadManifest(yaml: minimalManifest + "signer:\n  kind: vault\n",
                    issue: "m.yaml:9:9: signer.kind: expected backend, local or embedded, found 'vault'"),
        BadManifest(yaml: minimalManifest + "signer:\n  kind: local\n  secret_env: S\n  secret: hunter2\n",
                    issue: "m.yaml:11:11: signer.secret: a literal secret in a manifest is refused: manifests end up in version control, backups and logs; use secret_env or secret_file instead"),
        BadManifest(yaml: minimalManifest + "endpoint: https://api2.transloadit.com\nauth: {key: k}\nsigner:\n  kind: backend\n  token_env: T\n",
                    issue: "m.yaml:11:3: signer.url: missing; expected the signing service's https:// URL"),
        BadManifest(yaml: minimalManifest + "endpoint: https://api2.transloadit.com\nauth: {key: k}\nsigner:\n  kind: backend\n  url: https://sign.example.com/sign\n  token_env: T\n  token_file: /etc/token\n",
                    issue: "m.yaml:14:15: signer.token_file: token_env and token_file are mutually exclusive; expected exactly one"),
        BadManifest(yaml: minimalManifest + "signer:\n  kind: local\n  secret_env: S\n  url: https://sign.example.com\n",
                    issue: "m.yaml:11:8: signer.url: not used by signer kind local; expected only: secret_env, secret_file"),
        BadManifest(yaml: minimalManifest + "endpoint: https://api2.transloadit.com\nauth: {key: k}\nsigner: {kind: embedded}\n",
                    issue: "m.yaml:10:16: signer.kind: signer kind embedded signs only for endpoint: embedded; expected backend or local with an endpoint URL"),
        BadManifest(yaml: "version: 1\nname: a\nresize: {width: 1}\n",
                    issue: "m.yaml:1:1: inputs: missing; expected a mapping with keys include, exclude, base, case_insensitive, s3, urls"),
        BadManifest(yaml: minimalManifest.replacingOccurrences(of: "inputs:\n", with: "inputs:\n  case_insensitive: sometimes\n"),
                    issue: "m.yaml:4:21: inputs.case_insensitive: expected true or false, found 'sometimes'"),
        BadManifest(yaml: "version: 1\nname: a\ninputs:\n  include: []\nresize: {width: 1}\n",
                    issue: "m.yaml:4:12: inputs.include: expected at least one glob, found an empty list"),
        BadManifest(yaml: minimalManifest + "template:\n  id: abc\n",
                    issue: "m.yaml:8:1: template: resize and template are mutually exclusive; expected exactly one of template, resize or steps"),
        BadManifest(yaml: "version: 1\nname: a\ninputs: {include: x}\n",
                    issue: "m.yaml:1:1: missing recipe; expected exactly one of template, resize or steps"),
        BadManifest(yaml: "version: 1\nname: a\ninputs: {include: x}\nresize:\n  width: -5\n",
                    issue: "m.yaml:5:10: resize.width: out of range; expected a whole number from 1 to 20000"),
        BadManifest(yaml: minimalManifest.replacingOccurrences(of: "  height: 100\n", with: "  height: 100\n  strategy: squash\n"),
                    issue: "m.yaml:8:13: resize.strategy: expected one of fit, fillcrop, min_fit, pad, stretch, crop, found 'squash'"),
        BadManifest(yaml: minimalManifest.replacingOccurrences(of: "  height: 100\n", with: "  height: 100\n  quality: 101\n"),
                    issue: "m.yaml:8:12: resize.quality: out of range; expected a whole number from 1 to 100"),
        BadManifest(yaml: minimalManifest.replacingOccurrences(of: "  height: 100\n", with: "  height: 100\n  background: red\n"),
                    issue: "m.yaml:8:15: resize.background: expected a color such as #ffffff or #00000000, found 'red'"),
        BadManifest(yaml: "version: 1\nname: a\ninputs: {include: x}\nresize:\n  width: 10\n  strategy: fillcrop\n",
                    issue: "m.yaml:6:13: resize.strategy: strategy fillcrop needs both width and height"),
        BadManifest(yaml: minimalManifest + "shards:\n  max_bytes: 12XB\n",
                    issue: "m.yaml:9:14: shards.max_bytes: expected a size such as 512KiB, 8MiB or 2GiB (or a whole number of bytes), from 1B to 1TiB, found '12XB'"),
        BadManifest(yaml: minimalManifest + "shards:\n  files: many\n",
                    issue: "m.yaml:9:10: shards.files: expected a whole number from 1 to 10000, found 'many'"),
        BadManifest(yaml: minimalManifest + "concurrency: [4, 4]\n",
                    issue: "m.yaml:8:14: concurrency: expected a mapping with keys assemblies, uploads, downloads, found a list"),
        BadManifest(yaml: minimalManifest + "upload:\n  mode: ftp\n",
                    issue: "m.yaml:9:9: upload.mode: expected multipart or tus, found 'ftp'"),
        BadManifest(yaml: minimalManifest + "upload:\n  chunk_size: 1KiB\n",
                    issue: "m.yaml:9:15: upload.chunk_size: out of range; expected a size such as 512KiB, 8MiB or 2GiB (or a whole number of bytes), from 64KiB to 1GiB"),
        BadManifest(yaml: minimalManifest + "retry:\n  base_delay: 2m\n  max_delay: 30s\n",
                    issue: "m.yaml:10:14: retry.max_delay: expected max_delay (30s) to be at least base_delay (2m)"),
        BadManifest(yaml: minimalManifest + "poll:\n  interval: 5\n",
                    issue: "m.yaml:9:13: poll.interval: expected a duration such as 500ms, 90s, 5m, 1h or 1h30m, from 50ms to 10m, found '5'"),
        BadManifest(yaml: minimalManifest + "output:\n  layout: \"{foo}/{relpath}\"\n",
                    issue: "m.yaml:9:11: output.layout: unknown placeholder {foo}; expected one of {run}, {step}, {shard}, {relpath}, {dir}, {stem}, {ext}, {name}, {input_ext}"),
        BadManifest(yaml: minimalManifest + "output:\n  layout: \"{run}/{step}\"\n",
                    issue: "m.yaml:9:11: output.layout: expected {relpath}, {stem} or {name} in the layout, so that results do not overwrite each other"),
        BadManifest(yaml: "version: 1\nname: ${JOB_NAME}\ninputs: {include: x}\nresize: {width: 1}\n",
                    issue: "m.yaml:2:7: name: environment variable JOB_NAME is not set"),
        BadManifest(yaml: minimalManifest + "auth:\n  expires_in: 48h\n",
                    issue: "m.yaml:9:15: auth.expires_in: out of range; expected a duration such as 500ms, 90s, 5m, 1h or 1h30m, from 10s to 1d"),
        BadManifest(yaml: "version: 1\nname: a\ninputs: {include: x}\nsteps:\n  thumb:\n    use: \":original\"\n",
                    issue: "m.yaml:6:5: steps.thumb: expected a Step: a mapping with robot (such as /image/resize) and its options"),
        BadManifest(yaml: minimalManifest + "state_dir: [a, b]\n",
                    issue: "m.yaml:8:12: state_dir: expected a string, found a list"),
        BadManifest(yaml: minimalManifest + "limits:\n  creations_per_minute: 0\n",
                    issue: "m.yaml:9:25: limits.creations_per_minute: out of range; expected a whole number from 1 to 100000"),
        BadManifest(yaml: minimalManifest + "limits:\n  max_results_per_file: 0\n",
                    issue: "m.yaml:9:25: limits.max_results_per_file: out of range; expected a whole number from 1 to 100000"),
        BadManifest(yaml: minimalManifest + "limits:\n  max_result_size: lots\n",
                    issue: "m.yaml:9:20: limits.max_result_size: expected a size such as 512KiB, 8MiB or 2GiB (or a whole number of bytes), from 1B to 1TiB, found 'lots'"),
        BadManifest(yaml: minimalManifest + "output:\n  steps: [resize, thumbs]\n",
                    issue: "m.yaml:9:19: output.steps[1]: no step 'thumbs' in the recipe; expected one of :original, resize"),
        BadManifest(yaml: minimalManifest + "output:\n  steps: some\n",
                    issue: "m.yaml:9:10: output.steps: expected all, none, or a list of step names, found 'some'"),
        BadManifest(yaml: minimalManifest + "monitoring:\n  ping_url_env: HC_URL\n  ping_url_file: ping\n",
                    issue: "m.yaml:10:18: monitoring.ping_url_file: ping_url_env and ping_url_file are mutually exclusive; expected exactly one"),
        BadManifest(yaml: minimalManifest + "monitoring:\n  ping_url_env: HC_URL\n  ping_timeout: 5m\n",
                    issue: "m.yaml:10:17: monitoring.ping_timeout: out of range; expected a duration such as 500ms, 90s, 5m, 1h or 1h30m, from 100ms to 1m"),
        BadManifest(yaml: "version: 1\nname: a\ninputs:\n  include: [\"ok/*.jpg\", \"in/[abc\"]\nresize: {width: 5}\n",
                    issue: "m.yaml:4:12: inputs.include: glob pattern 'in/[abc', position 4: '[' is never closed by ']'"),
    ]

    @Test(arguments: cases)
    func badManifestNamesPlaceAndExpectation(_ bad: BadManifest) throws {
        // Given a manifest with one mistake, when it is decoded, then exactly that issue is reported.
        #expect(try manifestIssues(bad.yaml, environment: bad.environment) == [bad.issue])
    }

    @Test func everyIssueOfAManifestIsReportedTogetherInDocumentOrder() throws {
        let yaml = """
            version: 1
            name: a b
            inputs: {include: x}
            resize: {width: 0}
            shards: {files: 0}
            poll: {intervall: 1s}

            """
        let issues = try manifestIssues(yaml)
        #expect(issues == [
            "m.yaml:2:7: name: expected a name of letters, digits, '.', '_' and '-' (at most 64), found 'a b'",
            "m.yaml:4:17: resize.width: out of range; expected a whole number from 1 to 20000",
            "m.yaml:5:17: shards.files: out of range; expected a whole number from 1 to 10000",
            "m.yaml:6:8: poll.intervall: unknown key 'intervall'; expected one of: interval, max_interval, timeout, stream (did you mean 'interval'?)",
        ])
    }
}
