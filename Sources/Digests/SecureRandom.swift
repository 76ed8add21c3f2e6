import CCrypto

/// Unpredictable bytes from libcrypto's CSPRNG, for nonces, Assembly IDs and generated secrets.
package enum SecureRandom {
    /// `count` random bytes.
    ///
    /// - Throws: `HMACError.randomUnavailable` when `RAND_bytes` fails (see
    ///   https://www.openssl.org/docs/man3.0/man3/RAND_bytes.html).
    package static func bytes(count: Int) throws(HMACError) -> [UInt8] {
        precondition(count >= 0 && count <= Int(Int32.max), "random byte count out of range: \(count)")
        var bytes = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return bytes }
        let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        guard status == 1 else { throw .randomUnavailable(count: count) }
        return bytes
    }

    /// `byteCount` random bytes as lowercase hex: 16 bytes give a 32-hex Assembly ID.
    package static func hex(byteCount: Int) throws(HMACError) -> String {
        Hex.encode(try bytes(count: byteCount))
    }
}
