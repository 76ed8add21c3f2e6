import CCrypto

/// Comparison of secrets (signatures, token hashes) whose time does not depend on where they differ.
package enum ConstantTime {
    /// True when both byte strings are equal; the time taken depends only on their lengths.
    ///
    /// Different lengths return false at once: lengths of signatures and digests are public.
    package static func equals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }

    /// True when both strings have the same UTF-8 bytes, compared in constant time.
    package static func equals(_ lhs: String, _ rhs: String) -> Bool {
        equals(Array(lhs.utf8), Array(rhs.utf8))
    }
}
