import AssemblyLine
import ConfigFormat
import HTTPServer

/// The options of an `/http/import` step: the URLs it fetches.
///
/// `url` is a URL or a list of URLs; a string is split on `url_delimiter` (default `|`), as production splits
/// it. `fail_fast` is accepted: production's skips its internal retries, and the service retries nothing.
/// `headers` are not sent.
struct HTTPImportOptions: Sendable, Hashable {
    var urls: [String]

    /// Reads the step's JSON; other keys are ignored.
    ///
    /// - Throws: an `HTTP_IMPORT_VALIDATION` ``APIError`` naming the step and the option.
    init(step name: String, json options: [String: JSONValue]) throws(APIError) {
        func invalid(_ detail: String) -> APIError {
            .validation(.httpImportValidation, "Step '\(EchoedText.excerpt(name))': \(detail)")
        }
        var delimiter = "|"
        switch options["url_delimiter"] {
        case nil, .null?: break
        case .string(let text)? where !text.isEmpty: delimiter = text
        default: throw invalid("'url_delimiter' must be a non-empty string")
        }
        switch options["url"] {
        case .string(let text)?:
            urls = text.split(separator: delimiter, omittingEmptySubsequences: true).map(String.init)
        case .array(let items)? where items.allSatisfy({ $0.stringValue != nil }):
            urls = items.compactMap(\.stringValue).filter { !$0.isEmpty }
        default:
            throw invalid("'url' must be a URL or a list of URLs")
        }
        guard !urls.isEmpty else { throw invalid("'url' names no URL") }
        if let failFast = options["fail_fast"], ![.null, .bool(true), .bool(false)].contains(failFast) {
            throw invalid("'fail_fast' must be true or false")
        }
    }
}
