import Digests
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes a file piece by piece as a body arrives, optionally hashing what it writes.
///
/// Used by one connection thread at a time (a multipart part, a tus PATCH), so it is not `Sendable`.
final class FileWriter {
    /// Why a write failed: the system's reason, said to the client without the data directory's path.
    struct WriteError: Error, CustomStringConvertible {
        var reason: String

        var description: String { "cannot store the upload: \(reason)" }
    }

    let path: String
    private var descriptor: Int32
    /// Bytes written by this writer.
    private(set) var written: Int64 = 0
    private let digest: Digest?

    /// Opens `path` for writing: a new empty file, or (with `appendingAt`) the existing file cut to that length.
    init(path: String, appendingAt offset: Int64? = nil, hashing algorithm: Digest.Algorithm? = nil) throws(WriteError) {
        let flags = offset == nil ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_WRONLY | O_CREAT | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
        if let offset {
            guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw WriteError(reason: reason)
            }
        }
        self.path = path
        self.descriptor = descriptor
        self.digest = algorithm.map(Digest.init)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Appends `chunk` completely.
    func write(_ chunk: UnsafeRawBufferPointer) throws(WriteError) {
        digest?.update(chunk)
        var done = 0
        while done < chunk.count {
            let count = Glibc.write(descriptor, chunk.baseAddress! + done, chunk.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteError(reason: String(cString: strerror(errno)))
            }
            done += count
        }
        written += Int64(chunk.count)
    }

    /// Closes the file and returns the digest of what was written (empty without hashing, or when called again).
    @discardableResult
    func finish() throws(WriteError) -> [UInt8] {
        guard descriptor >= 0 else { return [] }
        let result = close(descriptor)
        descriptor = -1
        guard result == 0 else { throw WriteError(reason: String(cString: strerror(errno))) }
        return digest?.finalize() ?? []
    }

    /// Closes and deletes the file.
    func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        unlink(path)
    }
}
