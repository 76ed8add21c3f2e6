import CCrypto

/// A message digest computed over bytes fed in pieces, for streaming files (MD5 of a download, SHA-1 of a tus chunk).
///
/// ```swift
/// let digest = Digest(.md5)
/// digest.update(chunk)            // as often as needed
/// let hex = Hex.encode(digest.finalize())
/// ```
/// Wraps `EVP_DigestInit_ex`/`EVP_DigestUpdate`/`EVP_DigestFinal_ex`
/// (https://www.openssl.org/docs/man3.0/man3/EVP_DigestInit.html). One `Digest` belongs to one task at a time.
package final class Digest {
    /// The hash functions the project needs.
    package enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case md5, sha1, sha256, sha384

        /// The digest length in bytes.
        package var byteCount: Int {
            switch self {
            case .md5: 16
            case .sha1: 20
            case .sha256: 32
            case .sha384: 48
            }
        }

        /// libcrypto's built-in description of the function.
        var evp: OpaquePointer {
            let md: OpaquePointer? = switch self {
            case .md5: EVP_md5()
            case .sha1: EVP_sha1()
            case .sha256: EVP_sha256()
            case .sha384: EVP_sha384()
            }
            guard let md else { fatalError("libcrypto has no \(rawValue) digest") }
            return md
        }
    }

    package let algorithm: Algorithm
    private let context: OpaquePointer
    private var finished = false

    package init(_ algorithm: Algorithm) {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed: out of memory") }
        guard EVP_DigestInit_ex(context, algorithm.evp, nil) == 1 else { fatalError("EVP_DigestInit_ex(\(algorithm)) failed") }
        self.algorithm = algorithm
        self.context = context
    }

    private init(algorithm: Algorithm, context: OpaquePointer) {
        self.algorithm = algorithm
        self.context = context
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// A new digest that has seen the same bytes as this one; the two go on independently.
    package func copy() -> Digest {
        precondition(!finished, "Digest.copy after finalize")
        guard let copy = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed: out of memory") }
        guard EVP_MD_CTX_copy_ex(copy, context) == 1 else { fatalError("EVP_MD_CTX_copy_ex failed") }
        return Digest(algorithm: algorithm, context: copy)
    }

    /// Feeds raw memory to the digest.
    package func update(_ buffer: UnsafeRawBufferPointer) {
        precondition(!finished, "Digest.update after finalize")
        guard buffer.count > 0 else { return }
        guard EVP_DigestUpdate(context, buffer.baseAddress, buffer.count) == 1 else { fatalError("EVP_DigestUpdate failed") }
    }

    /// Feeds bytes to the digest (copied first only when the collection is not contiguous).
    package func update(_ bytes: some Collection<UInt8>) {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            Array(bytes).withUnsafeBytes { update($0) }
        }
    }

    /// Ends the computation and returns the digest; the object cannot be used afterwards.
    package func finalize() -> [UInt8] {
        precondition(!finished, "Digest.finalize called twice")
        finished = true
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &output, &length) == 1 else { fatalError("EVP_DigestFinal_ex failed") }
        return Array(output.prefix(Int(length)))
    }
}

@available(*, unavailable)
extension Digest: Sendable {}

