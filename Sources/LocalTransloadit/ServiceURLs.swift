import AssemblyLine
import HTTPMessages

/// The absolute URLs the service hands out: the API host's, and the machine's that holds the Assemblies.
///
/// As in production, an Assembly's status URLs, `tus_url` and upload URLs name the machine
/// (``ServiceMachines``), files are served from the API host, and the API host answers every
/// route. `assembly_url` and `assembly_ssl_url` are the same `http://` URL: the service speaks no
/// TLS, and clients only need both fields to be present and to point back here.
struct ServiceURLs: Sendable, Hashable {
    /// The API host: `http://HOST:PORT`, without a trailing slash.
    let base: String
    /// The machine named in status and tus URLs, without a trailing slash.
    var machine: String

    init(base: String, machine: String? = nil) {
        self.base = Self.trimmed(base)
        self.machine = Self.trimmed(machine ?? base)
    }

    func assembly(_ id: String) -> String { "\(machine)/assemblies/\(id)" }

    /// The tus creation endpoint (`tus_url`).
    var tusEndpoint: String { "\(machine)/resumable/files/" }

    func tusUpload(_ id: String) -> String { "\(machine)/resumable/files/\(id)" }

    /// Where an uploaded or result file is served: `/files/<assembly>/<file>/<name>`.
    func file(assembly: String, file: String, name: String) -> String {
        let segment = FormURLEncoding.escape(name).split(separator: "+", omittingEmptySubsequences: false).joined(separator: "%20")
        return "\(base)/files/\(assembly)/\(file)/\(segment)"
    }

    /// Where the `/s3/store` stand-in reports a file it stored (`storage/...` under the data directory): a URL that answers 403.
    func storage(_ storedPath: String) -> String {
        "\(base)/\(storedPath.split(separator: "/").map { FormURLEncoding.escape(String($0)) }.joined(separator: "/"))"
    }

    /// The Assembly ID at the end of an `assembly_url` (http or https, any host), or nil.
    static func assemblyID(inURL url: String) -> String? {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        guard let last = path.split(separator: "/").last.map(String.init), AssemblyID(last) != nil else { return nil }
        return last
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
