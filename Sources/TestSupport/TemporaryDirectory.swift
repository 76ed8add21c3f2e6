package import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A fresh directory for one test under the system's temporary directory, removed with the value.
///
/// Swift Testing runs tests in parallel, so every test makes its own (`mkdtemp` picks a name no
/// other test has).
package final class TemporaryDirectory: Sendable {
    package let url: URL
    package let path: String

    package init() throws {
        var template = Array(FileManager.default.temporaryDirectory.appendingPathComponent("assemblyline-test-XXXXXX").path.utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The path of `name` inside the directory (nothing is created).
    package func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes `text` to `relativePath`, creating folders, and returns its URL.
    @discardableResult
    package func write(_ relativePath: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Writes `bytes` to `name` and returns the file's path.
    @discardableResult
    package func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = self.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}
