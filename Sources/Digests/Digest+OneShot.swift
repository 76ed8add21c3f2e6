#if canImport(Glibc)
import Glibc
#endif

extension Digest {
    /// The digest of `bytes` in one call.
    package static func hash(_ algorithm: Algorithm, _ bytes: some Collection<UInt8>) -> [UInt8] {
        let digest = Digest(algorithm)
        digest.update(bytes)
        return digest.finalize()
    }

    /// The SHA-256 of `bytes` (token hashes in the sign-server policy).
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha256, bytes) }

    /// The SHA-1 of `bytes` (tus `Upload-Checksum`).
    package static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.sha1, bytes) }

    /// The MD5 of `bytes` (Transloadit's `md5hash` of a result).
    package static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] { hash(.md5, bytes) }

    /// The digest of a file's contents, or of `length` bytes from `offset`, read in `bufferSize` pieces.
    ///
    /// Never holds more than one buffer of the file in memory.
    /// - Throws: `HMACError.fileIO` when the file cannot be opened or read, or ends before `offset + length`.
    package static func hashFile(
        _ algorithm: Algorithm,
        path: String,
        offset: Int64 = 0,
        length: Int64? = nil,
        bufferSize: Int = 1 << 20
    ) throws(HMACError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileIO(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return try hashFile(algorithm, descriptor: descriptor, path: path, offset: offset, length: length, bufferSize: bufferSize)
    }

    /// The digest of an open file's contents, or of `length` bytes from `offset`, read in `bufferSize` pieces;
    /// `path` only names it in errors. The descriptor stays open.
    ///
    /// Given the length, it reads no further: a file whose size is known takes one read a piece, none to find its end.
    package static func hashFile(
        _ algorithm: Algorithm,
        descriptor: Int32,
        path: String,
        offset: Int64 = 0,
        length: Int64? = nil,
        bufferSize: Int = 1 << 20
    ) throws(HMACError) -> [UInt8] {
        let digest = Digest(algorithm)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        var remaining = length ?? Int64.max
        while remaining > 0 {
            let wanted = Int(min(Int64(bufferSize), remaining))
            let count = pread(descriptor, buffer.baseAddress, wanted, off_t(position))
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileIO(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                guard length == nil else {
                    throw .fileIO(path: path, reason: "ended at byte \(position), expected \(offset + (length ?? 0))")
                }
                break
            }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            position += Int64(count)
            remaining -= Int64(count)
        }
        return digest.finalize()
    }
}
