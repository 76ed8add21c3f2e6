import Foundation
import TestSupport

/// The Python stdlib HTTP server of `test_server.py`, started on an ephemeral loopback port for one test.
///
/// It exits when its stdin closes, so it never outlives the test process; `deinit` also terminates it.
final class TestServer: Sendable {
    let port: Int
    let scheme: String
    private let process: Process
    private let stdin: Pipe

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("test_server.py").path

    /// Starts the server, over TLS with `certificate`/`key` (PEM paths) when given, and waits for its port
    /// on a thread of its own, so that parallel tests never block the cooperative pool.
    static func start(tls: (certificate: String, key: String)? = nil) async throws -> TestServer {
        let tls = tls.map { [$0.certificate, $0.key] }
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try TestServer(tls: tls.map { ($0[0], $0[1]) }) })
            }.start()
        }
    }

    private init(tls: (certificate: String, key: String)?) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.script] + (tls.map { ["--tls", $0.certificate, $0.key] } ?? [])
        let stdin = ChildLaunch.pipe()
        let stdout = ChildLaunch.pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try ChildLaunch.run(process)

        let line = stdout.firstLine()
        guard let text = String(data: line, encoding: .utf8),
              let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestServerError(message: "test_server.py did not print its port")
        }
        self.port = port
        self.process = process
        self.stdin = stdin
        scheme = tls == nil ? "http" : "https"
    }

    /// Closes the server's stdin and sends SIGTERM, without waiting: Foundation's `waitUntilExit` spins
    /// a run loop on Linux and, on the cooperative pool, can starve every other test.
    deinit {
        try? stdin.fileHandleForWriting.close()
        process.terminate()
    }

    /// The absolute URL of `path` (with its query) on this server.
    func url(_ path: String) -> String {
        "\(scheme)://127.0.0.1:\(port)\(path)"
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
