import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// One of the two servers, started from the built binary for one hostile case, and the checks every case ends with.
///
/// After a case the server must still run, answer a normal request within ``healthyLatency``,
/// stay under its RSS bound, have written nothing outside its data directory, and never have
/// printed its secret or a token.
final class HostileServer {
    enum Kind {
        case serve
        case signServer
    }

    /// How fast a normal request must be answered after a case (the best of three tries).
    static let healthyLatency: Duration = .milliseconds(100)
    /// The resident memory each server stays under (docs/local-service.md, docs/signing.md).
    static func rssBound(_ kind: Kind) -> Int { kind == .serve ? 192 << 20 : 64 << 20 }
    /// The name every path-traversal payload aims at; it must never appear outside the data directory.
    static let marker = "hostile-marker"

    let kind: Kind
    let directory: TemporaryDirectory
    let child: ChildServer
    let port: UInt16
    let key = "hostilekey0123456789abcdef012345"
    let secret = "hostile-secret-\(UUID().uuidString)"
    let token = "hostile-token-\(UUID().uuidString)"

    /// Starts `serve` (signatures required, no rate limits) or `sign-server` (with `patterns` as its field patterns).
    init(_ kind: Kind, fieldPatterns: [String: String] = ["album": "[a-z0-9-]{1,32}"]) async throws {
        Self.raiseDescriptorLimit
        self.kind = kind
        directory = try TemporaryDirectory()
        let arguments: [String]
        switch kind {
        case .serve:
            arguments = [
                "serve", "--listen", "127.0.0.1:0", "--data-dir", directory.url.appendingPathComponent("data").path,
                "--key", key, "--secret-env", "HOSTILE_SECRET", "--creations-per-minute", "0", "--status-per-second", "0",
            ]
        case .signServer:
            let fields = fieldPatterns.map { "  \($0.key): '\($0.value)'" }.sorted().joined(separator: "\n")
            let policy = """
                key: \(key)
                secret_env: HOSTILE_SECRET
                tokens_sha256: [\(Hex.encode(Digest.sha256(Array(token.utf8))))]
                templates: [tpl]
                fields:
                \(fields)
                requests_per_minute: 100000
                """
            let file = try directory.write("policy.yaml", policy)
            arguments = ["sign-server", "--policy", file.path, "--listen", "127.0.0.1:0"]
        }
        child = try ChildServer(arguments, in: directory.url, name: "server", environment: ["HOSTILE_SECRET": secret])
        port = UInt16(try await child.port())
    }

    deinit {
        child.stop()
    }

    // MARK: - Requests

    /// Sends `request` on a fresh connection from `source` and reads the answer.
    func exchange(_ request: [UInt8], source: String = "127.0.0.1", timeout: Duration = .seconds(10)) throws -> RawReply {
        let connection = try #require(RawConnection(port: port, source: source))
        connection.send(request)
        let (bytes, closed) = connection.receive(timeout: timeout)
        return RawReply(bytes: bytes, closed: closed)
    }

    /// `exchange` with text.
    func exchange(_ request: String, source: String = "127.0.0.1") throws -> RawReply {
        try exchange(Array(request.utf8), source: source)
    }

    /// Signed params with this server's key, a far expiry and a fresh nonce, plus `members`.
    func params(_ members: [String: JSONValue]) -> String {
        var object = members
        object["auth"] = .object([
            "key": .string(key), "expires": .string("2099/01/01 00:00:00+00:00"), "nonce": .string(UUID().uuidString),
        ])
        return JSONValue.object(object).serialized
    }

    func signature(_ params: String) -> String {
        HMAC.transloaditSignature(params: params, secret: secret, algorithm: .sha384)
    }

    /// A urlencoded POST of `fields` to `path`.
    static func form(_ path: String, _ fields: [(String, String)], extraHeaders: String = "") -> String {
        let body = fields.map { "\(FormURLEncoding.escape($0.0))=\(FormURLEncoding.escape($0.1))" }.joined(separator: "&")
        return "POST \(path) HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\n\(extraHeaders)"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    /// Creates an Assembly that expects `uploads` tus uploads; returns its ID.
    func createTusAssembly(uploads: Int = 1) throws -> String {
        let params = params(["steps": .object([":original": .object(["robot": .string("/upload/handle")])])])
        let reply = try exchange(Self.form("/assemblies", [
            ("params", params), ("signature", signature(params)), ("tus_num_expected_upload_files", String(uploads)),
        ]))
        let id = try #require(reply.json?.objectValue?["assembly_id"]?.stringValue, "creation answered \(reply.text)")
        return id
    }

    /// Creates a tus upload of `length` bytes for `assembly`; returns its path (`/resumable/files/<id>`).
    func createUpload(assembly: String, length: Int) throws -> String {
        let metadata = "assembly_url \(Data("http://h/assemblies/\(assembly)".utf8).base64EncodedString()),filename \(Data("a.bin".utf8).base64EncodedString())"
        let reply = try exchange(
            "POST /resumable/files/ HTTP/1.1\r\nHost: h\r\nTus-Resumable: 1.0.0\r\nUpload-Length: \(length)\r\n"
                + "Upload-Metadata: \(metadata)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        let location = try #require(reply.header("Location"), "tus creation answered \(reply.text)")
        return try #require(URL(string: location)?.path)
    }

    // MARK: - Health

    /// The checks every case ends with; `label` names the case in failures.
    func expectHealthy(after label: String) throws {
        #expect(child.process.isRunning, "\(label): the server is gone: \(child.errors.suffix(2000))")
        guard child.process.isRunning else { return }
        let latency = (0..<3).map { _ in measureNormalRequest() }.min() ?? .seconds(60)
        #expect(latency <= Self.healthyLatency, "\(label): a normal request took \(latency)")
        let rss = residentBytes()
        #expect(rss <= Self.rssBound(kind), "\(label): RSS \(rss >> 20) MiB")
        #expect(filesOutsideDataDirectory().isEmpty, "\(label): wrote \(filesOutsideDataDirectory())")
        let printed = child.output + child.errors
        #expect(!printed.contains(secret) && !printed.contains(token), "\(label): a secret reached the output")
    }

    /// The time a normal request takes on a fresh connection: a status of an unknown Assembly, or an unauthorized sign.
    private func measureNormalRequest() -> Duration {
        let request = kind == .serve
            ? "GET /assemblies/\(String(repeating: "0", count: 32)) HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
            : "POST /sign HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        let expected = kind == .serve ? "HTTP/1.1 404 " : "HTTP/1.1 401 "
        let clock = ContinuousClock()
        let start = clock.now
        guard let reply = try? exchange(request), reply.text.hasPrefix(expected) else { return .seconds(60) }
        return start.duration(to: clock.now)
    }

    /// VmRSS of the server process, from /proc.
    func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(child.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) << 10
    }

    /// Paths named like ``marker`` under the test's directory (outside `data/`) or the system temp directory.
    private func filesOutsideDataDirectory() -> [String] {
        var found: [String] = []
        let manager = FileManager.default
        for base in [directory.url.path, NSTemporaryDirectory()] {
            for entry in (try? manager.contentsOfDirectory(atPath: base)) ?? [] where entry.contains(Self.marker) {
                found.append("\(base)/\(entry)")
            }
        }
        let data = directory.url.appendingPathComponent("data").path
        if let walker = manager.enumerator(atPath: directory.url.path) {
            for case let path as String in walker where path.contains(Self.marker) && !"\(directory.url.path)/\(path)".hasPrefix(data) {
                found.append(path)
            }
        }
        return found
    }

    /// A hostile test holds hundreds of sockets: the soft descriptor limit goes up to the hard one, once.
    private static let raiseDescriptorLimit: Void = {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }()
}

/// What came back on one hostile connection.
struct RawReply {
    var bytes: [UInt8]
    /// The server closed the connection.
    var closed: Bool

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The status code of the answer, nil when none came.
    var status: Int? {
        guard text.hasPrefix("HTTP/1.") else { return nil }
        return Int(text.split(separator: " ").dropFirst().first ?? "")
    }

    var body: String {
        text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
    }

    var json: JSONValue? { try? JSONValue(parsing: Array(body.utf8)) }

    func header(_ name: String) -> String? {
        let head = text.range(of: "\r\n\r\n").map { text[..<$0.lowerBound] } ?? Substring(text)
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
