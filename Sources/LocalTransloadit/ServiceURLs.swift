import AssemblyLine
import HTTPMessages

/// The absolute URLs the service hands out, all under its own base URL.
///
/// `assembly_url` and `assembly_ssl_url` are the same `http://` URL: the service speaks no TLS,
/// and clients only need both fields to be present and to point back here.
struct ServiceURLs: Sendable, Hashable {
    /// `http://HOST:PORT`, without a trailing slash.
    let base: String

    init(base: String) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    func assembly(_ id: String) -> String { "\(base)/assemblies/\(id)" }

    /// The tus creation endpoint (`tus_url`).
    var tusEndpoint: String { "\(base)/resumable/files/" }

    func tusUpload(_ id: String) -> String { "\(base)/resumable/files/\(id)" }

    /// Where an uploaded or result file is served: `/files/<assembly>/<file>/<name>`.
    func file(assembly: String, file: String, name: String) -> String {
        let segment = FormURLEncoding.escape(name).split(separator: "+", omittingEmptySubsequences: false).joined(separator: "%20")
        return "\(base)/files/\(assembly)/\(file)/\(segment)"
    }

    /// The Assembly ID at the end of an `assembly_url` (http or https, any host), or nil.
    static func assemblyID(inURL url: String) -> String? {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        guard let last = path.split(separator: "/").last.map(String.init), AssemblyID(last) != nil else { return nil }
        return last
    }
}
