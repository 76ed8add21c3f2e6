import Foundation
package import HTTPMessages

/// What a tus server announced in its answer to OPTIONS: protocol versions, extensions, checksum algorithms, size limit.
///
/// tus 1.0.0 (https://tus.io/protocols/resumable-upload#options): `Tus-Version`, `Tus-Extension`,
/// `Tus-Checksum-Algorithm` and `Tus-Max-Size`. A server that does not answer OPTIONS announces nothing.
package struct TusCapabilities: Sendable, Hashable {
    /// The protocol versions the server speaks, most preferred first; empty when it did not say.
    package var versions: [String]
    package var extensions: Set<String>
    package var checksumAlgorithms: Set<String>
    /// The largest upload the server accepts, in bytes, when it said.
    package var maxSize: Int64?

    package init(versions: [String] = [], extensions: Set<String> = [], checksumAlgorithms: Set<String> = [],
                maxSize: Int64? = nil) {
        self.versions = versions
        self.extensions = extensions
        self.checksumAlgorithms = checksumAlgorithms
        self.maxSize = maxSize
    }

    /// The capabilities in an OPTIONS answer's headers.
    package init(headers: HTTPHeaders) {
        self.init(versions: Self.list(headers.value(for: "Tus-Version")),
                  extensions: Set(Self.list(headers.value(for: "Tus-Extension"))),
                  checksumAlgorithms: Set(Self.list(headers.value(for: "Tus-Checksum-Algorithm"))),
                  maxSize: headers.value(for: "Tus-Max-Size").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// True when the server takes `Upload-Checksum: sha1 ...` on PATCH (the checksum extension with SHA-1).
    package var acceptsSHA1Checksums: Bool {
        extensions.contains("checksum") && checksumAlgorithms.contains("sha1")
    }

    /// True unless the server named its versions and 1.0.0 is not among them.
    package var speaksVersion1: Bool { versions.isEmpty || versions.contains(TusUploader.protocolVersion) }

    /// The items of a comma-separated header value, trimmed and lowercased.
    private static func list(_ value: String?) -> [String] {
        (value ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }
}
