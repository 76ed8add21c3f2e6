import AssemblyLine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A file that an option or a manifest field names and that is not a secret (a certificate, a CA bundle).
///
/// One that cannot be read is a configuration error (78) naming the option or field and the path.
struct NamedFile {
    /// The largest file read whole: certificate chains and CA bundles are far smaller.
    static let maxSize = 4 << 20

    /// How the error names the file's origin: `--tls-cert`, or `job.yaml: signer.ca_file`.
    let name: String
    let path: String

    /// Throws unless the path is a regular file this process can open for reading.
    func checkReadable() throws(CommandError) {
        _ = try openChecked()
    }

    /// The file's text, at most ``maxSize`` bytes.
    func text() throws(CommandError) -> String {
        let handle = try openChecked()
        do {
            let data = try handle.readToEnd() ?? Data()
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw failure(error.localizedDescription)
        }
    }

    private func openChecked() throws(CommandError) -> FileHandle {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw failure(reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw failure("not a regular file")
        }
        guard status.st_size <= Self.maxSize else {
            close(descriptor)
            throw failure("larger than \(Self.maxSize >> 20) MiB")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    private func failure(_ reason: String) -> CommandError {
        .namedFileUnreadable(name: name, path: path, reason: reason)
    }

    /// The backend signer's `ca_file`, named by its manifest field, when the manifest sets one.
    static func signerCA(of manifest: Manifest) -> NamedFile? {
        guard case let .backend(_, _, _, caFile?) = manifest.signer else { return nil }
        return NamedFile(name: "\(manifest.file): signer.ca_file", path: caFile)
    }
}
