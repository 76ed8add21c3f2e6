import ConfigFormat

extension ImportRule {
    /// Keys that would carry a bucket's credentials or name in the step itself instead of Template Credentials.
    private static let inlineCredentialKeys: Set<String> = ["key", "secret", "bucket", "bucket_region", "session_token"]
    private static let booleanKeys: Set<String> = ["recursive", "return_file_stubs", "fail_fast", "result"]
    private static let integerKeys: Set<String> = ["page_number", "files_per_page", "max_file_size"]
    /// The delimiter production splits a string `url` on when the step names none.
    static let defaultURLDelimiter = "|"

    /// Why `step` (an import step of this rule's Robot) is not allowed by this rule, nil when it is.
    func refusal(of step: [String: JSONValue]) -> ImportRefusal? {
        do throws(ImportRefusal) {
            try checkKeys(step)
            switch robot {
            case .s3, .minio:
                try checkBucket(step)
            case .http:
                for (element, url) in try urls(step) { try ImportTarget.checkURL(url, element: element, prefixes: urlPrefixes) }
            }
            return nil
        } catch {
            return error
        }
    }

    private func checkKeys(_ step: [String: JSONValue]) throws(ImportRefusal) {
        for key in step.keys.sorted() where key != "robot" {
            if Self.inlineCredentialKeys.contains(key) { throw .inlineCredentials(key) }
            guard robot.keys.contains(key) else { throw .unknownKey(key) }
            if key == "headers", !allowsHeaders { throw .headersNotAllowed }
            switch step[key] {
            case .bool? where Self.booleanKeys.contains(key), .integer? where Self.integerKeys.contains(key): continue
            case _ where Self.booleanKeys.contains(key): throw .wrongType(key, expected: "true or false")
            case _ where Self.integerKeys.contains(key): throw .wrongType(key, expected: "a whole number")
            default: continue
            }
        }
    }

    private func checkBucket(_ step: [String: JSONValue]) throws(ImportRefusal) {
        guard let credentials = step["credentials"] else { throw .credentialsNotAllowed(nil) }
        guard let name = credentials.stringValue else { throw .wrongType("credentials", expected: "the name of Template Credentials") }
        guard self.credentials.contains(name) else { throw .credentialsNotAllowed(name) }
        if robot == .minio {
            guard let value = step["host"] else { throw .missing("host") }
            guard let host = value.stringValue else { throw .wrongType("host", expected: "a string") }
            guard hosts.contains(host) else { throw .hostNotAllowed(host) }
        }
        for (element, path) in try Self.elements(step, "path", splitOn: []) {
            try ImportTarget.checkPath(path, element: element, prefixes: prefixes)
        }
    }

    /// Each URL production would import: a string split on `url_delimiter` and on `|`, each element of a list too.
    private func urls(_ step: [String: JSONValue]) throws(ImportRefusal) -> [(element: String, text: String)] {
        var delimiters = [Self.defaultURLDelimiter]
        if let value = step["url_delimiter"] {
            guard let delimiter = value.stringValue, !delimiter.isEmpty else { throw .wrongType("url_delimiter", expected: "a non-empty string") }
            delimiters.append(delimiter)
        }
        return try Self.elements(step, "url", splitOn: delimiters)
    }

    /// The strings of `key`, a string or a list of them, each split on `delimiters`; named `key[0]`, `key[1]`… in order.
    private static func elements(_ step: [String: JSONValue], _ key: String, splitOn delimiters: [String])
        throws(ImportRefusal) -> [(element: String, text: String)] {
        let expected = "a string or a list of strings"
        let values: [JSONValue]
        switch step[key] {
        case nil: throw .missing(key)
        case let .string(text)?: values = [.string(text)]
        case let .array(items)? where !items.isEmpty: values = items
        default: throw .wrongType(key, expected: expected)
        }
        var texts: [String] = []
        for value in values {
            guard let text = value.stringValue else { throw .wrongType(key, expected: expected) }
            texts += delimiters.reduce([text]) { pieces, delimiter in
                pieces.flatMap { $0.split(separator: delimiter, omittingEmptySubsequences: false).map(String.init) }
            }
        }
        return texts.enumerated().map { ("\(key)[\($0.offset)]", $0.element) }
    }
}
