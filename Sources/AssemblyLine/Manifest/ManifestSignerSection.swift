import ConfigFormat

/// Reads the `signer` section: which kind, and where its token or secret comes from.
struct ManifestSignerSection {
    static let keysByKind: [String: [String]] = [
        "backend": ["url", "token_env", "token_file", "timeout", "ca_file"],
        "local": ["secret_env", "secret_file"],
        "embedded": [],
    ]

    let reader: ConfigReader
    let directory: String
    let sections: ManifestSections

    func decode(_ table: ConfigTable, endpoint: Endpoint?) -> SignerSettings? {
        let allKeys = ["kind", "url", "token_env", "token_file", "timeout", "ca_file", "secret_env", "secret_file", "secret", "token"]
        guard let section = table.table("signer", keys: allKeys) else {
            if table.has("signer") { return nil }
            if case .url = endpoint {
                table.reportMissing("signer", expected: "a mapping with kind: backend or local (needed with an endpoint URL)")
                return nil
            }
            return .embedded
        }
        for literal in ["secret", "token"] where section.has(literal) {
            section.report(literal, ManifestSections.literalSecretMessage(use: "\(literal)_env or \(literal)_file"))
        }
        guard let kind = section.string("kind", required: true, expected: "backend, local or embedded") else { return nil }
        guard let allowed = Self.keysByKind[kind] else {
            section.report("kind", "expected backend, local or embedded, found '\(kind)'")
            return nil
        }
        for key in section.members.keys.sorted() where key != "kind" && key != "secret" && key != "token" && !allowed.contains(key) {
            section.report(key, "not used by signer kind \(kind); expected only: \(allowed.isEmpty ? "kind" : allowed.joined(separator: ", "))")
        }
        switch (kind, endpoint) {
        case ("embedded", .url?):
            section.report("kind", "signer kind embedded signs only for endpoint: embedded; expected backend or local with an endpoint URL")
            return nil
        case ("backend", .embedded?):
            section.report("kind", "the embedded endpoint makes up its own secret, which a backend cannot know; expected local or embedded with endpoint: embedded")
            return nil
        default:
            break
        }
        switch kind {
        case "backend":
            let url = section.string("url", required: true, expected: "the signing service's https:// URL")
                .flatMap { sections.url(section, "url", $0, loopbackHTTP: true) }
            let token = section.secretSource(prefix: "token", relativeTo: directory)
            let timeout = section.duration("timeout", in: ManifestDefaults.signerTimeoutRange) ?? ManifestDefaults.signerTimeout
            let caFile = section.string("ca_file", expected: "a PEM file of CA certificates").map { PathText.resolve($0, against: directory) }
            guard let url, let token else { return nil }
            return .backend(url: url, token: token, timeout: timeout, caFile: caFile)
        case "local":
            return section.secretSource(prefix: "secret", relativeTo: directory).map { .local(secret: $0) }
        default:
            return .embedded
        }
    }
}
