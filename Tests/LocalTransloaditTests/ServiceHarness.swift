import AssemblyLine
import ConfigFormat
import CurlTransport
import Digests
import Foundation
import HTTPMessages
import ImageRobot
@testable import LocalTransloadit
import Synchronization
import TestSupport

/// A decoded HTTP answer of the service.
struct Answer: Sendable {
    var status: Int
    var json: JSONValue
    var headers: HTTPHeaders

    subscript(key: String) -> JSONValue? { json[key] }
}

/// The real service on 127.0.0.1:0 with its own data directory, and a libcurl client for it.
final class ServiceHarness: Sendable {
    let directory: TemporaryDirectory
    let service: RunningService
    /// The service's clock: the time signed params expire after.
    let clock: any PipelineClock
    let transport = CurlTransport()
    let logLines = Recorder<String>()
    let counter = Atomic<Int>(0)

    /// Starts a service; `configure` adjusts the configuration (the data directory is set already).
    init(directory: TemporaryDirectory? = nil, configure: (inout LocalServiceConfiguration) -> Void = { _ in }) throws {
        let directory = try directory ?? TemporaryDirectory()
        self.directory = directory
        var configuration = LocalServiceConfiguration(dataDirectory: directory.file("data"), workers: 2, statusRequestsPerSecond: 0)
        let lines = logLines
        configuration.log = ServiceLog { lines.append($0) }
        configure(&configuration)
        clock = configuration.clock
        service = try LocalService.start(configuration)
    }

    deinit {
        service.stop()
    }

    /// The API host.
    var base: String { service.baseURL }
    /// The machine that status and tus URLs name, apart from the API host as in production.
    var machine: String { service.machineURL }

    // MARK: - Params

    /// Serialized params with this service's key, an expiry and (unless `nonce` is false) a fresh nonce.
    func params(_ members: [String: JSONValue], expires: String? = nil, nonce: Bool = true) -> String {
        var auth: [String: JSONValue] = ["key": .string(service.key)]
        auth["expires"] = .string(expires ?? Self.expiry(in: 300))
        if nonce { auth["nonce"] = .string(UUID().uuidString) }
        var object = members
        object["auth"] = .object(auth)
        return JSONValue.object(object).serialized
    }

    /// `YYYY/MM/DD HH:MM:SS+00:00`, `seconds` after `start` (now unless given: a service on a manual clock needs its time).
    static func expiry(in seconds: Double, after start: Date = Date()) -> String {
        let time = UTCDateTime(start.addingTimeInterval(seconds))
        func pad(_ value: Int, _ width: Int = 2) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(pad(time.year, 4))/\(pad(time.month))/\(pad(time.day)) \(pad(time.hour)):\(pad(time.minute)):\(pad(time.second))+00:00"
    }

    func sign(_ params: String) -> String {
        HMAC.transloaditSignature(params: params, secret: service.secret)
    }

    /// Steps that resize `:original` with these options.
    static func resizeSteps(_ options: [String: JSONValue]) -> [String: JSONValue] {
        var step = options
        step["robot"] = .string("/image/resize")
        step["use"] = .string(":original")
        return ["steps": .object(["resized": .object(step)])]
    }

    // MARK: - Requests

    /// A multipart creation: params, signature (signed unless given), extra fields, then files.
    func create(
        params: String, signature: String? = nil, fields: [(String, String)] = [], files: [(field: String, path: String)] = [],
        id: String? = nil
    ) async throws -> Answer {
        var form = MultipartFormBody()
        form.append(name: "params", value: params)
        for (name, value) in fields { form.append(name: name, value: value) }
        form.append(name: "signature", value: signature ?? sign(params))
        for file in files { form.appendFile(name: file.field, path: file.path) }
        let url = id.map { "\(base)/assemblies/\($0)" } ?? "\(base)/assemblies"
        return try await send(try HTTPRequestSpec.multipart(.post, url, form: form))
    }

    /// Creates an Assembly resizing `files` with `options`, and waits for it to end.
    func resize(_ files: [(field: String, path: String)], options: [String: JSONValue]) async throws -> Answer {
        let created = try await create(params: params(Self.resizeSteps(options)), files: files)
        guard created.status == 200, let id = created["assembly_id"]?.stringValue else { return created }
        return try await waitForEnd(id)
    }

    func get(_ pathOrURL: String) async throws -> Answer {
        try await send(.get(pathOrURL.hasPrefix("http") ? pathOrURL : base + pathOrURL))
    }

    func send(_ request: HTTPRequestSpec) async throws -> Answer {
        let response = try await transport.send(request)
        let bytes = response.bodyBytes
        let json = bytes.isEmpty ? JSONValue.null : ((try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self))) ?? .string(String(decoding: bytes, as: UTF8.self)))
        return Answer(status: response.status, json: json, headers: response.headers)
    }

    /// Polls an Assembly until it is no longer uploading or executing (10 s at most).
    func waitForEnd(_ id: String, timeout: Duration = .seconds(20)) async throws -> Answer {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let answer = try await get("/assemblies/\(id)")
            let ok = answer["ok"]?.stringValue
            if answer.status == 200, ok != "ASSEMBLY_UPLOADING", ok != "ASSEMBLY_EXECUTING" { return answer }
            guard clock.now < deadline else { return answer }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Downloads a URL to a file in the temp dir and returns the response and the path.
    func download(_ url: String) async throws -> (response: HTTPResponseInfo, path: String) {
        let path = directory.file("download-\(counter.add(1, ordering: .relaxed).newValue)")
        let response = try await transport.send(.get(url), to: .file(path: path))
        return (response, path)
    }

    /// Writes a gradient image and returns its path.
    func image(_ name: String, width: Int, height: Int, format: ImageFormat = .jpg) throws -> String {
        let path = directory.file(name)
        try SampleImage.writeGradient(to: path, width: width, height: height, format: format)
        return path
    }

    /// Writes `text` to a file and returns its path.
    func textFile(_ name: String, _ text: String) throws -> String {
        let path = directory.file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    var log: [String] { logLines.all }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? { objectValue?[key] }

    subscript(index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }

    var intValue: Int? {
        switch self {
        case .integer(let value): return Int(value)
        case .number(let value): return Int(value)
        default: return nil
        }
    }

    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}
