import AssemblyLine
import ConfigFormat
import Digests
import Foundation
import HTTPMessages
import Synchronization
import TestSupport

/// A Transloadit of a few lines on a ``ScriptedTransport``: each Assembly copies its uploads, one result a file.
///
/// A creation answers the Assembly completed (or executing, then completed at the first status
/// request), with a `copy` result per upload that names its field and is served from the input
/// file itself; an input whose name is in ``fail(_:)`` makes its Assembly fail naming it at the first
/// status request, as an execution error does. Rate limits can be asked for, and every creation and cancel is counted.
/// A replay (`POST /assemblies/<id>/replay`) of an Assembly that ended makes a new Assembly of the parent's uploads, as
/// the recipe is now (broken or mended); one of a parent the service does not know is `ASSEMBLY_NOT_FOUND`.
final class ScriptedService: Sendable {
    let transport = ScriptedTransport()

    private struct State {
        var failing: Set<String> = []
        var creationRateLimits = 0
        var statusRateLimits = 0
        var executesFirst = false
        var bundles = false
        var statuses: [String: String] = [:]
        var created: [String] = []
        var canceled: [String] = []
        var unreachable = false
        /// Asked to stop at the first result's download, which is then held until the stop cancels it.
        var stopsAtDownload: RunStop?
        /// Asked to stop at the first status request, which is then held until the stop cancels it.
        var stopsAtStatus: RunStop?
        /// The results made so far are past their lifetime: a download of one is answered 404.
        var expired: Set<String> = []
        /// Every Assembly fails with this code, naming no file (a Robot parameter the service refuses).
        var broken: String?
        /// The files each Assembly holds: those its creating request uploaded, or its parent's for a replay.
        var uploads: [String: [(field: String, path: String)]] = [:]
        /// The files uploaded, in order, by every creating request.
        var uploaded: [String] = []
        /// The replays made: each parent and the new Assembly.
        var replays: [(parent: String, id: String)] = []
        /// Replays are refused `ASSEMBLY_CANNOT_BE_REPLAYED`, as outside the window.
        var refusesReplays = false
        /// The keys (or URLs) each creating request's import step named, in order.
        var imported: [[String]] = []
    }

    private let state = Mutex(State())
    /// Where the bucket's objects are, as files named by their keys: what `imported` steps fetch.
    let bucketDirectory: String?
    /// Where the content of imported URLs is, as files named by each URL's last path segment (as written): what
    /// `/http/import` steps fetch.
    let urlDirectory: String?

    init(bucketDirectory: String? = nil, urlDirectory: String? = nil) {
        self.bucketDirectory = bucketDirectory
        self.urlDirectory = urlDirectory
        transport.script(.post, "\(SessionHarness.endpoint)/assemblies/", times: 100_000) { [self] in create($0) }
        transport.script(.get, "\(SessionHarness.endpoint)/assemblies/", times: 100_000) { [self] in status($0) }
        transport.script(.delete, "\(SessionHarness.endpoint)/assemblies/", times: 100_000) { [self] in cancel($0) }
        transport.script(.get, "https://tmp.test/files?path=", times: 100_000) { [self] request in
            let (stop, expired) = state.withLock { state in
                defer { state.stopsAtDownload = nil }
                return (state.stopsAtDownload, state.expired.contains(request.url))
            }
            guard !expired else { return .bytes(404, []) }
            guard let stop else { return Self.file(request) }
            stop.request(.signal(15))
            return .heldUntilCancelled
        }
        transport.script(.get, SessionHarness.endpoint, times: 100_000) { [self] _ in
            guard !state.withLock({ $0.unreachable }) else { return .failure(.connect(endpoint: SessionHarness.endpoint, reason: "refused")) }
            return .json(404, #"{"error":"SERVER_404"}"#)
        }
    }

    /// At the first download of a result, asks `stop` to stop the run (a SIGTERM), and holds that download until the stop cancels it.
    func stopAtFirstDownload(_ stop: RunStop) { state.withLock { $0.stopsAtDownload = stop } }

    /// At the first status request, asks `stop` to stop the run (a SIGTERM), and holds that request until the stop cancels it.
    func stopAtFirstStatus(_ stop: RunStop) { state.withLock { $0.stopsAtStatus = stop } }

    /// Forgets every Assembly created so far, and their results, as a service does once they are past their lifetime.
    func forgetAssemblies() {
        state.withLock { state in
            state.expired = Set(state.statuses.values.flatMap(Self.resultURLs))
            state.statuses = [:]
        }
    }

    /// The result URLs a status names.
    private static func resultURLs(in status: String) -> [String] {
        status.matches(of: /"ssl_url":"([^"]+)"/).map { String($0.1) }
    }

    /// Makes every Assembly created from now on fail with `code`, naming none of its files, as a broken Template does; nil mends it.
    func breakAssemblies(_ code: String?) { state.withLock { $0.broken = code } }

    /// Refuses the connection of a request to the endpoint itself, as the preflight sends it.
    func refuseConnections() { state.withLock { $0.unreachable = true } }

    /// Makes every Assembly with the input `name` fail with `IMAGE_RESIZE_ERROR` naming it.
    func fail(_ name: String) { state.withLock { _ = $0.failing.insert(name) } }

    /// Answers the next `count` creations `RATE_LIMIT_REACHED` (413) with a hint of 7 s.
    func limitCreations(_ count: Int) { state.withLock { $0.creationRateLimits = count } }

    /// Answers the next `count` status requests 429 `ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED` with a hint of 3 s.
    func limitStatuses(_ count: Int) { state.withLock { $0.statusRateLimits = count } }

    /// Every completed Assembly also makes `archive.txt` of all its inputs (a zip's shape: the same name in every shard),
    /// holding its first input's bytes.
    func bundle() { state.withLock { $0.bundles = true } }

    /// Creations answer the Assembly executing; the first status request finds it completed.
    func executeFirst() { state.withLock { $0.executesFirst = true } }

    /// The Assembly IDs created, in order.
    var created: [String] { state.withLock { $0.created } }

    /// The names of the files every creating request uploaded, in order: a file sent twice is named twice.
    var uploaded: [String] { state.withLock { $0.uploaded } }

    /// The Assemblies replayed, in order.
    var replayedParents: [String] { state.withLock { $0.replays.map(\.parent) } }

    /// Makes the Assemblies `ids` end `ASSEMBLY_CRASHED` (their machine broke while they ran): their uploads stay.
    func crash(_ ids: [String]) {
        state.withLock { state in
            for id in ids {
                state.statuses[id] = Self.broken(id, code: "ASSEMBLY_CRASHED", uploads: state.uploads[id] ?? [])
            }
        }
    }

    /// Refuses every replay from now on (`ASSEMBLY_CANNOT_BE_REPLAYED`, 400), as the service does outside the window.
    func refuseReplays() { state.withLock { $0.refusesReplays = true } }

    /// The Assembly IDs cancelled, in order.
    var canceled: [String] { state.withLock { $0.canceled } }

    private static func id(of request: HTTPRequestSpec) -> String {
        String(request.url.split(separator: "/").last ?? "")
    }

    /// The keys (or URLs) every creating request's import step named, one list a request.
    var imported: [[String]] { state.withLock { $0.imported } }

    private func create(_ request: HTTPRequestSpec) -> ScriptedTransport.Answer {
        guard !request.url.hasSuffix("/replay") else { return replay(request) }
        let id = Self.id(of: request)
        let uploads = Self.uploads(in: request)
        if uploads.isEmpty, let bucketDirectory, let keys = Self.imported("path", in: request) {
            let failing = state.withLock { $0.failing }
            return imported(id, keys, status: Self.importStatus(id, keys: keys, bucketDirectory: bucketDirectory, failing: failing))
        }
        if uploads.isEmpty, let urlDirectory, let urls = Self.imported("url", in: request) {
            return imported(id, urls, status: Self.urlImportStatus(id, urls: urls, urlDirectory: urlDirectory))
        }
        return state.withLock { state in
            if state.creationRateLimits > 0 {
                state.creationRateLimits -= 1
                return .json(413, #"{"error":"RATE_LIMIT_REACHED","message":"Request limit reached","info":{"retryIn":7}}"#)
            }
            state.created.append(id)
            state.uploads[id] = uploads
            state.uploaded += uploads.map { PathText.lastComponent(of: $0.path) }
            let completed = state.broken.map { Self.broken(id, code: $0, uploads: uploads) }
                ?? Self.status(id, uploads: uploads, failing: state.failing, bundles: state.bundles)
            state.statuses[id] = completed
            // An execution error comes with a status request, as at Transloadit: the creation answers once the uploads are in.
            guard state.executesFirst || completed.contains(#""error""#) else { return .json(200, completed) }
            return .json(200, #"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(SessionHarness.endpoint)/assemblies/\#(id)"}"#)
        }
    }

    /// A replay of the Assembly the URL names: a new one of its uploads, executing, as the recipe is now.
    private func replay(_ request: HTTPRequestSpec) -> ScriptedTransport.Answer {
        let parent = String(request.url.split(separator: "/").dropLast().last ?? "")
        return state.withLock { state in
            guard let uploads = state.uploads[parent] else {
                return .json(404, #"{"error":"ASSEMBLY_NOT_FOUND","message":"no such Assembly"}"#)
            }
            guard !state.refusesReplays else {
                return .json(400, #"{"error":"ASSEMBLY_CANNOT_BE_REPLAYED","message":"its uploads are gone","assembly_id":"\#(parent)"}"#)
            }
            let id = AssemblyID.generate().rawValue
            state.replays.append((parent, id))
            state.uploads[id] = uploads
            state.statuses[id] = state.broken.map { Self.broken(id, code: $0, uploads: uploads) }
                ?? Self.status(id, uploads: uploads, failing: state.failing, bundles: state.bundles)
            return .json(200, #"{"ok":"ASSEMBLY_REPLAYING","assembly_id":"\#(id)","parent_id":"\#(parent)","#
                + #""assembly_ssl_url":"\#(SessionHarness.endpoint)/assemblies/\#(id)","bytes_received":0}"#)
        }
    }

    private func status(_ request: HTTPRequestSpec) -> ScriptedTransport.Answer {
        let id = Self.id(of: request)
        return state.withLock { state in
            if let stop = state.stopsAtStatus {
                state.stopsAtStatus = nil
                stop.request(.signal(15))
                return .heldUntilCancelled
            }
            if state.statusRateLimits > 0 {
                state.statusRateLimits -= 1
                return .json(429, #"{"error":"ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED","info":{"retryIn":3}}"#)
            }
            guard let status = state.statuses[id] else { return .json(404, #"{"error":"ASSEMBLY_NOT_FOUND"}"#) }
            return .json(200, status)
        }
    }

    private func cancel(_ request: HTTPRequestSpec) -> ScriptedTransport.Answer {
        let id = Self.id(of: request)
        state.withLock { $0.canceled.append(id) }
        return .json(200, #"{"ok":"ASSEMBLY_CANCELED","assembly_id":"\#(id)"}"#)
    }

    /// The input file a result URL names, as the result's bytes.
    private static func file(_ request: HTTPRequestSpec) -> ScriptedTransport.Answer {
        let query = request.url.split(separator: "=", maxSplits: 1).last.map { String($0.prefix { $0 != "&" }) } ?? ""
        guard let path = query.removingPercentEncoding, let data = FileManager.default.contents(atPath: path) else {
            return .bytes(404, [])
        }
        return .bytes(200, Array(data))
    }

    /// The creating request's file parts: each one's field name and path.
    private static func uploads(in request: HTTPRequestSpec) -> [(field: String, path: String)] {
        var found: [(String, String)] = []
        var head = ""
        for segment in request.body.asPlan.segments {
            switch segment {
            case let .bytes(bytes):
                head = String(decoding: bytes, as: UTF8.self)
            case let .file(path, _, _):
                guard let start = head.range(of: "; name=\"", options: .backwards) else { continue }
                found.append((String(head[start.upperBound...].prefix { $0 != "\"" }), path))
            }
        }
        return found
    }

    /// Records Assembly `id`, created to import `sources`, completed with `status`.
    private func imported(_ id: String, _ sources: [String], status: String) -> ScriptedTransport.Answer {
        state.withLock { state in
            state.created.append(id)
            state.imported.append(sources)
            state.statuses[id] = status
            // An execution error comes with a status request, as for uploads.
            guard status.contains(#""error""#) else { return .json(200, status) }
            return .json(200, #"{"ok":"ASSEMBLY_EXECUTING","assembly_id":"\#(id)","assembly_ssl_url":"\#(SessionHarness.endpoint)/assemblies/\#(id)"}"#)
        }
    }

    /// The list `member` (`path` for the bucket imports, `url` for `/http/import`) of the `imported` step of the creating
    /// request's params, when it has one.
    private static func imported(_ member: String, in request: HTTPRequestSpec) -> [String]? {
        guard case let .array(paths)? = params(of: request)?.objectValue?["steps"]?.objectValue?[ImportStep.name]?.objectValue?[member] else {
            return nil
        }
        return paths.compactMap(\.stringValue)
    }

    /// The params of a creating request, when it has them.
    static func params(of request: HTTPRequestSpec) -> JSONValue? {
        for case let .bytes(bytes) in request.body.asPlan.segments {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let start = text.range(of: "name=\"params\"\r\n\r\n") else { continue }
            let rest = text[start.upperBound...]
            return try? JSONValue(parsing: String(rest[..<(rest.range(of: "\r\n")?.lowerBound ?? rest.endIndex)]))
        }
        return nil
    }

    /// The status of an Assembly that imported `keys` from the bucket and copied each, as the local service answers: the
    /// import step (`result: true`) lists an `imported` file a key, naming it in `original_path`, and a `copy` result is
    /// made from each (`original_id`), naming it too, served from the bucket's file. A key whose file name is in
    /// `failing` fails the Assembly naming its imported file's ID, as an execution error does.
    private static func importStatus(_ id: String, keys: [String], bucketDirectory: String, failing: Set<String>) -> String {
        var imported: [String] = [], copies: [String] = []
        for (position, key) in keys.enumerated() {
            let path = bucketDirectory + "/" + key
            let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
            let link = "https://tmp.test/files?path=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let named = #""name":\#(JSONValue.string(PathText.lastComponent(of: key)).serialized),"original_path":\#(JSONValue.string(key).serialized)"#
            imported.append(#"{"id":"i\#(position)",\#(named),"original_id":"i\#(position)","size":\#(bytes.count)}"#)
            copies.append(#"{"id":"c\#(position)",\#(named),"original_id":"i\#(position)","size":\#(bytes.count),"#
                + #""md5hash":"\#(Hex.encode(Digest.md5(bytes)))","ssl_url":"\#(link)&assembly=\#(id)"}"#)
        }
        let url = "\(SessionHarness.endpoint)/assemblies/\(id)"
        let listed = #""uploads":[],"results":{"imported":[\#(imported.joined(separator: ","))]"#
        if let culprit = keys.firstIndex(where: { failing.contains(PathText.lastComponent(of: $0)) }) {
            return #"{"ok":null,"error":"IMAGE_RESIZE_ERROR","message":"cannot read the image","assembly_id":"\#(id)","#
                + #""assembly_ssl_url":"\#(url)","original_id":"i\#(culprit)",\#(listed)}}"#
        }
        return #"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(url)",\#(listed),"#
            + #""copy":[\#(copies.joined(separator: ","))]}}"#
    }

    /// The completed status of an Assembly that imported `urls` and copied each: an `imported` result a URL and a `copy`
    /// result made from it, both naming the URL in `meta.import_url`, served from the file of the URL's last path segment.
    private static func urlImportStatus(_ id: String, urls: [String], urlDirectory: String) -> String {
        var imported: [String] = [], copies: [String] = []
        for (position, url) in urls.enumerated() {
            let segment = String(url.split(separator: "/").last ?? "")
            let path = urlDirectory + "/" + segment
            let bytes = Array(FileManager.default.contents(atPath: path) ?? Data())
            let link = "https://tmp.test/files?path=" + (path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            let (name, meta) = (JSONValue.string(segment).serialized, #""meta":{"import_url":\#(JSONValue.string(url).serialized)}"#)
            imported.append(#"{"id":"i\#(position)","name":\#(name),\#(meta),"size":\#(bytes.count),"ssl_url":"\#(link)&imported"}"#)
            copies.append(#"{"id":"c\#(position)","name":\#(name),"original_id":"i\#(position)",\#(meta),"size":\#(bytes.count),"#
                + #""md5hash":"\#(Hex.encode(Digest.md5(bytes)))","ssl_url":"\#(link)&assembly=\#(id)"}"#)
        }
        return #"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(SessionHarness.endpoint)/assemblies/\#(id)","#
            + #""uploads":[],"results":{"imported":[\#(imported.joined(separator: ","))],"copy":[\#(copies.joined(separator: ","))]}}"#
    }

    /// The completed status of Assembly `id` that copied `uploads`; failed naming the first upload whose file name is in `failing`.
    /// The status of an Assembly that failed with `code` for a reason of the recipe's, naming no file.
    private static func broken(_ id: String, code: String, uploads: [(field: String, path: String)]) -> String {
        #"{"ok":null,"error":"\#(code)","message":"the resize Step's width is not a number","assembly_id":"\#(id)","#
            + #""assembly_ssl_url":"\#(SessionHarness.endpoint)/assemblies/\#(id)","uploads":[\#(listed(uploads))]}"#
    }

    /// A status's `uploads` entries of `uploads`.
    private static func listed(_ uploads: [(field: String, path: String)]) -> String {
        uploads.map { #"{"id":"u_\#($0.field)","field":"\#($0.field)","name":"\#(PathText.lastComponent(of: $0.path))"}"# }.joined(separator: ",")
    }

    private static func status(_ id: String, uploads: [(field: String, path: String)], failing: Set<String>, bundles: Bool) -> String {
        let url = "\(SessionHarness.endpoint)/assemblies/\(id)"
        let assembly = id
        if let culprit = uploads.first(where: { failing.contains(PathText.lastComponent(of: $0.path)) }) {
            return #"{"ok":null,"error":"IMAGE_RESIZE_ERROR","message":"cannot read the image","assembly_id":"\#(id)","#
                + #""assembly_ssl_url":"\#(url)","original_id":"u_\#(culprit.field)","uploads":[\#(listed(uploads))]}"#
        }
        func entry(_ id: String, name: String, from upload: (field: String, path: String), naming: String) -> String {
            let bytes = Array(FileManager.default.contents(atPath: upload.path) ?? Data())
            let link = "https://tmp.test/files?path=" + (upload.path.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                + "&assembly=" + assembly
            return #"{"id":"\#(id)","name":"\#(name)","ext":"txt",\#(naming),"size":\#(bytes.count),"#
                + #""md5hash":"\#(Hex.encode(Digest.md5(bytes)))","ssl_url":"\#(link)"}"#
        }
        var results = uploads.map { upload in
            entry("r_\(upload.field)", name: PathText.stemAndExtension(of: PathText.lastComponent(of: upload.path)).stem + ".txt",
                  from: upload, naming: #""field":"\#(upload.field)""#)
        }
        if bundles, let first = uploads.first {
            let all = uploads.map { #""u_\#($0.field)""# }.joined(separator: ",")
            results.append(entry("zip_\(id)", name: "archive.txt", from: first, naming: #""original_id":[\#(all)]"#))
        }
        return #"{"ok":"ASSEMBLY_COMPLETED","assembly_id":"\#(id)","assembly_ssl_url":"\#(url)","#
            + #""uploads":[\#(listed(uploads))],"results":{"copy":[\#(results.joined(separator: ","))]}}"#
    }
}
