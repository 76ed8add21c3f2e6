@testable import AssemblyLine
import ConfigFormat
import Testing

@Suite struct ManifestDecodingTests {
    @Test func minimalManifestGetsTheDocumentedDefaults() throws {
        let manifest = try decodeManifest(minimalManifest)
        #expect(manifest.name == "thumbs")
        #expect(manifest.endpoint == .embedded)
        #expect(manifest.signer == .embedded)
        #expect(manifest.auth == AuthSettings(key: nil, expiresIn: .seconds(3_600)))
        #expect(manifest.inputs.include.map(\.description) == ["/jobs/in/**/*.jpg"])
        #expect(manifest.inputs.exclude.isEmpty)
        #expect(!manifest.inputs.include[0].ignoresCase, "names are matched as written")
        #expect(manifest.inputs.base == "/jobs")
        #expect(manifest.shards == ShardLimits(maxFiles: 20, maxBytes: 1 << 30))
        #expect(manifest.concurrency == ConcurrencyLimits(assemblies: 4, uploads: 4, downloads: 8))
        #expect(manifest.upload == UploadSettings(mode: .multipart, chunkSize: 8 << 20))
        #expect(manifest.retry == RetrySettings(attempts: 5, baseDelay: .seconds(1), maxDelay: .seconds(60)))
        #expect(manifest.poll == PollSettings(interval: .milliseconds(250), maxInterval: .seconds(10), timeout: .seconds(3_600)))
        #expect(manifest.limits == RateLimits(creationsPerMinute: 200, statusRequestsPerSecond: 2))
        #expect(manifest.resultLimits == ResultLimits(maxResultsPerFile: 100, maxResultSize: 16 << 30, maxUndeclaredResultSize: 1 << 30,
                                                      minFreeSpace: 1 << 30))
        #expect(manifest.stateDir == "/jobs/runs")
        #expect(manifest.output.dir == "/jobs/runs/output")
        #expect(manifest.output.layout.description == "{step}/{relpath}.{ext}")
        #expect(manifest.recipe == .resize(ResizeSettings(width: 100, height: 100, strategy: .fit, format: nil,
                                                          quality: nil, background: nil, zoom: true)))
    }

    @Test func everyFieldIsReadWithUnitsPathsAndEnvironment() throws {
        let yaml = """
            version: 1
            name: nightly.thumbs-2
            endpoint: https://api2.transloadit.com/
            auth:
              key: ${TL_KEY}
              expires_in: 30m
            signer:
              kind: backend
              url: https://sign.example.com/sign
              token_file: ../secrets/token
              timeout: 2500ms
              ca_file: ca/internal.pem
            inputs:
              include: ["/data/in/**/*.jpg", "more/*.png"]
              exclude: "**/tmp/**"
              base: /data/in
              case_insensitive: true
            template:
              id: 0123456789abcdef0123456789abcdef
              fields: {size: 128, label: "$${literal}", on: true}
            notify_url: https://hooks.example.com/done
            shards: {files: 50, max_bytes: 2GiB}
            concurrency: {assemblies: 8, uploads: 16, downloads: 32}
            upload: {mode: tus, chunk_size: 512KiB, checksums: false}
            retry: {attempts: 7, base_delay: 500ms, max_delay: 45m}
            poll: {interval: 2s, max_interval: 1m, timeout: 2h}
            limits: {creations_per_minute: 120, status_per_second: 3, max_results_per_file: 4, max_result_size: 64MiB,
                     max_undeclared_result_size: 8MiB, min_free_space: 0}
            output: {dir: /srv/out, layout: "{run}/{step}/{dir}/{stem}.{ext}"}
            state_dir: state

            """
        let manifest = try decodeManifest(yaml, environment: ["TL_KEY": "abc123"])
        #expect(manifest.endpoint == .url("https://api2.transloadit.com"))
        #expect(manifest.auth == AuthSettings(key: "abc123", expiresIn: .seconds(1_800)))
        #expect(manifest.signer == .backend(url: "https://sign.example.com/sign", token: .file("/secrets/token"), timeout: .milliseconds(2_500),
                                               caFile: "/jobs/ca/internal.pem"))
        #expect(manifest.inputs.include.map(\.description) == ["/data/in/**/*.jpg", "/jobs/more/*.png"])
        #expect(manifest.inputs.exclude.map(\.description) == ["/jobs/**/tmp/**"])
        #expect(manifest.inputs.base == "/data/in")
        #expect((manifest.inputs.include + manifest.inputs.exclude).allSatisfy { $0.ignoresCase })
        #expect(manifest.recipe == .template(id: "0123456789abcdef0123456789abcdef",
                                             fields: ["size": .integer(128), "label": .string("${literal}"), "on": .bool(true)]))
        #expect(manifest.notifyURL == "https://hooks.example.com/done")
        #expect(manifest.shards == ShardLimits(maxFiles: 50, maxBytes: 2 << 30))
        #expect(manifest.concurrency == ConcurrencyLimits(assemblies: 8, uploads: 16, downloads: 32))
        #expect(manifest.upload == UploadSettings(mode: .tus, chunkSize: 512 << 10, checksums: false))
        #expect(manifest.retry == RetrySettings(attempts: 7, baseDelay: .milliseconds(500), maxDelay: .seconds(2_700)))
        #expect(manifest.poll == PollSettings(interval: .seconds(2), maxInterval: .seconds(60), timeout: .seconds(7_200)))
        #expect(manifest.limits == RateLimits(creationsPerMinute: 120, statusRequestsPerSecond: 3, setsCreationsPerMinute: true),
                "a budget the manifest sets applies to the embedded service too")
        #expect(manifest.resultLimits == ResultLimits(maxResultsPerFile: 4, maxResultSize: 64 << 20, maxUndeclaredResultSize: 8 << 20,
                                                      minFreeSpace: 0))
        #expect(manifest.output.dir == "/srv/out")
        #expect(manifest.stateDir == "/jobs/state")
    }

    @Test func outputStepsDefaultToEveryStepButTheExportsAndMayNameAllOrNone() throws {
        let steps = """
            version: 1
            name: steps
            inputs: {include: x}
            steps:
              thumb: {robot: /image/resize, use: ":original", width: 64}
              archive: {robot: /s3/store, use: thumb, credentials: mine}

            """
        let defaults = try decodeManifest(steps).output.steps
        #expect(defaults == ResultSelection(downloaded: ["thumb"], exported: ["archive"]))
        #expect(defaults.delivery(ofStep: "archive") == .export && defaults.delivery(ofStep: ":original") == .record)
        #expect(try decodeManifest(steps + "output: {steps: all}\n").output.steps.downloaded == nil)
        #expect(try decodeManifest(steps + "output: {steps: none}\n").output.steps.delivery(ofStep: "thumb") == .record)
        #expect(try decodeManifest(steps + "output: {steps: [archive]}\n").output.steps.delivery(ofStep: "archive") == .download)
        let template = "version: 1\nname: t\nendpoint: https://api2.transloadit.com\nauth: {key: k}\nsigner: {kind: local, secret_env: S}\n"
            + "inputs: {include: x}\ntemplate: {id: abc}\noutput: {steps: [anything]}\n"
        #expect(try decodeManifest(template).output.steps == ResultSelection(downloaded: ["anything"], exported: []))
    }

    @Test func rawStepsKeepTheirTypes() throws {
        let yaml = """
            version: 1
            name: steps
            inputs: {include: x}
            steps:
              thumb:
                robot: /image/resize
                use: ":original"
                width: 64
                imagemagick_stack: "v3.0.0"
                zoom: false

            """
        let manifest = try decodeManifest(yaml)
        let expected: JSONValue = .object(["thumb": .object([
            "robot": .string("/image/resize"), "use": .string(":original"), "width": .integer(64),
            "imagemagick_stack": .string("v3.0.0"), "zoom": .bool(false),
        ])])
        #expect(manifest.recipe == .steps(expected))
        #expect(expected.serialized == #"{"thumb":{"imagemagick_stack":"v3.0.0","robot":"/image/resize","use":":original","width":64,"zoom":false}}"#)
    }

    @Test func resizeFormatJpegIsReadAsJpgSentAsJpgAndNamesItsOutputsJpg() throws {
        let jpeg = try decodeManifest(minimalManifest + "  format: jpeg\n")
        let jpg = try decodeManifest(minimalManifest + "  format: jpg\n")
        #expect(jpeg.recipe == jpg.recipe && jpeg.recipe.fingerprint == jpg.recipe.fingerprint, "the same recipe: nothing is sent again for the spelling")
        #expect(jpeg.recipe.knownSteps?.objectValue?["resize"]?.objectValue?["format"] == .string("jpg"))
        #expect(jpeg.recipe.formatsByStep == ["resize": "jpg"], "{ext} is jpg")
        #expect(try manifestIssues(minimalManifest + "  format: jfif\n")
            == ["m.yaml:8:11: resize.format: expected one of jpg, png, webp, gif, found 'jfif'"])
    }

    @Test func aPingURLIsNamedByItsSourceWithATimeoutAndNoneByDefault() throws {
        let manifest = try decodeManifest(minimalManifest + "monitoring: {ping_url_file: secrets/ping, ping_timeout: 3s}\n")
        #expect(manifest.monitoring.pingURL.map { "\($0)" }?.hasSuffix("/secrets/ping") == true, "resolved against the manifest: \(String(describing: manifest.monitoring.pingURL))")
        #expect(manifest.monitoring.pingTimeout == .seconds(3))
        let plain = try decodeManifest(minimalManifest)
        #expect(plain.monitoring.pingURL == nil && plain.monitoring.pingTimeout == .seconds(10))
        #expect(try decodeManifest(minimalManifest + "monitoring: {ping_url_env: HC_URL}\n").monitoring.pingURL == .environment("HC_URL"))
    }

    @Test func localSignerReadsItsSecretFromTheEnvironmentByName() throws {
        let manifest = try decodeManifest(minimalManifest + "signer: {kind: local, secret_env: TL_SECRET}\n")
        #expect(manifest.signer == .local(secret: .environment("TL_SECRET")))
    }

    @Test(arguments: [
        ("http://127.0.0.1:9442", true), ("http://localhost:9442/", true), ("http://[::1]:80", true),
        ("http://10.0.0.1", false), ("http://127.0.0.1.example.com", false), ("https://api2.transloadit.com", true),
    ])
    func plainHTTPOnlyToLoopback(url: String, accepted: Bool) throws {
        let yaml = minimalManifest + "endpoint: \(url)\nauth: {key: k}\nsigner: {kind: local, secret_env: S}\n"
        #expect(try manifestIssues(yaml).isEmpty == accepted)
    }
}
