import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import HTTPServer
import Synchronization

/// A Transloadit imitation on loopback that answers as one hostile behaviour says: written for these tests alone.
///
/// It takes a creation (`POST /assemblies/<id>`, the files' fields read from the multipart body),
/// answers its status (`GET /assemblies/<id>`) and its cancel, and serves results under `/r/`. What
/// each answer holds is the behaviour's; an honest result of `file_<index>` holds ``content(of:)``.
/// A neighbour on another port of the same host serves the same results (`GET neighbour/r/...`
/// counts them): another service of the machine, where no result of this one may come from.
final class MisbehavingService: Sendable {
    /// One created Assembly, as the behaviour sees it.
    struct Assembly: Sendable {
        var id: String
        /// The file fields of the creating request (`file_<index>`), in order.
        var fields: [String]
        var base: String
        /// The neighbour's base URL: the same host, another port.
        var neighbour: String
    }

    /// What the service answers.
    struct Behaviour: Sendable {
        /// The answer to the creating request: executing, honestly, unless a case says otherwise.
        var created: @Sendable (Assembly) -> HTTPResponse = { assembly in
            .json(#"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(assembly.id)","assembly_ssl_url":"\#(assembly.base)/assemblies/\#(assembly.id)"}"#)
        }
        /// The answer to a status request.
        var status: @Sendable (Assembly) -> HTTPResponse
        /// The answer to `GET /r/<name>`: an honest result's bytes unless a case says otherwise.
        var result: @Sendable (String) -> HTTPResponse = { name in MisbehavingService.bytes(MisbehavingService.content(of: name)) }
    }

    /// Requests by method and first path segment.
    private final class Tally: Sendable {
        let counts = Mutex<[String: Int]>([:])
    }

    private let server: HTTPServer
    private let neighbour: HTTPServer
    private let tally = Tally()

    init(_ behaviour: Behaviour) throws {
        let created = Mutex<[String: Assembly]>([:])
        let base = Mutex("")
        let tally = self.tally
        neighbour = try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            tally.counts.withLock { $0["neighbour \(request.method.rawValue) \(request.pathSegments.first ?? "")", default: 0] += 1 }
            guard request.method == .get, request.pathSegments.first == "r" else { return .respond(.json(#"{"error":"NOT_FOUND"}"#, status: 404)) }
            return .respond(behaviour.result(request.pathSegments.dropFirst().joined(separator: "/")))
        }
        let neighbourURL = neighbour.baseURL
        server = try HTTPServer(configuration: HTTPServerConfiguration(port: 0)) { request in
            let segments = request.pathSegments
            tally.counts.withLock { $0["\(request.method.rawValue) \(segments.first ?? "")", default: 0] += 1 }
            switch (request.method, segments.first, segments.count) {
            case (.post, "assemblies", 2):
                let id = segments[1]
                return .buffer(limit: 64 << 20) { _, body in
                    let assembly = Assembly(id: id, fields: Self.fields(in: body), base: base.withLock { $0 }, neighbour: neighbourURL)
                    created.withLock { $0[id] = assembly }
                    return behaviour.created(assembly)
                }
            case (.get, "assemblies", 2):
                guard let assembly = created.withLock({ $0[segments[1]] }) else {
                    return .respond(.json(#"{"error":"ASSEMBLY_NOT_FOUND","message":"no such Assembly"}"#, status: 404))
                }
                return .respond(behaviour.status(assembly))
            case (.delete, "assemblies", 2):
                return .respond(.json(#"{"ok":"ASSEMBLY_CANCELED","assembly_id":"\#(segments[1])"}"#))
            case (.get, "r", _):
                return .respond(behaviour.result(segments.dropFirst().joined(separator: "/")))
            default:
                return .respond(.json(#"{"error":"NOT_FOUND"}"#, status: 404))
            }
        }
        base.withLock { $0 = server.baseURL }
    }

    deinit {
        server.stop()
        neighbour.stop()
    }

    var url: String { server.baseURL }

    /// How many requests of `method` to the first path segment (`GET r`, `POST assemblies`, `neighbour GET r`) came.
    func count(_ method: String, _ segment: String) -> Int {
        tally.counts.withLock { $0["\(method) \(segment)", default: 0] }
    }

    /// The bytes of an honest result for `name`: they name it, so a test can tell whose output a file is.
    static func content(of name: String) -> [UInt8] {
        Array("output of \(name)\n".utf8)
    }

    /// A 200 answer of raw bytes.
    static func bytes(_ bytes: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: .bytes(bytes))
    }

    /// A completed status of `assembly` with these result entries under the step `resize`.
    static func completed(_ assembly: Assembly, id: String? = nil, results: [String]) -> HTTPResponse {
        let named = id ?? assembly.id
        return .json(#"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(named)","assembly_ssl_url":"\#(assembly.base)/assemblies/\#(named)","#
            + #""results":{"resize":[\#(results.joined(separator: ","))]}}"#)
    }

    /// An honest result entry of `field`, named `name` (the input's stem and `.png`), served from `/r/<field>`;
    /// `declared` false leaves out its `size` and `md5hash`, as node-sdk's schema allows.
    static func entry(_ assembly: Assembly, field: String, name: String, served: String? = nil, url: String? = nil,
                      declared: Bool = true) -> String {
        let bytes = content(of: served ?? field)
        let checks = declared ? #""size":\#(bytes.count),"md5hash":"\#(Hex.encode(Digest.md5(bytes)))","# : ""
        return #"{"id":"r-\#(served ?? field)","name":"\#(name)","ext":"png","field":"\#(field)",\#(checks)"#
            + #""ssl_url":"\#(url ?? "\(assembly.base)/r/\(served ?? field)")"}"#
    }

    /// The `file_<index>` fields of a multipart body, in order.
    static func fields(in body: [UInt8]) -> [String] {
        let text = String(decoding: body.prefix(1 << 20), as: UTF8.self)
        return text.matches(of: /name="(file_\d+)"/).map { String($0.1) }
    }
}

/// A body that never ends: 64 KiB of zeros at every call.
struct EndlessBody: HTTPBodyStream {
    func next(waitingAtMost timeout: Duration) -> [UInt8]? { [UInt8](repeating: 0, count: 64 << 10) }
    func close() {}
}

/// A body that trickles for ever: one byte of `text` each half second, then spaces (JSON's own whitespace).
final class TrickleBody: HTTPBodyStream, Sendable {
    private let rest: Mutex<[UInt8]>

    init(_ text: String) {
        rest = Mutex(Array(text.utf8))
    }

    func next(waitingAtMost timeout: Duration) -> [UInt8]? {
        let (seconds, attoseconds) = timeout.components
        let wait = Double(seconds) + Double(attoseconds) / 1e18
        Thread.sleep(forTimeInterval: min(0.5, wait))
        guard wait >= 0.5 else { return [] }
        return rest.withLock { rest in rest.isEmpty ? [UInt8(ascii: " ")] : [rest.removeFirst()] }
    }

    func close() {}
}
