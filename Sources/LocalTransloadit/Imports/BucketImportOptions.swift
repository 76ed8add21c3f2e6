import AssemblyLine
import ConfigFormat
import HTTPServer

/// The options of an `/s3/import` or `/minio/import` step: the Template Credentials it names, the keys, and where.
///
/// Read when the Assembly is created (its shape), used when it executes (the credentials by name): an unknown
/// name fails the Assembly, as production's steps fail on Credentials an account lacks.
struct BucketImportOptions: Sendable, Hashable {
    /// The Robot as the step names it: `/s3/import` or `/minio/import`.
    var robot: String
    /// The Template Credentials' name.
    var credentials: String
    /// `/minio/import`'s `host` (`host[:port]`, in the credentials' scheme); nil uses the credentials' endpoint.
    var host: String?
    /// The keys; one that ends in `/` is a directory whose objects are imported.
    var paths: [String]
    /// True imports a directory's nested objects too.
    var recursive: Bool
    /// `files_per_page` and `page_number`: which of a directory's objects one step imports (1,000 and the first page).
    var filesPerPage: Int
    var pageNumber: Int

    /// Reads the step's JSON; other keys are ignored.
    ///
    /// - Throws: an `S3_IMPORT_VALIDATION` ``APIError`` naming the step and the option.
    init(step name: String, robot: String, json options: [String: JSONValue]) throws(APIError) {
        func invalid(_ detail: String) -> APIError {
            .validation(.s3ImportValidation, "Step '\(EchoedText.excerpt(name))': \(detail)")
        }
        self.robot = robot
        guard let credentials = options["credentials"]?.stringValue, !credentials.isEmpty else {
            throw invalid("\(robot) needs 'credentials', the name of Template Credentials")
        }
        self.credentials = credentials
        switch options["host"] {
        case nil, .null?: host = nil
        case .string(let text)? where robot == "/minio/import" && !text.isEmpty: host = text
        case _ where robot != "/minio/import": host = nil
        default: throw invalid("'host' must be host[:port]")
        }
        switch options["path"] {
        case .string(let path)? where !path.isEmpty:
            paths = [path]
        case .array(let items)? where !items.isEmpty && items.allSatisfy({ !($0.stringValue ?? "").isEmpty }):
            paths = items.compactMap(\.stringValue)
        default:
            throw invalid("'path' must be a key or a list of keys (a directory ends in '/')")
        }
        // A `.` or `..` segment cannot be asked for path-style: the transport would resolve it and fetch another key.
        if let dotted = paths.first(where: { $0.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." } }) {
            throw invalid("the key '\(EchoedText.excerpt(dotted))' has a '.' or '..' segment, which cannot be fetched path-style")
        }
        switch options["recursive"] {
        case nil, .null?, .bool(false)?, .string("false")?: recursive = false
        case .bool(true)?, .string("true")?: recursive = true
        default: throw invalid("'recursive' must be true or false")
        }
        guard let filesPerPage = Self.count(options["files_per_page"], default: 1000, in: 1...1000) else {
            throw invalid("'files_per_page' must be a whole number from 1 to 1000")
        }
        guard let pageNumber = Self.count(options["page_number"], default: 1, in: 1...1_000_000) else {
            throw invalid("'page_number' must be a whole number from 1 to 1000000")
        }
        self.filesPerPage = filesPerPage
        self.pageNumber = pageNumber
    }

    /// A whole number (or its text) within `range`, `fallback` when absent; nil when it is something else.
    private static func count(_ value: JSONValue?, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        switch value {
        case nil, .null?: return fallback
        case .integer(let number)?: return range.contains(Int(clamping: number)) ? Int(number) : nil
        case .string(let text)?: return Int(text).flatMap { range.contains($0) ? $0 : nil }
        default: return nil
        }
    }
}
