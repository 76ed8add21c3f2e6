import Foundation
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct ValidateCommandTests {
    @Test func validManifestExitsZeroAndSaysSo() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("jobs/m.yaml", "version: 1\nname: thumbs\ninputs: {include: \"in/*.jpg\"}\nresize: {width: 10}\n")
        let outcome = try await BinaryRunner.run(["validate", "jobs/m.yaml"], in: directory.url)
        #expect(outcome.status == 0)
        #expect(outcome.stdout == "jobs/m.yaml: valid manifest 'thumbs' (resize, endpoint embedded, signer embedded)\n")
        #expect(outcome.stderr == "")
    }

    @Test func invalidManifestPrintsEveryErrorWithLineAndCaretAndExits65() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: a b\ninputs: {include: x}\nresize: {width: 0}\n")
        let outcome = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr == """
            m.yaml:2:7: name: expected a name of letters, digits, '.', '_' and '-' (at most 64), found 'a b'
            name: a b
                  ^
            m.yaml:4:17: resize.width: out of range; expected a whole number from 1 to 20000
            resize: {width: 0}
                            ^
            2 errors in m.yaml

            """)
    }

    @Test func yamlSyntaxErrorNamesThePlaceAndExits65() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: [a\n")
        let outcome = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("m.yaml:2:7: "))
    }

    @Test func missingFileIsNamedAndExits65() async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BinaryRunner.run(["validate", "nowhere.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("nowhere.yaml"))
    }

    @Test func shippedManifestsAreValid() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        for manifest in ["manifests/example.yaml", "manifests/reference.yaml"] {
            let outcome = try await BinaryRunner.run(["validate", manifest], in: root)
            #expect(outcome.status == 0, "\(manifest): \(outcome.stderr)")
        }
    }

    @Test func aSecretTheSignerNamesMustBeReadable() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", """
            version: 1
            name: signed
            endpoint: http://127.0.0.1:9442
            auth: {key: k}
            signer: {kind: local, secret_env: TL_SECRET}
            inputs: {include: "*.png"}
            resize: {width: 10}

            """)
        let unset = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(unset.status == 78, "\(unset.stderr)")
        #expect(unset.stderr.contains("TL_SECRET"), "\(unset.stderr)")
        #expect(try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url, environment: ["TL_SECRET": "s"]).status == 0)
    }

    @Test func aTemplateWithoutItsFileOnTheEmbeddedServiceIsRefused() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: t\ninputs: {include: \"*.png\"}\ntemplate: {id: thumbs}\n")
        let outcome = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("m.yaml:4:11: template: the embedded service knows a Template only from its file"), "\(outcome.stderr)")
    }

    @Test func aTemplateFileIsCheckedAndItsDoubtfulStepsWarnedOf() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("m.yaml", "version: 1\nname: t\ninputs: {include: \"*.png\"}\ntemplate: {file: t.json}\n")
        try directory.write("t.json", #"{"steps": {"thumb": {"robot": "/image/resise", "use": ":original"}}}"#)
        let doubtful = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(doubtful.status == 0, "\(doubtful.stderr)")
        #expect(doubtful.stderr == "warning: t.json: steps.thumb.robot: /image/resise is no Robot this client knows; "
            + "the service decides (a typo fails every Assembly)\n")
        try directory.write("t.json", #"{"steps": {"thumb": {"robot": "/image/resize", "use": ":original",}}}"#)
        let broken = try await BinaryRunner.run(["validate", "m.yaml"], in: directory.url)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("m.yaml:4:18: template.file: t.json:1:67: expected a Template as JSON"), "\(broken.stderr)")
    }
}
