package import HTTPMessages

/// Who AssemblyLine says it is on the wire and in `--version`.
package enum ClientIdentity {
    /// The released version of AssemblyLine.
    package static let version = "0.1.0"

    /// The value of the `Transloadit-Client` header, `assemblyline:<version>`, as the official SDKs send theirs
    /// (shared/reference/transloadit-api.md §2.5).
    package static let transloaditClient = "assemblyline:\(version)"

    /// The header every request of the transport carries.
    package static let header = HTTPHeader(name: "Transloadit-Client", value: transloaditClient)
}
