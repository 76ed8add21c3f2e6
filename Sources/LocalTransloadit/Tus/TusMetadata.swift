import Foundation

/// The tus `Upload-Metadata` header: comma-separated `key base64(value)` pairs (tus 1.0.0, creation extension).
enum TusMetadata {
    /// The keys the Assembly reads itself; the others become the upload's `user_meta`.
    static let reservedKeys: Set = ["assembly_url", "fieldname", "filename"]

    /// The decoded pairs; nil when a pair is malformed, a value is not base64 of UTF-8, or a key repeats.
    static func parse(_ header: String) -> [String: String]? {
        var values: [String: String] = [:]
        for pair in header.split(separator: ",") {
            let parts = pair.split(separator: " ", omittingEmptySubsequences: true)
            guard let key = parts.first, parts.count <= 2, values[String(key)] == nil else { return nil }
            if parts.count == 1 {
                values[String(key)] = ""
                continue
            }
            guard let data = Data(base64Encoded: String(parts[1])), let value = String(data: data, encoding: .utf8) else {
                return nil
            }
            values[String(key)] = value
        }
        return values
    }
}
