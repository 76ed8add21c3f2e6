/// Turns a params string into a Transloadit signature: the port behind which the backend, local and embedded signers sit.
///
/// A signer signs the exact UTF-8 bytes it is given and returns `sha384:` followed by 96 lowercase
/// hex digits. The caller sends those same bytes to Transloadit and never re-serializes them
/// (DESIGN.md §3).
package protocol Signer: Sendable {
    /// The signature of `params`, as `sha384:<96 lowercase hex>`.
    ///
    /// - Throws: a ``SigningError`` saying why no signature came back; nothing may be uploaded then.
    func sign(_ params: String) async throws(SigningError) -> String
}

extension Signer {
    /// Signs `params` and keeps the string and its signature together.
    package func signed(_ params: String) async throws(SigningError) -> SignedParams {
        SignedParams(params: params, signature: try await sign(params))
    }
}

/// A params string with its signature: the bytes signed are the bytes sent.
package struct SignedParams: Sendable, Hashable {
    /// The exact params JSON text that was signed.
    package let params: String
    /// `sha384:<96 lowercase hex>`.
    package let signature: String

    package init(params: String, signature: String) {
        self.params = params
        self.signature = signature
    }

    /// The `params` and `signature` form fields, in that order, as every signed request sends them.
    package var formFields: [(name: String, value: String)] {
        [(name: "params", value: params), (name: "signature", value: signature)]
    }
}
