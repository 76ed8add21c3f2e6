import Foundation
import Synchronization

/// moto's S3 (`s3_server.py`) on an ephemeral loopback port, seeded by boto3 with one object per key, checking SigV4.
///
/// Shared by the bucket listing's tests (CurlTransportTests) and the local service's import Robots' (LocalTransloaditTests).
///
/// The script runs in the project's venv (`.venv`, which `make` fills with `moto[server]` and `boto3`).
/// The access key it created reaches the test through the script's standard output, never argv. The
/// server exits when its stdin closes, so it never outlives the test process; `deinit` also terminates it.
package final class MotoS3Server: Sendable {
    package let endpoint: String
    package let accessKeyID: String
    package let secret: String
    package let region: String
    private let process: Process
    private let stdin: Pipe
    private let stdout: Pipe
    /// One command at a time on the pipes: each waits for its own `ok`.
    private let commands = Mutex(())
    private let directory: TemporaryDirectory

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The venv's Python, or the one `ASSEMBLYLINE_TEST_PYTHON` names (a venv of another checkout that holds moto).
    static let python = ProcessInfo.processInfo.environment["ASSEMBLYLINE_TEST_PYTHON"] ?? root.appendingPathComponent(".venv/bin/python").path
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("s3_server.py").path

    /// What the script prints once the bucket is seeded.
    private struct Ready: Decodable {
        var port: Int
        var accessKeyID: String
        var secret: String
        var region: String
    }

    /// Starts moto with `bucket` holding `keys` (each object's body its key's bytes, or the file `bodies` names for
    /// it), and waits for the seeding on a thread of its own, so that parallel tests never block the cooperative pool.
    package static func start(bucket: String, keys: [String], bodies: [String: String] = [:]) async throws -> MotoS3Server {
        try await offThePool { try MotoS3Server(bucket: bucket, keys: keys, bodies: bodies) }
    }

    private init(bucket: String, keys: [String], bodies: [String: String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python) else {
            throw ChildServer.Failure(message: "\(Self.python) is missing: `make .venv/installed` installs moto and boto3")
        }
        directory = try TemporaryDirectory()
        let lines = keys.map { key in bodies[key].map { "\(key)\t\($0)\n" } ?? "\(key)\n" }
        let keysFile = try directory.write("keys.txt", Array(lines.joined().utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.python)
        process.arguments = [Self.script, bucket, keysFile]
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.write("moto.err", [])))
        let stdin = ChildLaunch.pipe(), stdout = ChildLaunch.pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try ChildLaunch.run(process)

        let line = stdout.firstLine()
        guard let ready = try? JSONDecoder().decode(Ready.self, from: line) else {
            process.terminate()
            let errors = (try? String(contentsOfFile: directory.file("moto.err"), encoding: .utf8)) ?? ""
            throw ChildServer.Failure(message: "s3_server.py did not start: \(errors.suffix(2000))")
        }
        endpoint = "http://127.0.0.1:\(ready.port)"
        accessKeyID = ready.accessKeyID
        secret = ready.secret
        region = ready.region
        self.process = process
        self.stdin = stdin
        self.stdout = stdout
    }

    /// Puts `key` with the bytes of the file `bodyFile` (boto3, signed), as a night's producer would; returns once it is stored.
    package func put(_ key: String, bodyFile: String) async throws {
        try await command("put\t\(key)\t\(bodyFile)\n")
    }

    /// Deletes `key` (boto3, signed); returns once it is gone.
    package func delete(_ key: String) async throws {
        try await command("delete\t\(key)\n")
    }

    /// Sends the script one command line and waits for its `ok`, off the cooperative pool.
    private func command(_ line: String) async throws {
        let answer = try await offThePool { [self] in
            try commands.withLock { _ in
                try stdin.fileHandleForWriting.write(contentsOf: Data(line.utf8))
                return stdout.firstLine()
            }
        }
        guard String(decoding: answer, as: UTF8.self).hasPrefix("ok") else {
            throw ChildServer.Failure(message: "s3_server.py did not do \(line.prefix { $0 != "\t" })")
        }
    }

    deinit {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
    }
}
