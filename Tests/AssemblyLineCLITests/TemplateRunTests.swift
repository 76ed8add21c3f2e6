import Foundation
import TestSupport
import Testing

/// A Template manifest on the embedded default: the file's steps run offline, `{ext}` follows their format, and the
/// commands that need an account say that the embedded service has none.
@Suite(.timeLimit(.minutes(3))) struct TemplateRunTests {
    static let template = """
        {
          "name": "thumbs",
          "require_signature_auth": 0,
          "steps": {
            "thumb": {"format": "webp", "height": 60, "resize_strategy": "fit", "robot": "/image/resize", "use": ":original", "width": 80}
          }
        }

        """

    @Test func aTemplateManifestRunsOnTheEmbeddedDefaultFromItsFileWithItsFormatAsTheExtension() async throws {
        let directory = try TemporaryDirectory()
        try await SampleImages.copy(to: directory.url.appendingPathComponent("in"))
        try directory.write("templates/thumbs.json", Self.template)
        try directory.write("m.yaml", """
            version: 1
            name: thumbs
            inputs: {include: "in/squares/*.png", base: in}
            template: {id: 0123456789abcdef0123456789abcdef, file: templates/thumbs.json}
            output: {dir: out, layout: "{step}/{relpath}.{ext}"}
            state_dir: state

            """)
        let night = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url)
        #expect(night.status == 0, "\(night.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: directory.file("out/thumb/squares")).sorted()
        let inputs = try FileManager.default.contentsOfDirectory(atPath: directory.file("in/squares")).sorted()
        #expect(!made.isEmpty && made == inputs.map { $0.replacingOccurrences(of: ".png", with: ".webp") })
        let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("out/thumb/squares/\(made[0])")))
        #expect(bytes.count > 12 && String(decoding: bytes[8..<12], as: UTF8.self) == "WEBP", "a WebP file, as the step's format says")

        let next = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url)
        #expect(next.stdout.contains("0 files") && next.stdout.contains("\(inputs.count) skipped"), "\(next.stdout)")

        let pull = try await BinaryRunner.run(["templates", "pull", "m.yaml"], in: directory.url)
        #expect(pull.status == 65)
        #expect(pull.stderr.contains("endpoint: the embedded service has no account"), "\(pull.stderr)")
    }

    @Test func troubleReachingTheAccountTakesTheTablesCodes() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("templates/thumbs.json", Self.template)
        try directory.write("in/a.png", "not read before the endpoint answers")
        try directory.write("m.yaml", """
            version: 1
            name: thumbs
            endpoint: http://127.0.0.1:9
            auth: {key: k}
            signer: {kind: local, secret_env: TEMPLATES_SECRET}
            inputs: {include: "in/*.png"}
            template: {id: 0123456789abcdef0123456789abcdef, file: templates/thumbs.json}

            """)
        let unset = try await BinaryRunner.run(["templates", "diff", "m.yaml"], in: directory.url)
        #expect(unset.status == 78 && unset.stderr.contains("TEMPLATES_SECRET"), "\(unset.stderr)")
        let closed = try await BinaryRunner.run(["templates", "diff", "m.yaml"], in: directory.url, environment: ["TEMPLATES_SECRET": "s"])
        #expect(closed.status == 69, "\(closed.stderr)")
        #expect(closed.stderr.hasPrefix("Error: TRANSPORT_CONNECT") && !closed.stderr.contains("\"s\""), "\(closed.stderr)")
        let night = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url, environment: ["TEMPLATES_SECRET": "s"])
        #expect(night.status == 69, "the preflight finds no endpoint before the drift check: \(night.stderr)")
        let usage = try await BinaryRunner.run(["templates", "sync", "m.yaml"], in: directory.url)
        #expect(usage.status == 64 && usage.stderr.contains("expected pull, diff, push or list, found 'sync'"), "\(usage.stderr)")
    }
}
