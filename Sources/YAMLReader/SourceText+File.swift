#if canImport(Glibc)
import Glibc
#endif

extension SourceText {
    /// The largest file read as YAML; a bigger one is certainly not a configuration file.
    package static let maxFileSize = 16 << 20

    /// Reads the UTF-8 file at `path`; its name in messages is `path` as given.
    ///
    /// - Throws: ``YAMLError`` naming the path when the file is missing, unreadable, a directory,
    ///   larger than ``maxFileSize``, or not UTF-8 (then with the line and column of the first bad byte).
    package init(contentsOfFile path: String) throws(YAMLError) {
        let bytes = try Self.readBytes(path: path)
        if let text = String(validating: bytes, as: UTF8.self) {
            self.init(file: path, text: text)
            return
        }
        let lossy = SourceText(file: path, text: String(decoding: bytes, as: UTF8.self))
        let (offset, byte) = Self.firstInvalidUTF8(in: bytes)
        let hex = String(byte, radix: 16, uppercase: true)
        // The lossy decoding has the same bytes up to the first invalid one.
        let mark = lossy.mark(atUTF8Offset: offset)
        throw YAMLError(source: lossy, mark: mark, message: "invalid UTF-8 byte 0x\(hex); the file must be UTF-8 text")
    }

    /// The whole file, refusing anything that is not a regular file of a sane size.
    private static func readBytes(path: String) throws(YAMLError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw systemError(path: path, action: "cannot open") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw systemError(path: path, action: "cannot inspect") }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw YAMLError(file: path, message: "is not a regular file")
        }
        guard status.st_size <= maxFileSize else {
            throw YAMLError(file: path, message: "is \(status.st_size) bytes; a YAML file may have at most \(maxFileSize) bytes")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw systemError(path: path, action: "cannot read") }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maxFileSize else {
                throw YAMLError(file: path, message: "grew past \(maxFileSize) bytes while it was read")
            }
        }
    }

    /// An error with the C library's text for the current `errno`.
    private static func systemError(path: String, action: String) -> YAMLError {
        YAMLError(file: path, message: "\(action) the file: \(String(cString: strerror(errno)))")
    }

    /// The offset and value of the first byte that does not start or continue valid UTF-8.
    private static func firstInvalidUTF8(in bytes: [UInt8]) -> (offset: Int, byte: UInt8) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) {
            offset += UTF8.width(scalar)
        }
        return (offset, offset < bytes.count ? bytes[offset] : 0)
    }
}
