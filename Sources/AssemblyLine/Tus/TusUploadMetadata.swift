import Foundation

/// The `Upload-Metadata` header of a tus creation: key and base64 value pairs, in a fixed order.
///
/// tus 1.0.0 (https://tus.io/protocols/resumable-upload#upload-metadata): pairs separated by
/// commas, each a key, a space and the base64 of the value; keys are unique, non-empty and hold
/// no spaces or commas. The order is the caller's, so the same upload always sends the same bytes.
package struct TusUploadMetadata: Sendable, Hashable, CustomStringConvertible {
    package private(set) var pairs: [(key: String, value: String)]

    /// Pairs in the order given; a key that is empty, repeated, or holds a space or comma is a programming error.
    package init(_ pairs: [(key: String, value: String)]) {
        var seen: Set<String> = []
        for pair in pairs {
            precondition(!pair.key.isEmpty && !pair.key.contains(" ") && !pair.key.contains(","),
                         "tus metadata key '\(pair.key)' must be non-empty without spaces or commas")
            precondition(seen.insert(pair.key).inserted, "tus metadata key '\(pair.key)' is repeated")
        }
        self.pairs = pairs
    }

    /// The header value: `key base64(value)` pairs joined by commas.
    package var headerValue: String {
        pairs.map { "\($0.key) \(Data($0.value.utf8).base64EncodedString())" }.joined(separator: ",")
    }

    package var description: String { headerValue }

    package static func == (lhs: TusUploadMetadata, rhs: TusUploadMetadata) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.key)
            hasher.combine(pair.value)
        }
    }
}
