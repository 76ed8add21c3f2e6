import AssemblyLine
import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Nights of a bucket on a real S3-compatible server (moto, seeded and changed by boto3), imported by the embedded service.
@Suite(.timeLimit(.minutes(8))) struct BucketRunTests {
    /// Writes a 4×4 PNG of one grey `shade` at `path`, with Python's zlib (no image library needed).
    static func png(_ path: String, shade: Int) async throws {
        let script = """
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            rows = b"".join(b"\\x00" + bytes([\(shade)] * 4) for _ in range(4))
            png = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 4, 4, 8, 0, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
            open(sys.argv[1], "wb").write(png)
            """
        let made = try await BinaryRunner.run(["python3", "-c", script, path], in: URL(fileURLWithPath: "/"),
                                              executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(made.status == 0, "\(made.stderr)")
    }

    /// A key of the bucket: nested folders, some names with a space, a tenth of them in a non-ASCII folder.
    static func key(_ index: Int) -> String {
        index % 10 == 0 ? "photos/2026/über straße/\(index).png" : "photos/2026/d\(index % 50)/img \(index).png"
    }

    /// Every file under `directory`, as paths relative to it.
    static func files(under directory: String) -> [String] {
        (FileManager.default.enumerator(atPath: directory)?.allObjects as? [String] ?? []).filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: directory + "/" + path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// `m.yaml` of a night of `bucket` below `photos/` at `endpoint`, each image resized to 2×2 PNG into `out/`, with `extra`
    /// lines; the listing's secret is the file `s3.secret`, written beside it (mode 600).
    static func writeManifest(in directory: TemporaryDirectory, name: String, endpoint: String, bucket: String, secret: String,
                              include: String = "**/*.png", extra: String = "") throws {
        try directory.write("s3.secret", secret)
        chmod(directory.file("s3.secret"), 0o600)
        try directory.write("m.yaml", """
            version: 1
            name: \(name)
            inputs:
              s3: {endpoint: "\(endpoint)", bucket: \(bucket), prefix: photos/, access_key_id_env: NIGHT_KEY_ID,
                   secret_access_key_file: s3.secret, template_credentials: night}
              include: "\(include)"
            resize: {width: 2, height: 2, format: png}
            output: {dir: out, layout: "{relpath}.{ext}"}
            state_dir: state
            \(extra)

            """)
    }

    /// One moto of 12 objects for every crash: the kills change nothing in the bucket.
    static let crashBucket = Task {
        let bodies = try TemporaryDirectory()
        try await png(bodies.file("dark.png"), shade: 20)
        let keys = (0..<12).map(Self.key)
        return try await MotoS3Server.start(bucket: "crash-bucket", keys: keys,
                                            bodies: Dictionary(uniqueKeysWithValues: keys.map { ($0, bodies.file("dark.png")) }))
    }

    @Test(arguments: PipelineCheckpoint.allCases.filter { $0 != .midUpload })
    func aBucketNightKilledAtACheckpointIsFinishedByResume(point: PipelineCheckpoint) async throws {
        let moto = try await Self.crashBucket.value
        let directory = try TemporaryDirectory()
        try Self.writeManifest(in: directory, name: "crash-night", endpoint: moto.endpoint, bucket: "crash-bucket", secret: moto.secret, extra: "shards: {files: 5}")
        let environment = ["NIGHT_KEY_ID": moto.accessKeyID]
        let killed = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url,
                                                environment: environment.merging(["ASSEMBLYLINE_KILL_AT": "\(point.rawValue):2"]) { $1 })
        try #require(killed.wasKilled(by: SIGKILL), "\(point): \(killed.reason) \(killed.status): \(killed.stderr)")
        let runID = try #require(killed.stdout.split(separator: "\n").first.map(String.init))

        let resumed = try await BinaryRunner.run(["resume", runID, "--state-dir", "state"], in: directory.url, environment: environment)
        #expect(resumed.status == 0 && resumed.stdout.contains("files 12 done, 0 failed, 0 skipped, 0 pending"), "\(point): \(resumed.stdout) \(resumed.stderr)")
        let made = Set(Self.files(under: directory.file("out")))
        #expect(made == Set((0..<12).map { String(Self.key($0).dropFirst("photos/".count)) }), "\(point): \(made.sorted())")
        let next = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url, environment: environment)
        #expect(next.stdout.contains("0 files") && next.stdout.contains("12 skipped"), "\(point): \(next.stdout)")
    }

    @Test func aCorruptObjectFailsAloneAndTheNextNightLeavesItOutAsKnownBad() async throws {
        let directory = try TemporaryDirectory()
        try await Self.png(directory.file("dark.png"), shade: 20)
        try directory.write("bad.png", "not an image at all")
        let keys = ["photos/a.png", "photos/bad.png", "photos/c.png"]
        let moto = try await MotoS3Server.start(bucket: "bad-bucket", keys: keys, bodies: [
            "photos/a.png": directory.file("dark.png"), "photos/bad.png": directory.file("bad.png"), "photos/c.png": directory.file("dark.png"),
        ])
        try Self.writeManifest(in: directory, name: "bad-night", endpoint: moto.endpoint, bucket: "bad-bucket", secret: moto.secret, include: "*.png")
        let environment = ["NIGHT_KEY_ID": moto.accessKeyID]
        let first = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url, environment: environment)
        #expect(first.status == 1 && first.stdout.contains("files 2 done, 1 failed"), "\(first.stdout) \(first.stderr)")
        #expect(Set(Self.files(under: directory.file("out"))) == ["a.png", "c.png"])
        let failed = try await BinaryRunner.run(["report", "latest", "--manifest", "m.yaml", "--failed", "--format", "paths"], in: directory.url)
        #expect(failed.stdout == "bad.png\n", "\(failed.stdout)")
        let page = try await BinaryRunner.run(["report", "latest", "--manifest", "m.yaml", "--format", "html", "--output", "night.html"],
                                              in: directory.url)
        let html = try String(contentsOfFile: directory.file("night.html"), encoding: .utf8)
        #expect(page.status == 0 && html.contains("bad.png") && html.contains("a.png"), "the page names the objects by their paths below the prefix")
        let next = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url, environment: environment)
        #expect(next.stdout.contains("0 files") && next.stdout.contains("1 known bad"), "\(next.stdout)")
    }

    @Test func aListingRefusedForItsCredentialsExits77AndABucketThatDoesNotAnswer69() async throws {
        let moto = try await Self.crashBucket.value
        let directory = try TemporaryDirectory()
        try directory.write("s3.secret", "not-the-secret-7f3a")
        chmod(directory.file("s3.secret"), 0o600)
        for (name, endpoint) in [("refused", moto.endpoint), ("silent", "http://127.0.0.1:9")] {
            try directory.write("\(name).yaml", """
                version: 1
                name: \(name)
                inputs:
                  s3: {endpoint: "\(endpoint)", bucket: crash-bucket, access_key_id_env: NIGHT_KEY_ID,
                       secret_access_key_file: s3.secret, template_credentials: night}
                  include: "**/*.png"
                resize: {width: 2, height: 2}
                state_dir: state-\(name)

                """)
        }
        let refused = try await BinaryRunner.run(["run", "refused.yaml"], in: directory.url, environment: ["NIGHT_KEY_ID": moto.accessKeyID])
        #expect(refused.status == 77 && refused.stderr.contains("SignatureDoesNotMatch"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("not-the-secret-7f3a") && !refused.stdout.contains("not-the-secret-7f3a"))
        let silent = try await BinaryRunner.run(["plan", "silent.yaml"], in: directory.url, environment: ["NIGHT_KEY_ID": moto.accessKeyID])
        #expect(silent.status == 69, "\(silent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.file("state-refused/ledger.sqlite")), "nothing recorded")
    }

    @Test func aNightImportsEachObjectOnceTheNextSendsNothingAndThenOnlyWhatChanged() async throws {
        let directory = try TemporaryDirectory()
        try await Self.png(directory.file("dark.png"), shade: 20)
        try await Self.png(directory.file("light.png"), shade: 230)
        let keys = (0..<5_000).map(Self.key) + ["photos/2026/notes.txt", "other/x.png"]
        let moto = try await MotoS3Server.start(bucket: "night-bucket", keys: keys,
                                                bodies: Dictionary(uniqueKeysWithValues: keys.map { ($0, directory.file("dark.png")) }))
        try Self.writeManifest(in: directory, name: "bucket-night", endpoint: moto.endpoint, bucket: "night-bucket", secret: moto.secret, extra: "shards: {files: 100}")
        let environment = ["NIGHT_KEY_ID": moto.accessKeyID]

        let first = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url, environment: environment)
        #expect(first.status == 0, "\(first.stderr)")
        let made = Self.files(under: directory.file("out"))
        #expect(made.count == 5_000, "\(first.stdout)\n\(first.stderr)")
        let expected = Set((0..<5_000).map { String(Self.key($0).dropFirst("photos/".count)) })
        #expect(Set(made).symmetricDifference(expected).isEmpty, "\(Set(made).symmetricDifference(expected).count) outputs differ")
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("out/2026/d1/img 1.png")))

        let quiet = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url, environment: environment)
        #expect(quiet.stdout.contains("0 files") && quiet.stdout.contains("5000 skipped"), "\(quiet.stdout)")
        let second = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url, environment: environment)
        #expect(second.status == 0, "\(second.stderr)")

        try await moto.put(Self.key(1), bodyFile: directory.file("light.png"))
        try await moto.put("photos/2026/new one.png", bodyFile: directory.file("light.png"))
        try await moto.delete(Self.key(2))
        let busy = try await BinaryRunner.run(["plan", "m.yaml"], in: directory.url, environment: environment)
        #expect(busy.stdout.contains("2 files") && busy.stdout.contains("4998 skipped"), "\(busy.stdout)")
        let third = try await BinaryRunner.run(["run", "m.yaml"], in: directory.url, environment: environment)
        #expect(third.status == 0, "\(third.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/2026/new one.png")))
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("out/2026/d1/img 1.png"))) != before, "made again from its new bytes")

        let check = try await BinaryRunner.run(["check", "m.yaml"], in: directory.url, environment: environment)
        #expect(check.stdout.contains("out/2026/d2/img 2.png"), "the deleted object's output is an orphan: \(check.stdout)")
        #expect(check.status == 0 && check.stdout.contains("0 missing, 0 changed; 1 done file whose input is gone"), "\(check.stdout)")

        for outcome in [first, second, third, quiet, busy, check] {
            #expect(!outcome.stdout.contains(moto.secret) && !outcome.stderr.contains(moto.secret))
        }
        for file in Self.files(under: directory.file("state")) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: directory.file("state/\(file)")))
            #expect(bytes.range(of: Data(moto.secret.utf8)) == nil, "the secret is in state/\(file)")
        }
    }
}
