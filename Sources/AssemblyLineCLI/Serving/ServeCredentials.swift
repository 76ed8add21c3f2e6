import Foundation
import LocalTransloadit
#if canImport(Glibc)
import Glibc
#endif

/// Where `serve` takes its Auth Key and Secret from: the command line and a secret source, or a pair kept in the data directory.
///
/// Without `--key`, the pair lives in `<data-dir>/auth-key` and `<data-dir>/auth-secret` (mode
/// 0600): generated on the first start and reused after, so clients keep working across restarts.
enum ServeCredentials {
    /// The credentials, and the path of the secret file when the pair came from the data directory.
    static func resolve(
        key: String?, secretEnv: String?, secretFile: String?, dataDirectory: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (credentials: ServiceCredentials, secretPath: String?, generated: Bool) {
        if let key {
            let secret: String
            if let name = secretEnv {
                guard let value = environment[name], !value.isEmpty else {
                    throw CommandError.secretVariableUnset(name: name)
                }
                secret = value
            } else if let path = secretFile {
                secret = try readSecret(path)
            } else {
                secret = try ServiceCredentials.generate().secret
            }
            return (ServiceCredentials(key: key, secret: secret), nil, false)
        }
        let keyPath = "\(dataDirectory)/auth-key", secretPath = "\(dataDirectory)/auth-secret"
        let manager = FileManager.default
        if manager.fileExists(atPath: keyPath), manager.fileExists(atPath: secretPath) {
            let stored = try readSecret(keyPath)
            return (ServiceCredentials(key: stored, secret: try readSecret(secretPath)), secretPath, false)
        }
        let fresh = try ServiceCredentials.generate()
        do {
            try manager.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            try write(fresh.secret + "\n", to: secretPath, mode: 0o600)
            try write(fresh.key + "\n", to: keyPath, mode: 0o644)
        } catch {
            throw CommandError.credentialsNotWritable(directory: dataDirectory, reason: error.localizedDescription)
        }
        return (fresh, secretPath, true)
    }

    /// The first line of a file, without surrounding whitespace; never echoed in errors.
    private static func readSecret(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path),
              let text = String(data: data, encoding: .utf8) else {
            throw CommandError.secretFileUnreadable(path: path)
        }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw CommandError.secretFileEmpty(path: path) }
        return trimmed
    }

    /// Creates `path` with `mode` from the start (replacing an older file), so the secret is never readable by others.
    private static func write(_ text: String, to path: String, mode: mode_t) throws {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count,
              fchmod(descriptor, mode) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
