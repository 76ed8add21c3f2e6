import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a secret or a bearer token from where a manifest or policy says: an environment variable or a file.
///
/// One trailing newline (`\n` or `\r\n`) is removed, as `echo` and editors leave one. An empty value
/// is refused. A file must be a regular file of at most ``maxFileSize`` bytes that neither its
/// group nor others may access (mode 600 or stricter, as ssh asks of private keys); a more open
/// file is refused, not merely warned about, because cron jobs have nobody to read a warning.
/// Errors name the variable or the path, never the value.
package struct SecretReader: Sendable {
    /// The largest secret file read.
    package static let maxFileSize = 64 << 10

    package var environment: [String: String]

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The secret's text.
    package func read(_ source: SecretSource) throws(SecretError) -> String {
        let raw: String
        switch source {
        case let .environment(name):
            guard let value = environment[name] else { throw .unset(variable: name) }
            raw = value
        case let .file(path):
            raw = try Self.readFile(path)
        }
        let value = Self.trimmingOneNewline(raw)
        guard !value.isEmpty else { throw .empty(source) }
        return value
    }

    static func trimmingOneNewline(_ text: String) -> String {
        if text.utf8.last == UInt8(ascii: "\n") {
            let dropped = text.utf8.dropLast()
            let trimmed = dropped.last == UInt8(ascii: "\r") ? dropped.dropLast() : dropped
            return String(decoding: trimmed, as: UTF8.self)
        }
        return text
    }

    /// The file's bytes as text, after checking its kind, size and mode on the open descriptor.
    private static func readFile(_ path: String) throws(SecretError) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path: path) }
        let permissions = UInt32(status.st_mode) & 0o777
        guard permissions & 0o077 == 0 else { throw .tooOpen(path: path, mode: permissions) }
        guard status.st_size <= maxFileSize else { throw .tooLarge(path: path, limit: maxFileSize) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            guard bytes.count <= maxFileSize else { throw .tooLarge(path: path, limit: maxFileSize) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
