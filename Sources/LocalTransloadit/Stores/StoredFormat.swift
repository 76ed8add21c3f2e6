import Foundation

/// The JSON of the service's files in its data directory (Assembly records, tus uploads, Templates):
/// dates as milliseconds since 1970, keys sorted.
enum StoredFormat {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}
