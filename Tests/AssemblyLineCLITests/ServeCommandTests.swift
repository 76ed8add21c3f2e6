import Foundation
import Synchronization
import TestSupport
import Testing

/// `assemblyline serve` as a built binary: what it prints, where the secret goes, how it stops.
@Suite(.timeLimit(.minutes(3))) struct ServeCommandTests {
    /// A running `serve` process whose output is collected as it comes.
    final class ServeProcess: Sendable {
        /// Text collected from one pipe.
        final class Buffer: Sendable {
            private let text = Mutex("")

            func append(_ data: Data) { text.withLock { $0 += String(decoding: data, as: UTF8.self) } }

            var value: String { text.withLock { $0 } }
        }

        let process: Process
        private let stdout = Buffer()
        private let stderr = Buffer()

        init(_ arguments: [String], in directory: URL) throws {
            let process = Process()
            process.executableURL = BinaryRunner.binary
            process.arguments = ["serve"] + arguments
            process.currentDirectoryURL = directory
            process.environment = ["PATH": "/usr/bin:/bin"]
            process.standardInput = FileHandle.nullDevice
            self.process = process
            let (stdout, stderr) = (stdout, stderr)
            let out = ChildLaunch.pipe(), err = ChildLaunch.pipe()
            process.standardOutput = out
            process.standardError = err
            for (pipe, buffer) in [(out, stdout), (err, stderr)] {
                pipe.fileHandleForReading.readabilityHandler = { handle in
                    let data = handle.availableData
                    if data.isEmpty {
                        handle.readabilityHandler = nil
                    } else {
                        buffer.append(data)
                    }
                }
            }
            try ChildLaunch.run(process)
        }

        /// A test that ends before it stops the service (a failed `#require`) leaves no `serve` behind.
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }

        var output: String { stdout.value }
        var errors: String { stderr.value }

        /// Standard output's lines once `enough` says so of them (10 s at most).
        private func lines(until enough: ([String]) -> Bool) async throws -> [String] {
            for _ in 0..<500 {
                let lines = output.split(separator: "\n").map(String.init)
                if enough(lines) { return lines }
                try await Task.sleep(for: .milliseconds(20))
            }
            return output.split(separator: "\n").map(String.init)
        }

        /// Standard output's lines once at least `count` have arrived (10 s at most).
        func lines(atLeast count: Int) async throws -> [String] {
            try await lines { $0.count >= count }
        }

        /// Standard output's lines once `serve` has printed the last of its start (its data directory; 10 s at most).
        func startLines() async throws -> [String] {
            try await lines { $0.contains { $0.hasPrefix("data directory: ") } }
        }

        /// Sends `signal` once `serve` has started, and waits for the exit status. Before its start ends, `serve` has not
        /// yet taken over SIGINT and SIGTERM: a signal then ends it at once (or, inherited ignored, was lost, 2026-12-05).
        func stop(with signal: Int32 = SIGTERM) async -> Int32 {
            _ = try? await startLines()
            kill(process.processIdentifier, signal)
            await process.ended()
            return process.terminationStatus
        }
    }

    /// What `curl` prints for a GET.
    static func curl(_ url: String) async throws -> String {
        try await BinaryRunner.run(["-sS", "--max-time", "10", url], in: FileManager.default.temporaryDirectory,
                                   executable: URL(fileURLWithPath: "/usr/bin/curl")).stdout
    }

    @Test func servesPrintsItsAddressFirstAndKeepsTheSecretToAFile() async throws {
        let directory = try TemporaryDirectory()
        let serve = try ServeProcess(["--listen", "127.0.0.1:0", "--data-dir", "state"], in: directory.url)
        let lines = try await serve.lines(atLeast: 3)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("listening on http://127.0.0.1:"))
        let base = String(first.dropFirst("listening on ".count))
        let port = try #require(Int(base.split(separator: ":").last ?? ""))
        #expect(port > 0 && port != 9442)
        let keyLine = try #require(lines.first { $0.hasPrefix("auth key: ") })
        let key = String(keyLine.dropFirst("auth key: ".count))
        #expect(key.count == 32)

        let secretPath = directory.url.appendingPathComponent("state/auth-secret").path
        let attributes = try FileManager.default.attributesOfItem(atPath: secretPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let secret = try String(contentsOfFile: secretPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.count == 40)
        #expect(lines.contains { $0.contains(secretPath) })

        let answer = try await Self.curl("\(base)/nowhere")
        #expect(answer.contains("\"error\":\"SERVER_404\""))
        #expect(await serve.stop() == 0)
        #expect(!serve.output.contains(secret))
        #expect(!serve.errors.contains(secret))

        let again = try ServeProcess(["--listen", "127.0.0.1:0", "--data-dir", "state"], in: directory.url)
        let relines = try await again.startLines()
        #expect(relines.contains("auth key: \(key)"))
        #expect(await again.stop(with: SIGINT) == 0)
    }

    @Test func onEveryAddressItPrintsTheAddressAsBound() async throws {
        let directory = try TemporaryDirectory()
        let serve = try ServeProcess(["--listen", "0.0.0.0:0", "--data-dir", "state"], in: directory.url)
        let lines = try await serve.lines(atLeast: 4)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("listening on http://0.0.0.0:"))
        #expect(lines.count > 1 && lines[1].hasPrefix("machine: http://0.0.0.0:"))
        #expect(lines.contains { $0.hasPrefix("urls: ") && $0.contains("the host each request came in on") })
        let port = String(first.split(separator: ":").last ?? "")
        #expect(try await Self.curl("http://127.0.0.2:\(port)/nowhere").contains("\"error\":\"SERVER_404\""))
        #expect(await serve.stop() == 0)
    }

    @Test func badTemplatesFileExits65WithItsPlace() async throws {
        let directory = try TemporaryDirectory()
        try directory.write("templates.yaml", "thumbs:\n  steps: 5\n")
        let outcome = try await BinaryRunner.run(["serve", "--listen", "127.0.0.1:0", "--data-dir", "d", "--templates", "templates.yaml"], in: directory.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("templates.yaml:2:10: thumbs.steps: expected a mapping"))
        #expect(outcome.stdout.isEmpty)
    }

    /// `--template-credentials`: a secret file (mode 600 or stricter), decoded strictly without quoting a line, the names
    /// printed and never a secret, and import steps that reach the bucket through the transport `serve` wires.
    @Test func templateCredentialsAreASecretFileWhoseBucketsImportStepsReach() async throws {
        let directory = try TemporaryDirectory()
        let secret = "night-secret-4f1d9c"
        func credentials(_ bucket: String, mode: Int) throws -> String {
            let path = try directory.write("creds.json", Array("""
                {"night": {"type": "s3", "endpoint": "http://127.0.0.1:1", "region": "us-east-1", "bucket": "\(bucket)", "key": "AKIDNIGHT", "secret": "\(secret)"}}
                """.utf8))
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
            return path
        }
        let arguments = ["serve", "--listen", "127.0.0.1:0", "--data-dir", "d", "--template-credentials", "creds.json"]
        _ = try credentials("night-bucket", mode: 0o644)
        let open = try await BinaryRunner.run(arguments, in: directory.url)
        #expect(open.status == 78)
        #expect(open.stderr.contains("creds.json") && open.stderr.contains("mode 644"), "\(open.stderr)")
        _ = try credentials("Night_Bucket", mode: 0o600)
        let wrong = try await BinaryRunner.run(arguments, in: directory.url)
        #expect(wrong.status == 65)
        #expect(wrong.stderr.contains("creds.json:1:") && wrong.stderr.contains("night.bucket: the bucket name"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains(secret))
        let broken = try directory.write("creds.json", Array(#"{"night": {"secret": "\#(secret)", "key": [}"#.utf8))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: broken)
        let unparsed = try await BinaryRunner.run(arguments, in: directory.url)
        #expect(unparsed.status == 65 && unparsed.stderr.contains("creds.json:1:"), "\(unparsed.stderr)")
        #expect(!unparsed.stderr.contains(secret))

        _ = try credentials("night-bucket", mode: 0o600)
        let serve = try ServeProcess(Array(arguments.dropFirst()) + ["--no-signature"], in: directory.url)
        let lines = try await serve.lines(atLeast: 5)
        #expect(lines.contains("template credentials: night (secrets never printed)"), "\(lines)")
        let base = String(try #require(lines.first).dropFirst("listening on ".count))
        let key = String(try #require(lines.first { $0.hasPrefix("auth key: ") }).dropFirst("auth key: ".count))
        let bucket = #"{"imported":{"robot":"/s3/import","credentials":"night","path":"a.jpg"}}"#
        let status = try await Self.failedImport(base: base, key: key, steps: bucket, in: directory)
        #expect(status.contains(#""error":"S3_IMPORT_ERROR""#) && status.contains("127.0.0.1:1"), "\(status)")
        let local = #"{"imported":{"robot":"/http/import","url":"\#(base)/nowhere"}}"#
        let refused = try await Self.failedImport(base: base, key: key, steps: local, in: directory)
        #expect(refused.contains(#""error":"IMPORT_URL_REFUSED""#), "\(refused)")
        #expect(await serve.stop() == 0)
        #expect(!serve.output.contains(secret) && !serve.errors.contains(secret) && !status.contains(secret))

        let allowing = try ServeProcess(["--listen", "127.0.0.1:0", "--data-dir", "d", "--no-signature", "--allow-local-imports"], in: directory.url)
        let allowed = try await allowing.lines(atLeast: 4)
        let allowingBase = String(try #require(allowed.first).dropFirst("listening on ".count))
        let allowingKey = String(try #require(allowed.first { $0.hasPrefix("auth key: ") }).dropFirst("auth key: ".count))
        let own = #"{"imported":{"robot":"/http/import","url":"\#(allowingBase)/nowhere"}}"#
        let fetched = try await Self.failedImport(base: allowingBase, key: allowingKey, steps: own, in: directory)
        #expect(fetched.contains(#""error":"IMPORT_FILE_ERROR""#) && fetched.contains("HTTP 404"), "\(fetched)")
        #expect(await allowing.stop() == 0)
    }

    /// The status of an Assembly of `steps` (JSON) created unsigned on `base`, once it has failed (10 s at most).
    static func failedImport(base: String, key: String, steps: String, in directory: TemporaryDirectory) async throws -> String {
        let params = #"{"auth":{"key":"\#(key)"},"steps":\#(steps)}"#
        let created = try await BinaryRunner.run(["-sS", "--max-time", "10", "-F", "params=\(params)", "\(base)/assemblies"], in: directory.url,
                                                 executable: URL(fileURLWithPath: "/usr/bin/curl")).stdout
        let id = try #require(created.firstMatch(of: /"assembly_id":"([0-9a-f]{32})"/)?.1)
        var status = ""
        for _ in 0..<200 where !status.contains(#""error":"#) {
            try await Task.sleep(for: .milliseconds(50))
            status = try await curl("\(base)/assemblies/\(id)")
        }
        return status
    }

    @Test(arguments: [
        ["--listen", "localhost"], ["--key", "k"], ["--secret-env", "S"], ["--secret-env", "A", "--secret-file", "B", "--key", "k"],
        ["--result-ttl", "soon"], ["--workers", "0"],
    ])
    func wrongCommandLinesAreUsageErrors(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        let outcome = try await BinaryRunner.run(["serve"] + arguments, in: directory.url)
        #expect(outcome.status == 64)
        #expect(outcome.stderr.hasPrefix("Error: "))
    }
}
