import AssemblyLine
import HTTPMessages

/// The absolute URLs the service hands out: the API host's, and the machine's that holds the Assemblies.
///
/// As in production, an Assembly's status URLs, `tus_url` and upload URLs name the machine
/// (``ServiceMachines``), files are served from the API host, and the API host answers every
/// route. `assembly_url` and `assembly_ssl_url` are the same `http://` URL: the service speaks no
/// TLS, and clients only need both fields to be present and to point back here.
///
/// A service listening on every address (`0.0.0.0`, `::`) cannot name one: its URLs name the host
/// each request came in on (``reached(as:)``), with each listener's own port.
struct ServiceURLs: Sendable, Hashable {
    /// The API host: `http://HOST:PORT`, without a trailing slash.
    let base: String
    /// The machine named in status and tus URLs, without a trailing slash.
    var machine: String
    /// True when the service listens on every address, so that the request's `Host` names it.
    let namesRequestHost: Bool

    init(base: String, machine: String? = nil, namesRequestHost: Bool = false) {
        self.base = Self.trimmed(base)
        self.machine = Self.trimmed(machine ?? base)
        self.namesRequestHost = namesRequestHost
    }

    /// These URLs as a client that reached the service by `hostField` (a request's `Host`) names them.
    ///
    /// Only when ``namesRequestHost``, and only a host name, an IPv4 address or a bracketed IPv6
    /// address; anything else (or no `Host`) leaves the URLs as they are.
    func reached(as hostField: String?) -> ServiceURLs {
        guard namesRequestHost, let hostField, let host = Self.hostName(hostField) else { return self }
        return ServiceURLs(base: Self.replacingHost(of: base, with: host), machine: Self.replacingHost(of: machine, with: host),
                           namesRequestHost: true)
    }

    func assembly(_ id: String) -> String { "\(machine)/assemblies/\(id)" }

    /// The tus creation endpoint (`tus_url`).
    var tusEndpoint: String { "\(machine)/resumable/files/" }

    func tusUpload(_ id: String) -> String { "\(machine)/resumable/files/\(id)" }

    /// The change streams' endpoint on the machine (`websocket_url`); a client names the Assembly in `?assembly=`.
    var changeStreams: String { "\(machine)/ws" }

    /// One Assembly's change stream (`update_stream_url`).
    func changeStream(_ id: String) -> String { "\(changeStreams)?assembly=\(id)" }

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

    /// The host part of a `Host` field (its port dropped), or nil when it is not a plain name or address.
    static func hostName(_ field: String) -> String? {
        let name: Substring
        if field.hasPrefix("[") {
            guard let close = field.firstIndex(of: "]") else { return nil }
            name = field[...close]
            guard name.dropFirst().dropLast().allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { return nil }
        } else {
            name = field.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "." || $0 == "-" }) else { return nil }
        }
        guard !name.isEmpty, name != "[]", name.utf8.count <= 255 else { return nil }
        return String(name)
    }

    /// `http://OLD:PORT` as `http://HOST:PORT`.
    private static func replacingHost(of url: String, with host: String) -> String {
        guard let colon = url.lastIndex(of: ":"), url[colon...].dropFirst().allSatisfy(\.isNumber) else { return url }
        return "http://\(host)\(url[colon...])"
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
