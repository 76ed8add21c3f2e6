#if canImport(Glibc)
import Glibc
#endif

/// An open file, or a byte range of one, to send as a response body without reading it into memory.
///
/// Opening happens at creation, so a handler learns at once that a file is missing and can
/// answer 404 instead. The server sends from its own duplicate of the descriptor (libmicrohttpd
/// uses `sendfile` where it can), so one `HTTPFile` may back several responses; the descriptor
/// is closed when the last reference goes.
package final class HTTPFile: Sendable {
    package let path: String
    /// The first byte sent.
    package let offset: UInt64
    /// How many bytes are sent.
    package let length: UInt64
    let descriptor: Int32

    /// Opens `path` for reading; `length` nil sends from `offset` to the end of the file.
    ///
    /// - Throws: ``HTTPServerError/fileUnreadable(path:errno:)`` when it cannot be opened or is not a
    ///   regular file, ``HTTPServerError/rangeOutsideFile(path:offset:length:fileSize:)`` for a bad range.
    package init(path: String, offset: UInt64 = 0, length: UInt64? = nil) throws(HTTPServerError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileUnreadable(path: path, errno: errno) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .fileUnreadable(path: path, errno: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .fileUnreadable(path: path, errno: EISDIR)
        }
        let size = UInt64(status.st_size)
        let wanted = length ?? (size >= offset ? size - offset : 0)
        guard offset <= size, wanted <= size - offset else {
            close(descriptor)
            throw .rangeOutsideFile(path: path, offset: offset, length: wanted, fileSize: size)
        }
        self.path = path
        self.offset = offset
        self.length = wanted
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
