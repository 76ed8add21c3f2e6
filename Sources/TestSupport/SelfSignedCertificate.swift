import Foundation

/// A throwaway certificate and key made with the `openssl` command, for a TLS test server.
package struct SelfSignedCertificate: Sendable {
    package let certificate: String
    package let key: String

    /// Generates a P-256 certificate valid for one day whose subjectAltName is `subjectAltName`
    /// (e.g. `IP:127.0.0.1`), on a thread of its own.
    package static func make(in directory: String, name: String, subjectAltName: String) async throws -> SelfSignedCertificate {
        let pair = SelfSignedCertificate(certificate: "\(directory)/\(name).crt", key: "\(directory)/\(name).key")
        let arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-days", "1", "-subj", "/CN=assemblyline-test", "-addext", "subjectAltName=\(subjectAltName)",
            "-keyout", pair.key, "-out", pair.certificate,
        ]
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result {
                    let process = Process()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                    process.arguments = arguments
                    process.standardOutput = FileHandle.nullDevice
                    process.standardError = FileHandle.nullDevice
                    try ChildLaunch.run(process)
                    process.waitUntilEnded()
                    return process.terminationStatus
                })
            }.start()
        }
        guard status == 0 else { throw ChildServer.Failure(message: "openssl req exited with \(status)") }
        return pair
    }
}
