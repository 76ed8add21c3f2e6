extension HMAC {
    /// The Transloadit signature of a params string: `"<alg>:" + lowercase hex of HMAC(secret, params)`.
    ///
    /// Both strings are taken as their exact UTF-8 bytes: the params are signed as they will be sent,
    /// never re-serialized (shared/reference/transloadit-api.md §2.4).
    package static func transloaditSignature(params: String, secret: String, algorithm: Algorithm = .sha384) -> String {
        let code = authenticationCode(algorithm, key: Array(secret.utf8), message: Array(params.utf8))
        return "\(algorithm.rawValue):\(Hex.encode(code))"
    }

    /// True when `signature` signs `params` under `secret`, compared in constant time.
    ///
    /// A `sha1:`, `sha256:` or `sha384:` prefix names the algorithm; no prefix is the legacy
    /// HMAC-SHA1. Hex digits of either case are accepted; anything else is a mismatch.
    package static func verifyTransloaditSignature(_ signature: String, params: String, secret: String) -> Bool {
        let algorithm: Algorithm
        let hex: Substring
        if let colon = signature.firstIndex(of: ":") {
            guard let named = Algorithm(rawValue: String(signature[..<colon])) else { return false }
            algorithm = named
            hex = signature[signature.index(after: colon)...]
        } else {
            algorithm = .sha1
            hex = signature[...]
        }
        guard let given = Hex.decode(hex), given.count == algorithm.byteCount else { return false }
        let expected = authenticationCode(algorithm, key: Array(secret.utf8), message: Array(params.utf8))
        return ConstantTime.equals(given, expected)
    }
}
